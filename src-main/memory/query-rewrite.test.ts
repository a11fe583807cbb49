import { createOpenAI } from '@ai-sdk/openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { streamCompletion } from '../providers/index.js';
import { createFakeClock } from '../testing/fake-clock.js';
import { type FakeLlmServer, startFakeLlmServer } from '../testing/fake-llm/index.js';
import { createMemoryFixture } from '../testing/memory-test-fixture.js';
import { createActiveRecall } from './active-recall.js';
import { memoryQueryRewriteConfigSchema, memoryRecallConfigSchema } from './memory-config.js';
import { createAgentRewriters, createQueryRewriter, parseRewrites, searchRewritten } from './query-rewrite.js';

// The parts around the model first; then the model's side against the fake LLM on loopback, called
// the way the host calls it (providers' streamCompletion). host/query-rewrite.test.ts keeps one
// wiring turn: the rewrite reaching recall, memory_search and memory.status.

const config = (input: Record<string, unknown> = {}) =>
  memoryQueryRewriteConfigSchema.parse({ enabled: true, ...input });

describe('query rewrite', () => {
  it('reads the answer as queries: numbering and bullets gone, the original and repeats dropped, four at most', () => {
    expect(
      parseRewrites(
        '1. door keypad code\n- 门禁密码\n\n"flat entrance"\nHow do I get into the flat?\ndoor keypad code\na\nb\nc',
        'how do I get into the flat?',
      ),
    ).toEqual(['door keypad code', '门禁密码', 'flat entrance', 'a']);
  });

  it('off by default, and validated', () => {
    expect(memoryQueryRewriteConfigSchema.parse({})).toMatchObject({ enabled: false, languages: ['en', 'zh'] });
    expect(() => memoryQueryRewriteConfigSchema.parse({ languages: ['fr'] })).toThrow();
    expect(() => memoryQueryRewriteConfigSchema.parse({ timeoutMs: 0 })).toThrow();
  });

  it('one call per distinct query text, least recently used dropped first; counts the tokens', async () => {
    const prompts: string[] = [];
    const rewriter = createQueryRewriter({
      config: config({ cacheSize: 2 }),
      clock: createFakeClock(0),
      complete: async (prompt) => {
        prompts.push(prompt);
        return {
          text: `variant ${prompts.length}`,
          usage: { inputTokens: 100, outputTokens: 5, cachedInputTokens: 0 },
        };
      },
    });
    expect(await rewriter.rewrite('tea')).toEqual(['variant 1']);
    expect(await rewriter.rewrite('  TEA ')).toEqual(['variant 1']);
    await rewriter.rewrite('coffee');
    await rewriter.rewrite('tea');
    await rewriter.rewrite('juice');
    await rewriter.rewrite('coffee');
    expect(prompts).toHaveLength(4);
    expect(rewriter.usage()).toMatchObject({
      calls: 4,
      cacheHits: 2,
      inputTokens: 400,
      outputTokens: 20,
      estimatedCalls: 0,
    });
  });

  it('without reported usage the tokens are counted here; a model past the timeout is given up on', async () => {
    const clock = createFakeClock(0);
    let release: (() => void) | undefined;
    const rewriter = createQueryRewriter({
      config: config({ timeoutMs: 1000 }),
      clock,
      complete: (_prompt, signal) =>
        new Promise((resolve, reject) => {
          release = () => resolve({ text: 'green tea' });
          signal.addEventListener('abort', () => reject(new Error('aborted')));
        }),
    });
    const first = rewriter.rewrite('tea');
    release!();
    expect(await first).toEqual(['green tea']);
    expect(rewriter.usage()).toMatchObject({ estimatedCalls: 1 });
    expect(rewriter.usage().inputTokens).toBeGreaterThan(30);
    const slow = rewriter.rewrite('coffee');
    clock.advance(1000);
    expect(await slow).toEqual([]);
    expect(rewriter.usage()).toMatchObject({ failures: 1 });
  });

  it('merges hits: each chunk once at its best score, a rewrite weighted below the words typed', async () => {
    const hit = (path: string, score: number) => ({
      path,
      startLine: 1,
      endLine: 1,
      score,
      vectorScore: 0,
      textScore: score,
      decay: 1,
      snippet: path,
      heading: '',
      category: 'other',
    });
    const results = await searchRewritten('q', ['v'], 5, async (query) =>
      query === 'q' ? [hit('a.md', 0.8), hit('b.md', 0.3)] : [hit('a.md', 1), hit('c.md', 0.85)],
    );
    expect(results.map((r) => [r.path, Number(r.score.toFixed(3))])).toEqual([
      ['a.md', 0.9],
      ['c.md', 0.765],
      ['b.md', 0.3],
    ]);
  });
});

