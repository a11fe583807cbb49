import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createMemoryLogger } from '../../base/logger.js';
import { createFakeClock } from '../../testing/fake-clock.js';
import type { AgentMessage } from '../messages.js';
import { compactSession } from './compact-session.js';
import type { ContextEngineDeps } from './context-engine.js';

// Compaction's memory flush goes where the host says a session's memory lives: the workspace by
// default, a person's folder in per-user memory, nowhere (and a log line saying why) for a group.

let dir: string;
let ids = 0;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'hearth-compact-'));
});
afterEach(() => rm(dir, { recursive: true, force: true, maxRetries: 5, retryDelay: 50 }));

function conversation(): AgentMessage[] {
  const messages: AgentMessage[] = [
    { kind: 'user', id: `m${++ids}`, ts: 0, text: 'Please remember that my locker code is 4417.' },
    { kind: 'assistant', id: `m${++ids}`, ts: 0, text: 'Noted.' },
  ];
  for (let turn = 0; turn < 6; turn++) {
    messages.push({ kind: 'user', id: `m${++ids}`, ts: turn, text: `question ${turn}` });
    messages.push({ kind: 'assistant', id: `m${++ids}`, ts: turn, text: `answer ${turn}` });
  }
  return messages;
}

function deps(extra: Partial<ContextEngineDeps> = {}) {
  const log = createMemoryLogger();
  return {
    log,
    deps: {
      agentId: 'main',
      sessionKey: 'agent:main:telegram:direct:1',
      workspaceDir: dir,
      summarizer: async () => 'Summary of earlier turns.',
      clock: createFakeClock(new Date(2026, 10, 30, 12, 0).getTime()),
      newId: () => `s${++ids}`,
      log,
      keepRecentTurns: 2,
      ...extra,
    } satisfies ContextEngineDeps,
  };
}

describe('compactSession memory flush', () => {
  it('writes to the workspace when the host names no target', async () => {
    const outcome = await compactSession(conversation(), deps().deps, { reason: 'manual' });
    expect(outcome.status).toBe('compacted');
    expect(await readFile(join(dir, 'memory', '2026-11-30.md'), 'utf8')).toContain('my locker code is 4417');
  });

  it('writes to the folder the host names (a person in per-user memory)', async () => {
    const person = join(dir, 'users', 'telegram_1');
    await compactSession(conversation(), deps({ memoryFlushTarget: () => ({ dir: person }) }).deps, {
      reason: 'manual',
    });
    expect(await readFile(join(person, 'memory', '2026-11-30.md'), 'utf8')).toContain('my locker code is 4417');
    expect(await readdir(dir)).toEqual(['users']);
  });

  it('writes nothing and says why when the host names nobody', async () => {
    const { deps: withSkip, log } = deps({ memoryFlushTarget: () => ({ skip: 'no known person' }) });
    const outcome = await compactSession(conversation(), withSkip, { reason: 'manual' });
    expect(outcome.status).toBe('compacted');
    expect(await readdir(dir)).toEqual([]);
    expect(log.entries).toContainEqual(
      expect.objectContaining({ level: 'info', fields: expect.objectContaining({ reason: 'no known person' }) }),
    );
  });
});
