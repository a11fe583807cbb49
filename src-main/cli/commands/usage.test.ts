import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCliCaptured } from '../../testing/cli-run.js';
import { type ProductFixture, startProductFixture } from '../../testing/product-fixture.js';

// `hearth usage …` through the CLI's own code path against a running product (fake LLM).

let product: ProductFixture;
beforeAll(async () => {
  product = await startProductFixture({
    config: { usage: { timeZone: 'UTC' }, memory: { recall: { enabled: false } } },
  });
});
afterAll(async () => {
  await product?.close();
});

const cli = (args: string[]) =>
  runCliCaptured(args, { HEARTH_HOME: product.home, HEARTH_PORT: String(product.host.port) });

describe('hearth usage', () => {
  it('prints what the calls cost, and sets and removes a limit', async () => {
    product.llm.script([{ type: 'text', text: 'Hello there.' }]);
    expect(await product.turn('cli-usage-1', 'hi')).toMatchObject({ state: 'final' });
    const tokens = product.llm.requests.reduce(
      (sum, r) => sum + (r.reportedUsage ? r.reportedUsage.input + r.reportedUsage.output : 0),
      0,
    );

    const printed = await cli(['usage']);
    expect(printed.code).toBe(0);
    expect(printed.stdout).toMatch(/^today\s+1 calls/m);
    expect(printed.stdout).toMatch(/^ {2}chat\s+1 calls/m);
    expect(printed.stdout).toContain('openai/gpt-4o');
    expect(printed.stdout).toContain('agent:main:main');
    expect(printed.stdout).toMatch(/background daily \(default\)\s+0 \/ 200,000 tokens/);

    const json = JSON.parse((await cli(['usage', '--json'])).stdout) as { today: { totalTokens: number } };
    expect(json.today.totalTokens).toBe(tokens);

    const set = await cli([
      'usage',
      'limits',
      'set',
      'agent',
      'day',
      '--agent',
      'main',
      '--tokens',
      '50000',
      '--cost',
      '$2',
    ]);
    expect(set.code).toBe(0);
    expect(set.stdout).toMatch(/agent main daily\s+[\d,]+ \/ 50,000 tokens, \$0\.\d+ \/ \$2\.00/);
    const limits = await cli(['usage', 'limits', '--json']);
    expect(JSON.parse(limits.stdout).limits).toContainEqual(
      expect.objectContaining({
        scope: 'agent',
        agentId: 'main',
        period: 'day',
        limit: { tokens: 50_000, costUsd: 2 },
      }),
    );
    const removed = await cli([
      'usage',
      'limits',
      'set',
      'agent',
      'day',
      '--agent',
      'main',
      '--tokens',
      'none',
      '--cost',
      'none',
    ]);
    expect(removed.code).toBe(0);
    expect(removed.stdout).not.toContain('agent main');
  });

  it('says what is wrong with a limit it cannot set', async () => {
    const negative = await cli(['usage', 'limits', 'set', 'global', 'day', '--tokens', '-5']);
    expect(negative.code).not.toBe(0);
    expect(negative.stderr).toMatch(/--tokens must be a positive whole number or "none", got "-5"/);
    const period = await cli(['usage', 'limits', 'set', 'global', 'week', '--tokens', '5']);
    expect(period.stderr).toMatch(/period must be day or month, got "week"/);
    const noAgent = await cli(['usage', 'limits', 'set', 'agent', 'day', '--tokens', '5']);
    expect(noAgent.stderr).toMatch(/scope "agent" needs an agentId/);
  });
});
