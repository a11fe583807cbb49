import { describe, expect, it } from 'vitest';
import { createFakeClock } from '../testing/fake-clock.js';
import { memoryQueryRewriteConfigSchema } from './memory-config.js';
import { createQueryRewriter, parseRewrites, searchRewritten } from './query-rewrite.js';

// The model's side is the fake LLM in src-main/host/query-rewrite.test.ts; here the parts around it.

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
