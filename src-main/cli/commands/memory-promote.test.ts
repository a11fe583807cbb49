import { spawn } from 'node:child_process';
import { mkdir, readFile, stat, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createFakeClock } from '../../testing/fake-clock.js';
import { plantRecalls } from '../../testing/planted-recalls.js';
import { createTempHome } from '../../testing/temp-home.js';
import { createCliContext } from '../cli-context.js';
import { runCli } from '../run-cli.js';

const NOW = new Date(2026, 10, 30, 9);
const MINE = '# Memory\n\nMine, by hand.\n';
const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** A HEARTH_HOME in review mode with two notes recalled often enough to pass the gates. */
async function setup() {
  const { home, cleanup } = await createTempHome('hearth-cli-promote-');
  cleanups.push(cleanup);
  const workspace = join(home, 'workspace');
  await mkdir(join(workspace, 'memory'), { recursive: true });
  await writeFile(join(home, 'hearth.json'), JSON.stringify({ memory: { dreaming: { review: true } } }));
  await writeFile(join(workspace, 'MEMORY.md'), MINE);
  await writeFile(join(workspace, 'memory', '2026-11-29.md'), '- Oat milk in coffee\n- The wifi is Hearth-5G\n');
  await plantRecalls(
    workspace,
    [
      { text: 'Oat milk in coffee', path: 'memory/2026-11-29.md', line: 1 },
      { text: 'The wifi is Hearth-5G', path: 'memory/2026-11-29.md', line: 2 },
    ],
    NOW,
  );
  const out: string[] = [];
  const err: string[] = [];
  const context = createCliContext({
    env: { HEARTH_HOME: home, HEARTH_SECRET_STORE: 'file' },
    clock: createFakeClock(NOW.getTime()),
    stdout: (text) => out.push(text),
    stderr: (text) => err.push(text),
    readStdin: async () => '',
  });
  const hearth = async (...args: string[]) => {
    out.length = 0;
    err.length = 0;
    const code = await runCli(['memory', ...args], context);
    return { code, stdout: out.join(''), stderr: err.join('') };
  };
  return { memoryFile: join(workspace, 'MEMORY.md'), hearth };
}

