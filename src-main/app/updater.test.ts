import { EventEmitter } from 'node:events';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createMemoryLogger, DisposableStore } from '../base/index.js';
import { flush } from '../testing/app/fake-electron.js';
import { createFakeClock } from '../testing/fake-clock.js';
import { type KeptInstallers, keptInstallers } from './kept-installers.js';
import { type AppUpdaterLike, startAutoUpdates, UPDATE_INTERVAL_MS } from './updater.js';

class FakeUpdater extends EventEmitter implements AppUpdaterLike {
  autoDownload = false;
  autoInstallOnAppQuit = false;
  allowPrerelease = false;
  allowDowngrade = true;
  channel: string | null = null;
  checks = 0;
  installs: [boolean | undefined, boolean | undefined][] = [];
  failNext = false;
  async checkForUpdates(): Promise<unknown> {
    this.checks += 1;
    if (this.failNext) {
      this.failNext = false;
      throw new Error('net::ERR_INTERNET_DISCONNECTED');
    }
    return null;
  }
  quitAndInstall(isSilent?: boolean, isForceRunAfter?: boolean): void {
    this.installs.push([isSilent, isForceRunAfter]);
  }
}

/** Every auto-updater a test started (each holds its daily timer), stopped after the test. */
let started: DisposableStore;
beforeEach(() => {
  started = new DisposableStore();
});
afterEach(() => {
  started.dispose();
});

function setup(
  options: { isPackaged?: boolean; channel?: 'stable' | 'beta'; answer?: boolean; kept?: KeptInstallers } = {},
) {
  const updater = new FakeUpdater();
  const clock = createFakeClock();
  const asked: string[] = [];
  const keptWhenAsked: string[][] = [];
  const logger = createMemoryLogger();
  const updates = started.add(
    startAutoUpdates({
      updater,
      isPackaged: options.isPackaged ?? true,
      channel: options.channel ?? 'stable',
      clock,
      askToRestart: async (version) => {
        asked.push(version);
        // What a yes would replace: by now the download must already be kept for going back.
        keptWhenAsked.push((await options.kept?.list())?.map((entry) => entry.version) ?? []);
        return options.answer ?? true;
      },
      ...(options.kept ? { kept: options.kept } : {}),
      logger,
    }),
  );
  return { updater, clock, asked, keptWhenAsked, updates, logger };
}

describe('auto-update', () => {
  it('does nothing in development', () => {
    const { updater, updates, clock } = setup({ isPackaged: false });
    clock.advance(UPDATE_INTERVAL_MS * 2);
    expect(updates.enabled).toBe(false);
    expect(updater.checks).toBe(0);
  });

  it('checks on start and then daily, downloading in the background', () => {
    const { updater, clock, updates } = setup();
    expect(updater.autoDownload).toBe(true);
    expect(updater.checks).toBe(1);
    clock.advance(UPDATE_INTERVAL_MS);
    clock.advance(UPDATE_INTERVAL_MS);
    expect(updater.checks).toBe(3);
    updates.dispose();
    clock.advance(UPDATE_INTERVAL_MS);
    expect(updater.checks).toBe(3);
  });

  it('follows the chosen channel', () => {
    expect(setup({ channel: 'stable' }).updater).toMatchObject({ channel: 'latest', allowPrerelease: false });
    expect(setup({ channel: 'beta' }).updater).toMatchObject({ channel: 'beta', allowPrerelease: true });
  });

  it('asks before restarting, once per version, and restarts only on yes', async () => {
    const yes = setup({ answer: true });
    yes.updater.emit('update-downloaded', { version: '0.2.0' });
    yes.updater.emit('update-downloaded', { version: '0.2.0' });
    await flush();
    expect(yes.asked).toEqual(['0.2.0']);
    expect(yes.updater.installs).toEqual([[false, true]]);

    const later = setup({ answer: false });
    later.updater.emit('update-downloaded', { version: '0.2.0' });
    await flush();
    expect(later.asked).toEqual(['0.2.0']);
    expect(later.updater.installs).toEqual([]);
    expect(later.updater.autoInstallOnAppQuit).toBe(true);
  });

  it('keeps the downloaded installer before asking, so the version running now can be gone back to', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'hearth-updater-kept-'));
    try {
      const downloadedFile = join(dir, 'Hearth-Setup-0.2.0.exe');
      await writeFile(downloadedFile, 'installer');
      const { updater, asked, keptWhenAsked } = setup({
        answer: false,
        kept: keptInstallers(join(dir, 'kept'), () => 1),
      });
      updater.emit('update-downloaded', { version: '0.2.0', downloadedFile });
      await expect.poll(() => asked).toEqual(['0.2.0']);
      expect(keptWhenAsked).toEqual([['0.2.0']]);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('logs a failed check instead of failing', async () => {
    const { updater, updates, logger } = setup();
    updater.failNext = true;
    await updates.checkNow();
    expect(logger.entries.some((e) => e.message === 'update check failed')).toBe(true);
  });
});
