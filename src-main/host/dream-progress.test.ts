import { spawn } from 'node:child_process';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DreamRunView } from '../protocol/methods/dreams.js';
import { plantRecalls } from '../testing/planted-recalls.js';
import { connectRaw, type RawGatewaySocket } from '../testing/raw-gateway-socket.js';
import { createTempHome } from '../testing/temp-home.js';
import { startTestHost, type TestHost } from '../testing/test-host.js';

// A Dreaming run reports its phases on the gateway whoever starts it: a `dreams.run` request (the
// Dreams view) and `hearth memory promote` in another process (its run file, watched); the run
// going now or the latest one is in `dreams.status.run` for a view that reloads.

const bin = join(process.cwd(), 'bin', 'hearth.js');
let temp: Awaited<ReturnType<typeof createTempHome>>;
let host: TestHost;
let socket: RawGatewaySocket;

beforeAll(async () => {
  temp = await createTempHome();
  const workspace = join(temp.home, 'workspace');
  await mkdir(join(workspace, 'memory'), { recursive: true });
  await writeFile(join(workspace, 'MEMORY.md'), '# Memory\n');
  await writeFile(join(workspace, 'memory', '2026-11-20.md'), '- Oat milk in coffee\n- The wifi is Hearth-5G\n');
  await plantRecalls(
    workspace,
    [
      { text: 'Oat milk in coffee', path: 'memory/2026-11-20.md', line: 1 },
      { text: 'The wifi is Hearth-5G', path: 'memory/2026-11-20.md', line: 2 },
    ],
    new Date(),
  );
  host = await startTestHost({ home: temp.home, env: { HEARTH_SECRET_STORE: 'file' } });
  ({ socket } = await connectRaw(host.wsUrl, { token: host.token, scopes: ['operator.admin'] }));
});
afterAll(async () => {
  socket?.close();
  await host?.close();
  await temp?.cleanup();
});

/** Every progress event until the run with this origin has ended. */
async function progressUntilEnd(origin: DreamRunView['origin']): Promise<DreamRunView[]> {
  const seen: DreamRunView[] = [];
  await socket.next((frame) => {
    const payload = frame.payload as { reason?: string; agentId?: string; run?: DreamRunView } | undefined;
    if (frame.event !== 'dreams.changed' || payload?.reason !== 'progress' || payload.run?.origin !== origin)
      return false;
    expect(payload.agentId).toBe('main');
    seen.push(payload.run);
    return payload.run.state !== 'running';
  }, 60_000);
  return seen;
}

