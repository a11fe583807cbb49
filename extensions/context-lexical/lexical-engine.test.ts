import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { silentLogger } from '../../src-main/base/logger.js';
import type { AgentMessage, ContextEngineContribution, ContextEngineDeps } from '../../src-main/plugins/sdk/context.js';
import type { HearthPluginApi } from '../../src-main/plugins/sdk/index.js';
import { createFakeClock } from '../../src-main/testing/fake-clock.js';
import { bm25Scores, tokenize } from './bm25.js';
import { contextLexicalPlugin, LexicalContextEngine } from './index.js';

let dir: string;
let n = 0;
const newId = () => `x${++n}`;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'hearth-lexical-'));
});
afterEach(() => rm(dir, { recursive: true, force: true, maxRetries: 5, retryDelay: 50 }));

const deps = (): ContextEngineDeps => ({
  agentId: 'main',
  sessionKey: 'agent:main:main',
  workspaceDir: dir,
  summarizer: async ({ requiredIdentifiers }) => `Earlier: ${requiredIdentifiers.join(', ')}`,
  clock: createFakeClock(),
  newId,
  log: silentLogger,
  keepRecentTurns: 2,
});

const topics = [
  'the garden roses',
  'a python traceback',
  'train tickets to Lyon',
  'the quarterly budget',
  'guitar strings',
];
function conversation(): AgentMessage[] {
  const out: AgentMessage[] = [
    { kind: 'user', id: newId(), ts: 0, text: 'Remember that my favourite colour is teal.' },
    { kind: 'assistant', id: newId(), ts: 0, text: 'Noted: teal is your favourite colour.' },
  ];
  for (let t = 0; t < 30; t += 1) {
    const topic = topics[t % topics.length];
    out.push({ kind: 'user', id: newId(), ts: t, text: `Tell me something about ${topic}, part ${t}.` });
    out.push({
      kind: 'assistant',
      id: newId(),
      ts: t,
      text: `Here is a long answer about ${topic}. ${'blah '.repeat(60)}`,
    });
  }
  out.push({ kind: 'user', id: newId(), ts: 99, text: "What's my favourite colour?" });
  return out;
}

describe('bm25', () => {
  it('ranks the document sharing rare terms first', () => {
    const scores = bm25Scores(
      ['teal is my favourite colour', 'roses in the garden', 'budget numbers'],
      'favourite colours?',
    );
    expect(scores[0]).toBeGreaterThan(0);
    expect(scores[1]).toBe(0);
    expect(tokenize('我喜欢茶 and Colours')).toEqual(['我', '喜', '欢', '茶', 'colour']);
  });
});

describe('LexicalContextEngine', () => {
  it('sends the recent turns plus the old turn relevant to the question, not the rest', async () => {
    const engine = new LexicalContextEngine(deps(), { recentTurns: 2 });
    const history = conversation();
    await engine.bootstrap({ messages: history });
    const out = await engine.assemble({ promptTokens: 50_000, contextWindow: 128_000, fixedTokens: 1_000 });
    const texts = out.messages.map((m) => ('text' in m ? m.text : ''));
    expect(texts[0]).toBe('Remember that my favourite colour is teal.');
    expect(texts.at(-1)).toBe("What's my favourite colour?");
    expect(out.messages.length).toBeLessThan(10);
    expect(out.omittedCount).toBe(history.length - out.messages.length);
    expect(out.route).toBe('fits');
  });

  it('honours the budget: relevant turns that do not fit stay out', async () => {
    const engine = new LexicalContextEngine(deps(), { recentTurns: 1 });
    await engine.bootstrap({ messages: conversation() });
    const out = await engine.assemble({ promptTokens: 1_030, contextWindow: 128_000, fixedTokens: 1_000 });
    expect(out.messages).toHaveLength(1);
  });

  it('implements the rest of the contract: compaction, subagents, ingest', async () => {
    const engine = new LexicalContextEngine(deps());
    await engine.bootstrap({ messages: [] });
    await engine.ingestBatch(conversation());
    const seed = await engine.prepareSubagentSpawn({
      childSessionKey: 'agent:main:sub:1',
      task: 'find train tickets to Lyon',
    });
    expect(seed.bootstrapSessionKind).toBe('subagent');
    expect(seed.messages[0]?.kind === 'notification' && seed.messages[0].text).toContain('Lyon');
    const compacted = await engine.compact({ reason: 'manual' });
    expect(compacted.status).toBe('compacted');
    expect(engine.history()[0]?.kind).toBe('compaction_summary');
    await engine.onSubagentEnded({ childSessionKey: 'agent:main:sub:1', outcome: 'ok', summary: 'booked' });
    expect(engine.history().at(-1)).toMatchObject({ kind: 'notification', text: expect.stringContaining('booked') });
    expect(() => new LexicalContextEngine(deps(), { recentTurns: 0 })).toThrow(/recentTurns/);
  });
});

describe('context-lexical plugin', () => {
  function register(config: Record<string, unknown>) {
    const engines: ContextEngineContribution[] = [];
    const api = {
      pluginId: 'context-lexical',
      config,
      log: silentLogger,
      registerContextEngine: (engine: ContextEngineContribution) => {
        engines.push(engine);
        return { dispose() {} };
      },
    } as unknown as HearthPluginApi;
    contextLexicalPlugin.register(api);
    return engines;
  }

  it('registers the "lexical" engine whose factory makes per-session engines', async () => {
    const [contribution] = register({ recentTurns: 2 });
    expect(contribution?.id).toBe('lexical');
    const factory = await contribution?.create({
      pluginId: 'context-lexical',
      config: {},
      log: silentLogger,
      home: dir,
    });
    expect(factory?.createEngine(deps()).id).toBe('lexical');
  });

  it('rejects a bad recentTurns with the field named', () => {
    expect(() => register({ recentTurns: 'three' })).toThrow(/config.recentTurns/);
  });
});
