import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { silentLogger } from '../base/logger.js';
import { openHearthConfig } from '../host/hearth-config.js';
import { createEmbedder } from '../memory/index.js';
import type { UsageLimitEvent } from '../protocol/methods/usage.js';
import { FailoverError } from '../providers/index.js';
import { createFakeClock } from '../testing/fake-clock.js';
import { startFakeEmbeddingsServer } from '../testing/fake-embeddings.js';
import { createTempHome } from '../testing/temp-home.js';
import { parseUsageConfig, type UsageConfig } from './usage-config.js';
import { UsageLedger } from './usage-ledger.js';
import { UsageMeter } from './usage-meter.js';
import { createUsageService, limitPatch } from './usage-service.js';
import { summarizeUsage } from './usage-summary.js';
import { withUsageTag } from './usage-tag.js';

// 2026-12-10 09:00 UTC, a Thursday in the middle of a month.
const midMonth = Date.UTC(2026, 11, 10, 9, 0, 0);
const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

async function openMeter(options: { config?: unknown; dir?: string; now?: number } = {}) {
  const dir = options.dir ?? (await tempDir());
  const clock = createFakeClock(options.now ?? midMonth);
  let config: UsageConfig = parseUsageConfig({ timeZone: 'UTC', ...(options.config as object) });
  const meter = await UsageMeter.open({
    ledger: new UsageLedger(dir, silentLogger),
    clock,
    log: silentLogger,
    config: () => config,
  });
  const events: UsageLimitEvent[] = [];
  meter.onDidCrossLimit((event) => events.push(event));
  cleanups.push(async () => meter.dispose());
  return { meter, clock, dir, events, setConfig: (raw: unknown) => (config = parseUsageConfig(raw)) };
}

async function tempDir(): Promise<string> {
  const temp = await createTempHome('hearth-usage-');
  cleanups.push(temp.cleanup);
  return temp.home;
}

const chat = { purpose: 'chat', agentId: 'main', sessionKey: 'agent:main:main' } as const;
const gpt4o = { provider: 'openai', model: 'gpt-4o' };