describe('hearth memory promote in review mode', () => {
  it('lists candidates with ids and diffs, writes nothing; --approve writes that one, --reject drops the other', async () => {
    const { memoryFile, hearth } = await setup();
    const before = await stat(memoryFile);
    const listed = await hearth('promote');
    expect(listed.code, listed.stderr).toBe(0);
    expect(listed.stdout).toMatch(/^2 candidates, 2 pass the gates \(review; --approve ID or --reject ID\)\n/);
    expect(listed.stdout).toContain('waiting for review: 2\n');
    const ids = [...listed.stdout.matchAll(/^([0-9a-f]{8}) {2}(.+?) {2}\(memory\/2026-11-29\.md:(\d)/gm)].map((m) => ({
      id: m[1]!,
      text: m[2]!,
    }));
    expect(ids.map((c) => c.text).sort()).toEqual(['Oat milk in coffee', 'The wifi is Hearth-5G']);
    expect(listed.stdout).toContain('--- MEMORY.md\n+++ MEMORY.md\n');
    expect(listed.stdout).toContain('+## Promoted by Dreaming — 2026-11-30\n+\n+- Oat milk in coffee\n');
    expect(await readFile(memoryFile, 'utf8')).toBe(MINE);
    expect((await stat(memoryFile)).mtimeMs).toBe(before.mtimeMs);

    expect((await hearth('status')).stdout).toContain(
      'dreaming: off, review mode\nwaiting for review: 2 (hearth memory promote to see them)\n',
    );
    const oat = ids.find((c) => c.text.startsWith('Oat'))!;
    const wifi = ids.find((c) => c !== oat)!;
    const approved = await hearth('promote', '--approve', oat.id);
    expect(approved.stdout).toBe(`approved ${oat.id}: Oat milk in coffee\n`);
    expect(await readFile(memoryFile, 'utf8')).toBe(
      `${MINE}\n## Promoted by Dreaming — 2026-11-30\n\n- Oat milk in coffee\n`,
    );
    const rejected = await hearth('promote', '--reject', wifi.id);
    expect(rejected.stdout).toBe(`rejected ${wifi.id}: The wifi is Hearth-5G\n`);
    // Nothing waits now, and the rejected note is not proposed again.
    const again = await hearth('promote');
    expect(again.stdout).not.toContain('waiting for review');
    expect(await readFile(memoryFile, 'utf8')).toBe(
      `${MINE}\n## Promoted by Dreaming — 2026-11-30\n\n- Oat milk in coffee\n`,
    );
  });

  it('refuses unknown ids and mixed flags with one line; --apply still promotes at once', async () => {
    const { memoryFile, hearth } = await setup();
    const unknown = await hearth('promote', '--approve', 'cafebabe');
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toBe('hearth: no pending candidate cafebabe (pending: none)\n');
    const mixed = await hearth('promote', '--apply', '--reject', 'cafebabe');
    expect(mixed.stderr).toBe(
      'hearth: --approve/--reject decide on waiting candidates; they do not combine with --apply or --review\n',
    );
    const applied = await hearth('promote', '--apply');
    expect(applied.stdout).toContain('promoted 2\n');
    expect((await readFile(memoryFile, 'utf8')).startsWith(MINE)).toBe(true);
  });
});

describe('hearth memory status and clear-stalled', () => {
  it('status names a stalled run and how to end it; clear-stalled ends only that run, only while it is stalled', async () => {
    const { memoryFile, hearth } = await setup();
    const stateDir = join(dirname(memoryFile), 'memory', '.dreams');
    await mkdir(stateDir, { recursive: true });
    // A hung `hearth memory promote` elsewhere: alive, its heartbeat ten minutes old.
    const hung = spawn(process.execPath, ['-e', 'setInterval(() => {}, 60000)'], { stdio: 'ignore' });
    cleanups.push(async () => void hung.kill());
    const updatedAt = NOW.getTime() - 10 * 60_000;
    const run = (id: string, beat: number) => ({
      version: 1,
      pid: hung.pid,
      run: {
        id,
        mode: 'apply',
        origin: 'cli',
        state: 'running',
        startedAt: beat - 1000,
        updatedAt: beat,
        phases: [{ name: 'rem', state: 'running', done: 1, total: 4 }],
      },
    });
    await writeFile(join(stateDir, 'dreaming.lock'), JSON.stringify({ pid: hung.pid, startedAt: updatedAt }));
    await writeFile(join(stateDir, 'run.json'), JSON.stringify(run('hung', updatedAt)));

    const status = await hearth('status');
    expect(status.stdout).toContain(
      `dreaming stalled: run hung (pid ${hung.pid}) has not progressed since ${new Date(updatedAt).toISOString()}; end it with hearth memory clear-stalled hung\n`,
    );
    const wrong = await hearth('clear-stalled', 'other');
    expect(wrong.code).not.toBe(0);
    expect(wrong.stderr).toMatch(/run other is not the current Dreaming run \(hung is\)/);
    const cleared = await hearth('clear-stalled', 'hung');
    expect(cleared.code, cleared.stderr).toBe(0);
    expect(cleared.stdout).toMatch(
      new RegExp(`^cleared run hung: cleared: it stalled \\(pid ${hung.pid} still running`),
    );
    await expect(stat(join(stateDir, 'dreaming.lock'))).rejects.toThrow(/ENOENT/);

    // One that progresses (its beat is a second old) is never cleared.
    await writeFile(join(stateDir, 'run.json'), JSON.stringify(run('moving', NOW.getTime() - 1000)));
    expect((await hearth('status')).stdout).toContain('dreaming now: rem (run moving)\n');
    const refused = await hearth('clear-stalled', 'moving');
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toMatch(/the run is progressing \(last step 1 s ago\)/);
    expect(JSON.parse(await readFile(join(stateDir, 'run.json'), 'utf8')).run.state).toBe('running');
  });
});