describe('Dreaming progress over the gateway', () => {
  it('a run the app starts tells each phase, then its result; dreams.status holds it', async () => {
    const events = progressUntilEnd('app');
    const run = await socket.request('dreams.run', { apply: true });
    expect(run.ok).toBe(true);
    const seen = await events;
    expect(seen[0]).toMatchObject({ state: 'running', mode: 'apply' });
    expect(seen[0]!.phases.every((phase) => phase.state === 'waiting')).toBe(true);
    // Each phase starts only after the one before it is done.
    const started = (name: string) => seen.findIndex((r) => r.phases.find((p) => p.name === name)!.state !== 'waiting');
    const finished = (name: string) => seen.findIndex((r) => r.phases.find((p) => p.name === name)!.state === 'done');
    expect(started('light')).toBeLessThanOrEqual(finished('light'));
    expect(finished('ingest')).toBeLessThan(started('light'));
    expect(finished('light')).toBeLessThan(started('rem'));
    expect(finished('rem')).toBeLessThan(started('deep'));
    expect(finished('deep')).toBeLessThan(started('write'));
    const last = seen.at(-1)!;
    expect(last).toMatchObject({
      state: 'done',
      result: { notesSeen: 2, candidates: 2, promoted: 2, queued: 0 },
      phases: [
        // No conversation in the last day: ingest read none.
        { name: 'ingest', state: 'done', done: 0, total: 0 },
        { name: 'light', state: 'done', done: 1, total: 1 },
        { name: 'rem', state: 'done', done: 2, total: 2 },
        { name: 'deep', state: 'done', done: 2, total: 2 },
        { name: 'write', state: 'done', done: 5, total: 5 },
      ],
    });
    const status = await socket.request('dreams.status', {});
    expect((status.payload as { run: DreamRunView }).run).toEqual(last);
  }, 60_000);

  it('`hearth memory promote` in another process is shown live too, from its run file', async () => {
    const events = progressUntilEnd('cli');
    const child = spawn(process.execPath, [bin, 'memory', 'promote'], {
      env: { ...process.env, HEARTH_HOME: temp.home, HEARTH_FROM_SOURCE: '1', HEARTH_SECRET_STORE: 'file' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
    expect(code, stderr).toBe(0);
    // The CLI says each phase as it ends (stdout stays the run's result).
    // A preview writes nothing: no conversations are filed.
    expect(stderr).toContain('dreaming ingest: nothing to do\n');
    expect(stderr).toContain('dreaming light: read 1 daily note file\n');
    expect(stderr).toContain('dreaming deep: checked 2 candidates\n');
    // Both notes are in MEMORY.md already: nothing left to write.
    expect(stderr).toContain('dreaming write: nothing to do\n');
    const last = (await events).at(-1)!;
    expect(last).toMatchObject({ origin: 'cli', mode: 'preview', state: 'done', result: { promoted: 0 } });
    const status = await socket.request('dreams.status', {});
    expect((status.payload as { run: DreamRunView }).run).toEqual(last);
  }, 90_000);
});

describe('a stalled run from another process', () => {
  it('reads as stalled with its pid and last progress, and dreams.clearStalled ends it (a live one is refused)', async () => {
    // Stands in for a hung `hearth memory promote`: alive, but its run file has not moved for an hour.
    const hung = spawn(process.execPath, ['-e', 'setInterval(() => {}, 60000)'], { stdio: 'ignore' });
    try {
      const stateDir = join(temp.home, 'workspace', 'memory', '.dreams');
      const updatedAt = Date.now() - 3600_000;
      const run: DreamRunView = {
        id: 'hung-run',
        mode: 'apply',
        origin: 'cli',
        state: 'running',
        startedAt: updatedAt - 60_000,
        updatedAt,
        phases: [
          { name: 'ingest', state: 'done', done: 2, total: 2 },
          { name: 'light', state: 'done', done: 1, total: 1 },
          { name: 'rem', state: 'running', done: 0, total: 2 },
          { name: 'deep', state: 'waiting' },
          { name: 'write', state: 'waiting' },
        ],
      };
      const told = socket.next((frame) => {
        const payload = frame.payload as { reason?: string; run?: DreamRunView } | undefined;
        return frame.event === 'dreams.changed' && payload?.run?.id === 'hung-run' && payload.run.state === 'stalled';
      }, 30_000);
      await writeFile(join(stateDir, 'dreaming.lock'), JSON.stringify({ pid: hung.pid, startedAt: run.startedAt }));
      await writeFile(join(stateDir, 'run.json'), JSON.stringify({ version: 1, pid: hung.pid, run }));
      // The file watch sees it, and the stall watch tells it as stalled at once (its beat is an hour old).
      expect(((await told).payload as { run: DreamRunView }).run).toMatchObject({ state: 'stalled', pid: hung.pid });
      const status = await socket.request('dreams.status', {});
      expect((status.payload as { run: DreamRunView }).run).toMatchObject({
        state: 'stalled',
        pid: hung.pid,
        updatedAt,
      });
      // A new run is refused while its lock is held.
      expect((await socket.request('dreams.run', { apply: true })).ok).toBe(false);

      const wrong = await socket.request('dreams.clearStalled', { runId: 'not-this-one' });
      expect(wrong.ok).toBe(false);
      expect(JSON.stringify(wrong.error)).toMatch(/not the current Dreaming run/);
      const cleared = await socket.request('dreams.clearStalled', { runId: 'hung-run' });
      expect(cleared.ok).toBe(true);
      expect((cleared.payload as { run: DreamRunView }).run).toMatchObject({
        state: 'failed',
        error: expect.stringMatching(new RegExp(`^cleared: it stalled \\(pid ${hung.pid} still running`)),
      });
      // The lock is free: Dreaming runs again.
      const again = progressUntilEnd('app');
      expect((await socket.request('dreams.run', { apply: true })).ok).toBe(true);
      expect((await again).at(-1)).toMatchObject({ state: 'done' });

      // A run that progresses is never cleared.
      const fresh = { ...run, id: 'fresh-run', updatedAt: Date.now(), startedAt: Date.now() };
      await writeFile(join(stateDir, 'run.json'), JSON.stringify({ version: 1, pid: hung.pid, run: fresh }));
      const refused = await socket.request('dreams.clearStalled', { runId: 'fresh-run' });
      expect(refused.ok).toBe(false);
      expect(JSON.stringify(refused.error)).toMatch(/the run is progressing/);
      await writeFile(
        join(stateDir, 'run.json'),
        JSON.stringify({ version: 1, pid: hung.pid, run: { ...fresh, state: 'done' } }),
      );
    } finally {
      hung.kill();
    }
  }, 90_000);
});

describe('Dreaming progress from the schedule', () => {
  it('the nightly run reports as schedule, and per person with per-user memory', async () => {
    const home = await createTempHome();
    await writeFile(
      join(home.home, 'hearth.json'),
      JSON.stringify({ memory: { scope: 'per-user', dreaming: { enabled: true, cron: '* * * * * *' } } }),
    );
    const bob = join(home.home, 'workspace', 'users', 'bob');
    await mkdir(join(bob, 'memory'), { recursive: true });
    await writeFile(join(bob, 'memory', '2026-11-20.md'), '- Bob takes black coffee\n');
    await plantRecalls(
      bob,
      [{ text: 'Bob takes black coffee', path: 'users/bob/memory/2026-11-20.md', line: 1 }],
      new Date(),
    );
    const scheduled = await startTestHost({ home: home.home, env: { HEARTH_SECRET_STORE: 'file' } });
    const { socket: watcher } = await connectRaw(scheduled.wsUrl, {
      token: scheduled.token,
      scopes: ['operator.admin'],
    });
    try {
      const frame = await watcher.next((f) => {
        const payload = f.payload as { reason?: string; run?: DreamRunView } | undefined;
        return f.event === 'dreams.changed' && payload?.reason === 'progress' && payload.run?.state === 'done';
      }, 30_000);
      expect(frame.payload).toMatchObject({
        agentId: 'main',
        userId: 'bob',
        run: { origin: 'schedule', mode: 'apply', state: 'done', result: { promoted: 1 } },
      });
      // The schedule fires every second here: the status holds that run or already the next one,
      // never one read as interrupted while its process is making it.
      const status = await watcher.request('dreams.status', { userId: 'bob' });
      const run = (status.payload as { run: DreamRunView }).run;
      expect(run.origin).toBe('schedule');
      expect(['running', 'done']).toContain(run.state);
    } finally {
      watcher.close();
      await scheduled.close();
      await home.cleanup();
    }
  }, 60_000);
});