describe('query rewrite by a model', () => {
  const QUESTION = 'how do I get into the flat?';
  let llm: FakeLlmServer;
  beforeAll(async () => {
    llm = await startFakeLlmServer();
  });
  afterAll(() => llm.close());

  /** The host's rewriters over one agent on gpt-4o, the provider's token counts passed through. */
  const rewriters = () =>
    createAgentRewriters({
      config: config(),
      clock: createFakeClock(0),
      primaryModel: () => 'openai/gpt-4o',
      complete: (ref, prompt, signal, onUsage) =>
        streamCompletion({
          model: createOpenAI({ baseURL: llm.baseUrlFor('openai'), apiKey: 'sk-test-rewrite' }).chat(
            ref.split('/')[1]!,
          ),
          prompt,
          maxOutputTokens: 160,
          signal,
          onUsage,
        }),
    });

  it('the words typed find nothing; rewritten by the model, recall finds the note; the same words again are cached', async () => {
    llm.reset();
    const memory = await createMemoryFixture();
    await memory.write('memory/2026-11-28.md', '- Door keypad code: 7741#\n');
    await memory.engine.open();
    await memory.engine.sync();
    const scope = memory.engine.defaultScope();
    const recallConfig = memoryRecallConfigSchema.parse({ cacheMs: 0 });
    const plain = createActiveRecall({ engine: memory.engine, clock: memory.clock, config: recallConfig });
    expect(await plain.recall({ scope, message: QUESTION })).toBeUndefined();

    const agents = rewriters();
    const rewriter = agents.forAgent('main')!;
    // cachedTokens: only the provider can report those, so a 7 below proves its counts were used.
    llm.script([{ type: 'text', text: 'door keypad code\n- 门禁密码\nflat entrance', cachedTokens: 7 }]);
    const recall = createActiveRecall({
      engine: memory.engine,
      clock: memory.clock,
      config: recallConfig,
      rewrite: (query, signal) => rewriter.rewrite(query, signal),
    });
    expect(await recall.recall({ scope, message: QUESTION })).toMatch(/^Memory: .*Door keypad code: 7741#/);
    expect(llm.requests).toHaveLength(1);
    const prompt = JSON.stringify(llm.requests[0]!.body);
    expect(prompt).toContain('Rewrite the search query');
    expect(prompt).toContain(QUESTION);
    expect(prompt).toContain('Chinese');

    // memory_search asking the same words: from the cache, no second call.
    expect(await rewriter.rewrite(QUESTION)).toEqual(['door keypad code', '门禁密码', 'flat entrance']);
    expect(llm.requests).toHaveLength(1);
    const usage = agents.usage();
    expect(usage).toMatchObject({ enabled: true, calls: 1, cacheHits: 1, failures: 0 });
    // The provider's own counts (the fake reports them like OpenAI does), not an estimate.
    expect(usage).toMatchObject({ cachedInputTokens: 7, estimatedCalls: 0 });
    expect(usage.inputTokens).toBeGreaterThan(20);
    expect(usage.outputTokens).toBeGreaterThan(0);
    await memory.engine.close();
  });

  it('a failing model means a plain search, not a failed recall, and is counted', async () => {
    llm.reset();
    const memory = await createMemoryFixture();
    await memory.write('memory/2026-11-28.md', '- Tomatoes need watering every morning.\n');
    await memory.engine.open();
    await memory.engine.sync();
    const agents = rewriters();
    const rewriter = agents.forAgent('main')!;
    llm.script([{ type: 'error', error: 'server_error' }]);
    const recall = createActiveRecall({
      engine: memory.engine,
      clock: memory.clock,
      config: memoryRecallConfigSchema.parse({}),
      rewrite: (query, signal) => rewriter.rewrite(query, signal),
    });
    expect(
      await recall.recall({ scope: memory.engine.defaultScope(), message: 'what about the tomatoes watering?' }),
    ).toMatch(/^Memory: .*Tomatoes need watering/);
    expect(agents.usage()).toMatchObject({ calls: 1, failures: 1 });
    await memory.engine.close();
  });
});
