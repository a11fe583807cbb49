import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createMemoryLogger } from '../base/logger.js';
import { KeptInstallersError, keptInstallers } from './kept-installers.js';
import { type GoBackMessage, goBackToPreviousVersion } from './updater.js';

// Going back after an update: the installers electron-updater downloaded are kept (real files in
// a temp folder), and Help → Go Back runs the one of the version this updated from.
let root: string;
let downloads: string;
let clock = 0;
beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'hearth-kept-installers-'));
  downloads = join(root, 'updater-cache');
  await mkdir(downloads, { recursive: true });
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

async function download(version: string) {
  const file = join(downloads, `Hearth-Setup-${version}.exe`);
  await writeFile(file, `installer ${version}`);
  return file;
}
const kept = () => keptInstallers(join(root, 'kept'), () => ++clock);

describe('kept installers', () => {
  it('keeps the newest two versions, removing older ones from disk', async () => {
    const store = kept();
    const first = await store.keep('0.2.0', await download('0.2.0'));
    await store.keep('0.3.0', await download('0.3.0'));
    expect(await readFile(first.file, 'utf8')).toBe('installer 0.2.0');
    await store.keep('0.4.0', await download('0.4.0'));
    expect((await store.list()).map((entry) => entry.version)).toEqual(['0.3.0', '0.4.0']);
    await expect(readFile(first.file, 'utf8')).rejects.toMatchObject({ code: 'ENOENT' });
    // Running 0.4.0 (just installed): the way back is 0.3.0.
    expect((await store.previous('0.4.0'))?.version).toBe('0.3.0');
  });

  it('a damaged list is named and left as it is', async () => {
    const store = kept();
    await store.keep('0.2.0', await download('0.2.0'));
    const listFile = join(root, 'kept', 'kept.json');
    await writeFile(listFile, '{"version":1,"installers":[{"version":""}]}');
    await expect(store.previous('0.3.0')).rejects.toThrow(KeptInstallersError);
    await expect(store.previous('0.3.0')).rejects.toThrow(/kept\.json cannot be read \(installers\.0\.version/);
    expect(await readFile(listFile, 'utf8')).toBe('{"version":1,"installers":[{"version":""}]}');
  });
});

describe('go back to the previous version', () => {
  function person(answers: number[]) {
    const asked: GoBackMessage[] = [];
    const opened: string[] = [];
    let quit = false;
    return {
      asked,
      opened,
      quitCalled: () => quit,
      deps: {
        ask: async (options: GoBackMessage) => {
          asked.push(options);
          return answers.shift() ?? options.cancelId;
        },
        openInstaller: async (file: string) => {
          opened.push(file);
          return '';
        },
        quit: () => {
          quit = true;
        },
        logger: createMemoryLogger(),
      },
    };
  }

  it('nothing kept: says so and how to get an older release', async () => {
    const who = person([]);
    expect(await goBackToPreviousVersion({ ...who.deps, kept: kept(), runningVersion: '0.3.0' })).toBe('nothing-kept');
    expect(who.asked[0]?.message).toBe('No earlier version is kept on this computer');
    expect(who.opened).toEqual([]);
  });

  it('asks with Cancel as the default; only a yes runs the kept installer and quits', async () => {
    const store = kept();
    await store.keep('0.2.0', await download('0.2.0'));
    await store.keep('0.3.0', await download('0.3.0'));

    const declined = person([]); // Esc or Enter: the default
    expect(await goBackToPreviousVersion({ ...declined.deps, kept: store, runningVersion: '0.3.0' })).toBe('cancelled');
    expect(declined.asked[0]).toMatchObject({ type: 'warning', message: 'Go back to Hearth 0.2.0?', defaultId: 0 });
    expect(declined.asked[0]?.buttons[0]).toBe('Cancel');
    expect(declined.opened).toEqual([]);

    const yes = person([1]);
    expect(await goBackToPreviousVersion({ ...yes.deps, kept: store, runningVersion: '0.3.0' })).toBe(
      'installer-started',
    );
    expect(yes.opened).toEqual([join(root, 'kept', '0.2.0', 'Hearth-Setup-0.2.0.exe')]);
    expect(yes.quitCalled()).toBe(true);
  });

  it('an installer that does not start is said, and Hearth keeps running', async () => {
    const store = kept();
    await store.keep('0.2.0', await download('0.2.0'));
    const who = person([1]);
    const outcome = await goBackToPreviousVersion({
      ...who.deps,
      openInstaller: async () => 'Failed to open path',
      kept: store,
      runningVersion: '0.3.0',
    });
    expect(outcome).toBe('installer-failed');
    expect(who.asked[1]).toMatchObject({ type: 'error', message: 'The installer of 0.2.0 did not start' });
    expect(who.quitCalled()).toBe(false);
  });
});
