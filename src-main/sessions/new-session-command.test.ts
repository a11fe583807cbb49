import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createMemoryLogger, silentLogger } from '../base/logger.js';
import { createHearthPaths } from '../paths/index.js';
import { createFakeClock } from '../testing/fake-clock.js';
import { answerNewSessionCommand, conversationMarkdown, isNewSessionCommand } from './new-session-command.js';
import { createSessionStore } from './session-store.js';
import type { SessionStore } from './session-store-api.js';

const key = 'agent:main:main';
let home: string;
let sessions: SessionStore;

beforeEach(async () => {
  home = await mkdtemp(join(tmpdir(), 'hearth-new-session-'));
  sessions = createSessionStore({ paths: createHearthPaths(home), clock: createFakeClock(1_000), log: silentLogger });
});
afterEach(async () => {
  await sessions.flush();
  await rm(home, { recursive: true, force: true, maxRetries: 5, retryDelay: 50 });
});

async function converse(): Promise<string> {
  const record = await sessions.resolve('main', key);
  await sessions.append('main', record.sessionId, [
    { kind: 'user', id: 'u1', ts: 1, text: 'Plan a trip to Kyoto!' },
    { kind: 'assistant', id: 'a1', ts: 2, text: 'Spring is lovely there.' },
    { kind: 'tool_call', id: 't1', ts: 3, toolCallId: 'c', toolName: 'exec', input: {} },
  ]);
  return record.sessionId;
}

describe('/new', () => {
  it('recognises /new and /reset, and nothing else', () => {
    expect(isNewSessionCommand('/new')).toBe(true);
    expect(isNewSessionCommand('  /RESET please ')).toBe(true);
    expect(isNewSessionCommand('/newer')).toBe(false);
    expect(isNewSessionCommand('start /new')).toBe(false);
  });

  it('passes other text on to the agent', async () => {
    expect(await answerNewSessionCommand('hello', key, { sessions, log: silentLogger })).toBeUndefined();
  });

  it('archives the conversation into memory, then starts a fresh session', async () => {
    const before = await converse();
    const archived: { agentId: string; slug: string; markdown: string }[] = [];
    const reply = await answerNewSessionCommand('/new', key, {
      sessions,
      log: silentLogger,
      archive: async ({ agentId, slug, markdown }) => {
        archived.push({ agentId, slug, markdown });
        return 'memory/2026-12-02-plan-a-trip-to-kyoto.md';
      },
    });
    expect(reply).toEqual({
      name: 'new',
      ok: true,
      reply: 'New session. The previous one is kept in memory/2026-12-02-plan-a-trip-to-kyoto.md.',
    });
    expect(archived).toEqual([
      {
        agentId: 'main',
        slug: 'plan-a-trip-to-kyoto',
        markdown:
          '# Plan a trip to Kyoto!\n\n**User:** Plan a trip to Kyoto!\n\n**Assistant:** Spring is lovely there.\n',
      },
    ]);
    expect((await sessions.get('main', key))?.sessionId).not.toBe(before);
  });

  it('still starts afresh when archiving fails, and says so in the log', async () => {
    const before = await converse();
    const log = createMemoryLogger();
    const reply = await answerNewSessionCommand('/new', key, {
      sessions,
      log,
      archive: async () => {
        throw new Error('disk full');
      },
    });
    expect(reply?.reply).toBe('New session.');
    expect((await sessions.get('main', key))?.sessionId).not.toBe(before);
    expect(JSON.stringify(log.entries)).toContain('disk full');
  });

  it('has nothing to archive in an empty conversation', () => {
    expect(conversationMarkdown(undefined, [])).toBeUndefined();
    expect(conversationMarkdown('Trip', [{ kind: 'user', id: 'u', ts: 0, text: '!!!' }])).toEqual({
      slug: 'session',
      markdown: '# Trip\n\n**User:** !!!\n',
    });
  });
});