describe('usage meter', () => {
  it('prices a call from the catalogue, charging cached input tokens at the cached rate', async () => {
    const { meter } = await openMeter();
    const record = meter.record({ ...gpt4o, inputTokens: 1000, outputTokens: 100, cachedInputTokens: 400 }, chat);
    // 600 fresh × $2.50 + 400 cached × $1.25 + 100 out × $10, per million tokens.
    expect(record.costUsd).toBeCloseTo(0.003, 10);
    expect(record.priced).toBe(true);
  });

  it('uses a price from config over the built-in one, and counts unknown models as unpriced', async () => {
    const { meter } = await openMeter({
      config: { prices: { 'openai/gpt-4o': { input: 1, output: 1 } } },
    });
    const priced = meter.record({ ...gpt4o, inputTokens: 500_000, outputTokens: 500_000, cachedInputTokens: 0 }, chat);
    expect(priced.costUsd).toBeCloseTo(1, 10);
    meter.record({ provider: 'acme', model: 'x1', inputTokens: 10, outputTokens: 5, cachedInputTokens: 0 }, chat);
    const summary = await summarizeUsage(meter, midMonth);
    expect(summary.today).toMatchObject({ calls: 2, totalTokens: 1_000_015, unpricedCalls: 1 });
  });

  it('keeps the month across a restart, and a new day starts the daily counters at zero', async () => {
    const first = await openMeter({ config: { limits: { global: { day: { tokens: 10_000 } } } } });
    first.meter.record({ ...gpt4o, inputTokens: 1200, outputTokens: 300, cachedInputTokens: 0 }, chat);
    first.meter.record(
      { ...gpt4o, inputTokens: 800, outputTokens: 200, cachedInputTokens: 100 },
      {
        purpose: 'compaction',
        agentId: 'main',
      },
    );
    await first.meter.flush();
    first.meter.dispose();

    const nextDay = midMonth + 86_400_000;
    const second = await openMeter({
      dir: first.dir,
      now: nextDay,
      config: { limits: { global: { day: { tokens: 10_000 }, month: { tokens: 100_000 } } } },
    });
    const summary = await summarizeUsage(second.meter, nextDay);
    expect(summary.month).toMatchObject({ calls: 2, inputTokens: 2000, outputTokens: 500, cachedInputTokens: 100 });
    expect(summary.today.calls).toBe(0);
    expect(summary.byPurpose.map((row) => row.purpose).sort()).toEqual(['chat', 'compaction']);
    const limits = second.meter.limits();
    expect(limits.find((l) => l.period === 'day' && l.scope === 'global')?.used.tokens).toBe(0);
    expect(limits.find((l) => l.period === 'month' && l.scope === 'global')?.used.tokens).toBe(2500);
  });

  it('keeps the month across a restart in zones 14 and 11 hours from UTC, on the first of the month there', async () => {
    // Opening asks no zone (monthKeysInAnyZone): it must still load the ledger of the local month.
    for (const [timeZone, now, month] of [
      ['Pacific/Kiritimati', Date.UTC(2026, 10, 30, 11, 0, 0), '2026-12'], // 2026-12-01 01:00 there
      ['Pacific/Pago_Pago', Date.UTC(2026, 11, 1, 5, 0, 0), '2026-11'], // 2026-11-30 18:00 there
    ] as const) {
      const config = { timeZone, limits: { global: { month: { tokens: 100_000 } } } };
      const first = await openMeter({ now, config });
      const record = first.meter.record({ ...gpt4o, inputTokens: 900, outputTokens: 100, cachedInputTokens: 0 }, chat);
      expect(record.day.slice(0, 7)).toBe(month);
      await first.meter.flush();
      first.meter.dispose();

      const second = await openMeter({ dir: first.dir, now: now + 60_000, config });
      expect(second.meter.limits()[0]?.used.tokens, timeZone).toBe(1000);
      expect((await summarizeUsage(second.meter, now + 60_000)).today.calls, timeZone).toBe(1);
    }
  });

  it('after a restart, announces a cap lowered below what was used, but not one crossed before', async () => {
    const first = await openMeter({ config: { limits: { global: { day: { tokens: 1000 } } } } });
    first.meter.record({ ...gpt4o, inputTokens: 1000, outputTokens: 100, cachedInputTokens: 0 }, chat);
    expect(first.events.map((e) => e.state)).toEqual(['exhausted']);
    await first.meter.flush();
    first.meter.dispose();

    const second = await openMeter({
      dir: first.dir,
      config: { limits: { global: { day: { tokens: 1000 }, month: { tokens: 100_000 } } } },
    });
    second.meter.record({ ...gpt4o, inputTokens: 1, outputTokens: 1, cachedInputTokens: 0 }, chat);
    expect(second.events).toEqual([]);
    second.setConfig({ timeZone: 'UTC', limits: { global: { day: { tokens: 1000 }, month: { tokens: 1000 } } } });
    second.meter.reevaluate();
    expect(second.events.map((e) => `${e.period} ${e.state}`)).toEqual(['month exhausted']);

    // The same when the cap is lowered before the first call after the restart.
    const third = await openMeter({
      dir: first.dir,
      config: { limits: { global: { day: { tokens: 1000 }, month: { tokens: 100_000 } } } },
    });
    third.setConfig({ timeZone: 'UTC', limits: { global: { day: { tokens: 1000 }, month: { tokens: 1200 } } } });
    third.meter.reevaluate();
    expect(third.events.map((e) => `${e.period} ${e.state}`)).toEqual(['month warning']);
  });

  it('warns at 80 %, then refuses new calls with budget_exhausted until the period ends', async () => {
    const { meter, clock, events } = await openMeter({ config: { limits: { global: { day: { tokens: 1000 } } } } });
    meter.record({ ...gpt4o, inputTokens: 700, outputTokens: 150, cachedInputTokens: 0 }, chat);
    expect(events.map((e) => e.state)).toEqual(['warning']);
    expect(events[0]?.message).toMatch(/85% of the daily overall limit \(1,000 tokens\)/);
    expect(() => meter.check(chat, gpt4o)).not.toThrow();

    meter.record({ ...gpt4o, inputTokens: 100, outputTokens: 60, cachedInputTokens: 0 }, chat);
    expect(events.map((e) => e.state)).toEqual(['warning', 'exhausted']);
    let refused: unknown;
    try {
      meter.check(chat, gpt4o);
    } catch (error) {
      refused = error;
    }
    expect(refused).toBeInstanceOf(FailoverError);
    expect((refused as FailoverError).reason).toBe('budget_exhausted');
    expect((refused as FailoverError).message).toMatch(
      /the daily overall limit \(1,000 tokens\) is used up: 1,010 tokens.*refused until 2026-12-11 00:00 UTC.*raise the limit/,
    );

    // A new event only for a new period; past midnight the calls go through again.
    meter.record({ ...gpt4o, inputTokens: 1, outputTokens: 1, cachedInputTokens: 0 }, chat);
    expect(events).toHaveLength(2);
    clock.advance(15 * 3_600_000);
    expect(() => meter.check(chat, gpt4o)).not.toThrow();
  });

  it('caps background work by default without touching chat, and per-agent caps only their agent', async () => {
    const { meter } = await openMeter({ config: { limits: { agents: { helper: { month: { costUsd: 0.01 } } } } } });
    const cron = { purpose: 'cron', agentId: 'main', sessionKey: 'agent:main:cron:job-1' } as const;
    meter.record({ ...gpt4o, inputTokens: 150_000, outputTokens: 60_000, cachedInputTokens: 0 }, cron);
    expect(() => meter.check(cron, gpt4o)).toThrow(/background-work .* is used up.*chat turns are not affected/);
    expect(() => meter.check(chat, gpt4o)).not.toThrow();

    const helper = { purpose: 'chat', agentId: 'helper' } as const;
    meter.record({ ...gpt4o, inputTokens: 1000, outputTokens: 1000, cachedInputTokens: 0 }, helper);
    expect(() => meter.check(helper, gpt4o)).toThrow(/monthly agent "helper" limit \(\$0\.0100\) is used up/);
    expect(() => meter.check({ ...helper, agentId: 'main' }, gpt4o)).not.toThrow();
  });
  it('counts provider embeddings as the provider reported them, under the session that asked', async () => {
    const server = await startFakeEmbeddingsServer();
    cleanups.push(() => server.close());
    const usage = await createUsageService({
      dir: await tempDir(),
      clock: createFakeClock(midMonth),
      log: silentLogger,
      config: () => ({ timeZone: 'UTC' }),
      patchConfig: async () => {},
      onLimit: () => {},
    });
    cleanups.push(async () => usage.dispose());
    const embedder = await createEmbedder(
      { kind: 'provider', provider: 'openai', model: 'text-embedding-3-small', baseUrl: server.baseUrl, dimension: 16 },
      { onUsage: usage.recordEmbedding },
    );
    await withUsageTag({ purpose: 'chat', agentId: 'main', sessionKey: 'agent:main:main' }, () =>
      embedder.embed(['one', 'two', 'three']),
    );
    await embedder.embed(['four']);
    const summary = await usage.summary();
    // The fake reports one token per input, as prompt_tokens.
    expect(summary.byPurpose).toEqual([expect.objectContaining({ purpose: 'embedding', calls: 2, inputTokens: 4 })]);
    expect(summary.topSessions).toEqual([expect.objectContaining({ sessionKey: 'agent:main:main', inputTokens: 3 })]);
    expect(summary.byModel[0]).toMatchObject({ model: 'openai/text-embedding-3-small', unpricedCalls: 0 });
  });
});

