import { mkdir, readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createMemoryLogger } from '../base/logger.js';
import { connectRaw, type RawGatewaySocket } from '../testing/raw-gateway-socket.js';
import { createTempHome } from '../testing/temp-home.js';
import { startTestHost, type TestHost } from '../testing/test-host.js';

// The scheduled Dreaming run covers every configured agent and, with per-user memory, every
// person who has a folder — each scope on its own — and one that cannot run (its lock is held by
// a live process) is logged while the rest still dream. The schedule fires every second here.

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function startHost(memory: Record<string, unknown>, plant: (home: string) => Promise<void>) {
  const temp = await createTempHome();
  cleanups.push(() => temp.cleanup());
  await writeFile(
    join(temp.home, 'hearth.json'),
    JSON.stringify({
      agents: { list: [{ id: 'main', default: true }, { id: 'work' }] },
      memory: { dreaming: { enabled: true, cron: '* * * * * *' }, ...memory },
    }),
  );
  await plant(temp.home);
  const log = createMemoryLogger();
  const host: TestHost = await startTestHost({ home: temp.home, log, env: { HEARTH_SECRET_STORE: 'file' } });
  cleanups.push(() => host.close());
  const { socket } = await connectRaw(host.wsUrl, { token: host.token, scopes: ['operator.admin'] });
  cleanups.push(async () => socket.close());
  return { home: temp.home, log, socket };
}

/** Another live process holds this scope's Dreaming lock: its run is refused. */
async function holdLock(scopeDir: string) {
  const state = join(scopeDir, 'memory', '.dreams');
  await mkdir(state, { recursive: true });
  await writeFile(join(state, 'dreaming.lock'), JSON.stringify({ pid: process.pid, startedAt: 0 }));
}

async function note(scopeDir: string, text: string) {
  await mkdir(join(scopeDir, 'memory'), { recursive: true });
  await writeFile(join(scopeDir, 'memory', '2026-11-29.md'), `- ${text}\n`);
}

function scheduled(socket: RawGatewaySocket, agentId: string, userId?: string) {
  return socket.next((f) => {
    const payload = f.payload as { agentId?: string; userId?: string; reason?: string } | undefined;
    return (
      f.event === 'dreams.changed' &&
      payload?.reason === 'scheduled' &&
      payload.agentId === agentId &&
      payload.userId === userId
    );
  }, 20_000);
}

// Which scopes dreamed: each run records itself in the scope's last-run.json (a run that finds
// nothing to promote writes no report).
const reports = (scopeDir: string) =>
  readdir(join(scopeDir, 'memory', '.dreams'))
    .then((files) => files.filter((file) => file === 'last-run.json'))
    .catch(() => []);

describe('scheduled Dreaming', () => {
  it('dreams every agent in turn; one that fails does not stop the others', async () => {
    const { home, log, socket } = await startHost({}, async (home) => {
      await note(join(home, 'workspace'), 'I prefer green tea.');
      await holdLock(join(home, 'workspace'));
      await note(join(home, 'workspace-work'), 'The quarterly report is due Friday.');
    });
    await scheduled(socket, 'work');
    expect(await reports(join(home, 'workspace-work'))).toHaveLength(1);
    expect(await reports(join(home, 'workspace'))).toEqual([]);
    const failure = log.entries.find((e) => e.message === 'scheduled Dreaming failed');
    expect(failure?.fields).toMatchObject({ agentId: 'main', error: expect.stringContaining('already running') });
  }, 40_000);

  it('with per-user memory, dreams each person with a folder on their own, never the shared scope', async () => {
    const { home, log, socket } = await startHost({ scope: 'per-user' }, async (home) => {
      await note(join(home, 'workspace'), 'Shared note nobody recalls.');
      await note(join(home, 'workspace', 'users', 'alice'), 'Alice prefers green tea.');
      await holdLock(join(home, 'workspace', 'users', 'alice'));
      await note(join(home, 'workspace', 'users', 'bob'), 'Bob prefers black coffee.');
      await note(join(home, 'workspace-work', 'users', 'carol'), 'Carol owns the quarterly report.');
    });
    await scheduled(socket, 'main', 'bob');
    await scheduled(socket, 'work', 'carol');
    expect(await reports(join(home, 'workspace', 'users', 'bob'))).toHaveLength(1);
    expect(await reports(join(home, 'workspace-work', 'users', 'carol'))).toHaveLength(1);
    expect(await reports(join(home, 'workspace', 'users', 'alice'))).toEqual([]);
    expect(await reports(join(home, 'workspace'))).toEqual([]);
    expect(await reports(join(home, 'workspace-work'))).toEqual([]);
    const failure = log.entries.find((e) => e.message === 'scheduled Dreaming failed');
    expect(failure?.fields).toMatchObject({ agentId: 'main', scope: 'user:alice' });
  }, 40_000);
});
