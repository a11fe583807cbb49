import type {
  UsageAgentRow,
  UsageDayRow,
  UsageModelRow,
  UsagePurpose,
  UsagePurposeRow,
  UsageSessionRow,
  UsageSummaryResult,
  UsageTotals,
} from '../protocol/methods/usage.js';
import { lastDayKeys, monthKeyOf } from './usage-calendar.js';
import type { UsageRecord } from './usage-ledger.js';
import { roundUsd } from './usage-limits.js';
import type { UsageMeter } from './usage-meter.js';

export interface UsageSummaryOptions {
  /** Days of history for the breakdowns (default 30). */
  days?: number;
  agentId?: string;
  topSessions?: number;
}

/** Today / 7 days / this month, and the breakdowns over `days`: what the Usage view and `hearth usage` show. */
export async function summarizeUsage(
  meter: UsageMeter,
  now: number,
  options: UsageSummaryOptions = {},
): Promise<UsageSummaryResult> {
  const zone = meter.timeZone();
  const days = options.days ?? 30;
  const windowDays = lastDayKeys(now, zone, Math.max(days, 7));
  const today = windowDays.at(-1)!;
  const thisMonth = monthKeyOf(today);
  const months = [...new Set([...windowDays.map(monthKeyOf), thisMonth])];
  const all = (await meter.recordsOf(months)).filter(
    (record) => options.agentId === undefined || record.agentId === options.agentId,
  );
  const shown = new Set(windowDays.slice(-days));
  const week = new Set(windowDays.slice(-7));
  const inWindow = all.filter((record) => shown.has(record.day));

  const byDay = new Map<string, UsageTotals>([...shown].map((day) => [day, emptyTotals()]));
  const byPurpose = new Map<UsagePurpose, UsageTotals>();
  const byAgent = new Map<string, UsageTotals>();
  const byModel = new Map<string, UsageTotals>();
  const bySession = new Map<string, UsageSessionRow>();
  for (const record of inWindow) {
    addTo(byDay.get(record.day)!, record);
    addTo(entry(byPurpose, record.purpose), record);
    addTo(entry(byAgent, record.agentId), record);
    addTo(entry(byModel, `${record.provider}/${record.model}`), record);
    // A subagent's calls count under the session that spawned it: the person sees the cost where they asked.
    const sessionKey = record.parentSessionKey ?? record.sessionKey;
    if (sessionKey) {
      let row = bySession.get(sessionKey);
      if (!row) {
        row = { ...emptyTotals(), sessionKey, agentId: record.agentId, lastAtMs: 0 };
        bySession.set(sessionKey, row);
      }
      addTo(row, record);
      row.lastAtMs = Math.max(row.lastAtMs, record.ts);
    }
  }
  const bySpend = (a: UsageTotals, b: UsageTotals) => b.costUsd - a.costUsd || b.totalTokens - a.totalTokens;
  return {
    timeZone: zone,
    generatedAtMs: now,
    today: totalsOf(all.filter((record) => record.day === today)),
    week: totalsOf(all.filter((record) => week.has(record.day))),
    month: totalsOf(all.filter((record) => monthKeyOf(record.day) === thisMonth)),
    byDay: [...byDay].map(([day, totals]): UsageDayRow => ({ day, ...rounded(totals) })),
    byPurpose: [...byPurpose]
      .map(([purpose, totals]): UsagePurposeRow => ({ purpose, ...rounded(totals) }))
      .sort(bySpend),
    byAgent: [...byAgent].map(([agentId, totals]): UsageAgentRow => ({ agentId, ...rounded(totals) })).sort(bySpend),
    byModel: [...byModel].map(([model, totals]): UsageModelRow => ({ model, ...rounded(totals) })).sort(bySpend),
    topSessions: [...bySession.values()]
      .map((row) => ({ ...row, costUsd: roundUsd(row.costUsd) }))
      .sort(bySpend)
      .slice(0, options.topSessions ?? 10),
    limits: meter.limits(),
  };
}

export function emptyTotals(): UsageTotals {
  return {
    calls: 0,
    inputTokens: 0,
    outputTokens: 0,
    cachedInputTokens: 0,
    totalTokens: 0,
    costUsd: 0,
    unpricedCalls: 0,
  };
}

function totalsOf(records: readonly UsageRecord[]): UsageTotals {
  const totals = emptyTotals();
  for (const record of records) addTo(totals, record);
  return rounded(totals);
}

function addTo(totals: UsageTotals, record: UsageRecord): void {
  totals.calls++;
  totals.inputTokens += record.inputTokens;
  totals.outputTokens += record.outputTokens;
  totals.cachedInputTokens += record.cachedInputTokens;
  totals.totalTokens += record.inputTokens + record.outputTokens;
  totals.costUsd += record.costUsd;
  if (!record.priced) totals.unpricedCalls++;
}

function entry<K>(map: Map<K, UsageTotals>, key: K): UsageTotals {
  let totals = map.get(key);
  if (!totals) {
    totals = emptyTotals();
    map.set(key, totals);
  }
  return totals;
}

function rounded(totals: UsageTotals): UsageTotals {
  return { ...totals, costUsd: roundUsd(totals.costUsd) };
}
