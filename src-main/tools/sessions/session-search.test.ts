import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { silentLogger } from '../../base/logger.js';
import { createHearthPaths } from '../../paths/index.js';
import { createSessionStore, type SessionStore } from '../../sessions/index.js';
import type { ToolContext, ToolDefinition } from '../tool.js';
import { createSessionSearchIndex, type SessionSearchIndex, snippetOf } from './session-search-index.js';
import { createSessionTools } from './session-tools.js';

let home: string;
let store: SessionStore;
let index: SessionSearchIndex;
let now = 1_764_000_000_000;
let ids = 0;

async function say(agentId: string, key: string, ...lines: [role: 'user' | 'assistant', text: string][]) {
  const record = await store.resolve(agentId, key);
  await store.append(
    agentId,
    record.sessionId,
    lines.map(([role, text]) => {
      ids += 1;
      now += 1000;
      return role === 'user'
        ? { kind: 'user' as const, id: `m${ids}`, ts: now, text }
        : { kind: 'assistant' as const, id: `m${ids}`, ts: now, text, model: 'openai/gpt-4o' };
    }),
  );
  await store.sync(agentId, record.sessionId);
}

beforeEach(async () => {
  home = await mkdtemp(join(tmpdir(), 'hearth-session-search-'));
  store = createSessionStore({ paths: createHearthPaths(home), clock: { now: () => now }, log: silentLogger });
  index = createSessionSearchIndex({ store, log: silentLogger });
  await say(
    'main',
    'agent:main:trip',
    ['user', 'Book the train to Lyon for the team meetings on Friday'],
    ['assistant', 'Booked: the 08:04 TGV to Lyon Part-Dieu, seats 41-44.'],
  );
  await say(
    'main',
    'agent:main:solver',
    ['user', '我决定把求解器换成增量版本，下周一开始迁移。'],
    ['assistant', '好的，我会记住：下周一开始把求解器迁移到增量版本。'],
  );
  await say('work', 'agent:work:main', ['user', 'The Lyon office moves in March']);
});
afterEach(async () => {
  index.dispose();
  await store.flush();
  await rm(home, { recursive: true, force: true });
});

describe('session search index', () => {
  it('finds what was said, stemmed in English and by words and bigrams in Chinese, best session first', async () => {
    const english = await index.search('meeting in Lyon');
    expect(english.map((hit) => hit.key)).toEqual(['agent:main:trip', 'agent:work:main']);
    expect(english[0]).toMatchObject({ role: 'user', matches: 2 });
    expect(english[0]!.snippet).toContain('team meetings on Friday');

    const chinese = await index.search('增量版本');
    expect(chinese).toHaveLength(1);
    expect(chinese[0]).toMatchObject({ key: 'agent:main:solver', matches: 2 });
    expect(chinese[0]!.snippet).toContain('增量版本');
    // A word the segmenter may cut differently still matches through its bigrams.
    expect((await index.search('求解')).map((hit) => hit.key)).toEqual(['agent:main:solver']);

    expect(await index.search('submarine')).toEqual([]);
    expect((await index.search('Lyon', { agentId: 'work' })).map((hit) => hit.key)).toEqual(['agent:work:main']);
  });

  it('sees new messages and forgets deleted sessions at the next search', async () => {
    expect(await index.search('croissants')).toEqual([]);
    await say('main', 'agent:main:trip', ['user', 'Also buy croissants for the train']);
    expect((await index.search('croissants')).map((hit) => hit.key)).toEqual(['agent:main:trip']);
    await store.delete('main', 'agent:main:trip');
    expect(await index.search('croissants')).toEqual([]);
  });

  it('cuts long messages to a snippet around the match', () => {
    const long = `${'filler words here. '.repeat(30)}The passport number is in the blue folder. ${'more text. '.repeat(30)}`;
    const snippet = snippetOf(long, 'blue folder');
    expect(snippet.startsWith('…')).toBe(true);
    expect(snippet.endsWith('…')).toBe(true);
    expect(snippet).toContain('blue folder');
    expect(snippet.length).toBeLessThanOrEqual(162);
  });
});

describe('session tools', () => {
  const contextOf = (agentId: string): ToolContext => ({
    agentId,
    sessionKey: `agent:${agentId}:main`,
    workspaceDir: home,
    signal: new AbortController().signal,
    log: silentLogger,
  });
  const run = (tool: ToolDefinition, input: unknown, agentId = 'main') =>
    tool.execute(tool.inputSchema.parse(input), contextOf(agentId));

  it('list, read and search the agent own sessions only', async () => {
    const [list, read, search] = createSessionTools({ store, index }) as [
      ToolDefinition,
      ToolDefinition,
      ToolDefinition,
    ];
    const listed = (await run(list, {})).output;
    expect(listed).toContain('agent:main:trip');
    expect(listed).toContain('agent:main:solver');
    expect(listed).not.toContain('agent:work:main');

    const transcript = (await run(read, { key: 'agent:main:trip' })).output;
    expect(transcript).toMatch(/user \(m\d+\): Book the train to Lyon/);
    expect(transcript).toMatch(/assistant \(m\d+\): Booked: the 08:04 TGV/);
    expect(await run(read, { key: 'agent:work:main' })).toMatchObject({ isError: true });

    const found = (await run(search, { query: 'Lyon' })).output;
    expect(found).toContain('agent:main:trip');
    expect(found).not.toContain('agent:work:main');
    expect((await run(search, { query: '迁移' })).output).toContain('下周一开始迁移');
    expect((await run(search, { query: 'submarine' })).output).toBe(
      'Nothing said in past sessions matches "submarine".',
    );
  });
});