describe('the usage ledger', () => {
  it('skips and counts a torn line and a line that is not a record, and leaves the file as it is', async () => {
    const dir = await tempDir();
    const ledger = new UsageLedger(dir, silentLogger);
    const record = {
      ts: midMonth,
      day: '2026-12-10',
      purpose: 'chat' as const,
      agentId: 'main',
      provider: 'openai',
      model: 'gpt-4o',
      inputTokens: 10,
      outputTokens: 2,
      cachedInputTokens: 0,
      costUsd: 0.01,
      priced: true,
    };
    ledger.append(record);
    ledger.append({ ...record, purpose: 'future' as never });
    await ledger.flush();
    const file = join(dir, '2026-12.jsonl');
    const text = `${await readFile(file, 'utf8')}${JSON.stringify({ ...record, inputTokens: 'ten' })}\n{"ts": 1, "day`;
    await writeFile(file, text);
    // A purpose this version does not know still counts, as "other".
    expect(await ledger.readMonth('2026-12')).toEqual({
      records: [record, { ...record, purpose: 'other' }],
      skipped: 2,
    });
    expect(await readFile(file, 'utf8')).toBe(text);
  });
});

describe('usage limits input', () => {
  const config = parseUsageConfig({});

  it('names what is wrong with a limit that cannot be set', () => {
    expect(() => limitPatch(config, { scope: 'agent', period: 'day', tokens: 5 })).toThrow(
      /scope "agent" needs an agentId/,
    );
    expect(() => limitPatch(config, { scope: 'global', agentId: 'main', period: 'day', tokens: 5 })).toThrow(
      /agentId is only for scope "agent"/,
    );
    expect(() => limitPatch(config, { scope: 'global', period: 'day' })).toThrow(/give tokens or costUsd/);
    expect(() => limitPatch(config, { scope: 'global', period: 'day', tokens: -3 })).toThrow(
      /tokens must be a positive number/,
    );
    expect(() => limitPatch(config, { scope: 'global', period: 'day', tokens: 2.5 })).toThrow(/whole number/);
  });

  it('names the bad key of a usage section in hearth.json', () => {
    expect(() => parseUsageConfig({ limits: { global: { day: { tokens: -1 } } } })).toThrow(
      /^usage\.limits\.global\.day\.tokens: /,
    );
    expect(() => parseUsageConfig({ timeZone: 'Mars/Olympus' })).toThrow(/usage\.timeZone: not a known IANA time zone/);
  });

  it('keeps the default background day cap when only its month is changed', () => {
    expect(limitPatch(config, { scope: 'background', period: 'month', costUsd: 5 })).toEqual({
      background: { month: { tokens: null, costUsd: 5 }, day: { tokens: 200_000 } },
    });
    expect(limitPatch(config, { scope: 'agent', agentId: 'main', period: 'day', tokens: null })).toEqual({
      agents: { main: { day: null } },
    });
  });

  it('writes a limit into hearth.json and reports it at once', async () => {
    const dir = await tempDir();
    const configPath = join(dir, 'hearth.json');
    await writeFile(configPath, JSON.stringify({ usage: { timeZone: 'UTC' } }));
    const clock = createFakeClock(midMonth);
    const config = await openHearthConfig({ path: configPath, clock, log: silentLogger, watch: false });
    const usage = await createUsageService({
      dir,
      clock,
      log: silentLogger,
      config: () => config.current.usage,
      patchConfig: (patch) => config.patch(patch),
      onLimit: () => {},
    });
    cleanups.push(async () => {
      usage.dispose();
      config.dispose();
    });
    const result = await usage.setLimit({ scope: 'global', period: 'month', costUsd: 20 });
    expect(result.limits).toContainEqual(
      expect.objectContaining({ scope: 'global', period: 'month', limit: { costUsd: 20 }, state: 'ok' }),
    );
    expect(result.limits).toContainEqual(expect.objectContaining({ scope: 'background', isDefault: true }));
    const saved = JSON.parse(await readFile(configPath, 'utf8'));
    expect(saved.usage).toEqual({ timeZone: 'UTC', limits: { global: { month: { costUsd: 20 } } } });
  });
});
