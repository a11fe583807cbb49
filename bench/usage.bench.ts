// The usage meter alone: what it adds to each model call (a limit check before, a ledger line
// after), and what a heavy month (30,000 calls) costs to reopen at start and to summarise.
import { rm } from 'node:fs/promises';
import { silentLogger } from '../src-main/base/logger.js';
import { createTempHome } from '../src-main/testing/temp-home.js';
import { parseUsageConfig, summarizeUsage, UsageLedger, UsageMeter } from '../src-main/usage/index.js';
import type { BenchResult } from './bench-result.js';

const CALLS = 30_000;

export async function run(): Promise<BenchResult[]> {
  const temp = await createTempHome('hearth-bench-usage-');
  let now = Date.UTC(2026, 11, 1, 0, 0, 0);
  const clock = { now: () => now, setTimeout: () => ({ dispose() {} }), setInterval: () => ({ dispose() {} }) };
  const config = parseUsageConfig({
    timeZone: 'Europe/Berlin',
    limits: { global: { day: { tokens: 1e12 }, month: { costUsd: 1e9 } }, agents: { main: { day: { costUsd: 1e9 } } } },
  });
  const open = () =>
    UsageMeter.open({
      ledger: new UsageLedger(temp.home, silentLogger),
      clock,
      log: silentLogger,
      config: () => config,
    });
  try {
    const meter = await open();
    const call = { provider: 'openai', model: 'gpt-4o', inputTokens: 5000, outputTokens: 300, cachedInputTokens: 2000 };
    let started = performance.now();
    for (let i = 0; i < CALLS; i++) {
      now += 80_000; // 30,000 calls spread over the month
      const tag = { purpose: 'chat', agentId: 'main', sessionKey: `agent:main:s${i % 200}` } as const;
      meter.check(tag, call);
      meter.record(call, tag);
    }
    const perCall = (performance.now() - started) / CALLS;
    await meter.flush();
    meter.dispose();

    started = performance.now();
    const reopened = await open();
    const reopenMs = performance.now() - started;
    started = performance.now();
    const summary = await summarizeUsage(reopened, now);
    const summaryMs = performance.now() - started;
    reopened.dispose();
    if (summary.month.calls !== CALLS) throw new Error(`reopened ${summary.month.calls} calls, wrote ${CALLS}`);
    return [
      { name: 'limit check + ledger line, per model call', value: perCall, unit: 'ms', budget: '< 1 ms' },
      { name: `reopen a month of ${CALLS} calls (start-up)`, value: reopenMs, unit: 'ms' },
      { name: `usage.summary over that month`, value: summaryMs, unit: 'ms' },
    ];
  } finally {
    await rm(temp.home, { recursive: true, force: true });
  }
}
