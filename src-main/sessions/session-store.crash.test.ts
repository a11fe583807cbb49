import { spawn } from 'node:child_process';
import { mkdtemp, readdir, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { createMemoryLogger } from '../base/logger.js';
import { createHearthPaths } from '../paths/index.js';
import { createFakeClock } from '../testing/fake-clock.js';
import { createSessionStore } from './session-store.js';

let home: string;

beforeEach(async () => {
  home = await mkdtemp(join(tmpdir(), 'hearth-sessions-crash-'));
});

afterEach(async () => {
  await rm(home, { recursive: true, force: true, maxRetries: 5, retryDelay: 50 });
});

/** Starts the appender, waits until it has written `count` messages, then SIGKILLs it mid-stream. */
async function appendThenKill(count: number): Promise<{ sessionId: string; acknowledged: number }> {
  const script = fileURLToPath(new URL('../testing/sessions-append-until-killed.ts', import.meta.url));
  const child = spawn(process.execPath, ['--import', 'tsx', script, home], { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stderr.on('data', (chunk: Buffer) => {
    err += chunk.toString();
  });
  const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()));
  return new Promise((resolve, reject) => {
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const acknowledged = [...out.matchAll(/appended (\d+)/g)].length;
      if (acknowledged >= count && child.exitCode === null && !child.killed) {
        child.kill('SIGKILL');
        void exited.then(() => resolve({ sessionId: /session (\S+)/.exec(out)![1]!, acknowledged }));
      }
    });
    void exited.then(() => {
      if (!child.killed) reject(new Error(`appender exited on its own: ${err}`));
    });
  });
}

it('a gateway killed with SIGKILL mid-append leaves a readable, appendable session', async () => {
  const { sessionId, acknowledged } = await appendThenKill(12);
  const log = createMemoryLogger();
  const clock = createFakeClock();
  const store = createSessionStore({ paths: createHearthPaths(home), clock, log });

  expect((await store.get('main', 'main'))?.sessionId).toBe(sessionId);
  const { messages } = await store.read('main', sessionId, { limit: 10_000 });
  // Every append the child confirmed is there, in order, with nothing half-written in between.
  expect(messages.length).toBeGreaterThanOrEqual(acknowledged);
  expect(messages.map((m) => m.id)).toEqual(messages.map((_, i) => `m${i}`));

  const torn = (await readdir(createHearthPaths(home).sessionsDir('main'))).filter((n) => n.includes('.torn-'));
  for (const name of torn)
    expect((await stat(join(createHearthPaths(home).sessionsDir('main'), name))).size).toBeGreaterThan(0);

  await store.append('main', sessionId, [{ kind: 'user', id: 'after-crash', ts: 1, text: 'still here' }]);
  await store.sync('main', sessionId);
  const after = await createSessionStore({ paths: createHearthPaths(home), clock, log }).read('main', sessionId, {
    limit: 10_000,
  });
  expect(after.messages.at(-1)?.id).toBe('after-crash');
  expect(after.messages).toHaveLength(messages.length + 1);
});
