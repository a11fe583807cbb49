// The Schedule and Usage views' data for the static preview, in the typed wire's shapes:
// a week-old Hearth with two jobs, a heartbeat that spoke once today, and a month of spend.

import type {
  CronJobView,
  CronListResult,
  CronRunsResult,
  CronRunView,
  CronStatusView,
} from '../../src-main/protocol/methods/cron.js';
import type { HeartbeatStatus, StatusResult } from '../../src-main/protocol/methods/gateway.js';
import type {
  UsageDayRow,
  UsageLimitStatus,
  UsageLimitsResult,
  UsagePurpose,
  UsageSummaryResult,
  UsageTotals,
} from '../../src-main/protocol/methods/usage.js';

const minute = 60_000;
const hour = 60 * minute;
const day = 24 * hour;

function totals(costUsd: number, totalTokens: number, calls: number): UsageTotals {
  const outputTokens = Math.round(totalTokens * 0.15);
  return {
    calls,
    inputTokens: totalTokens - outputTokens,
    outputTokens,
    cachedInputTokens: Math.round(totalTokens * 0.4),
    totalTokens,
    costUsd,
    unpricedCalls: 0,
  };
}

function sum(rows: readonly UsageTotals[]): UsageTotals {
  return rows.reduce(
    (all, row) => ({
      calls: all.calls + row.calls,
      inputTokens: all.inputTokens + row.inputTokens,
      outputTokens: all.outputTokens + row.outputTokens,
      cachedInputTokens: all.cachedInputTokens + row.cachedInputTokens,
      totalTokens: all.totalTokens + row.totalTokens,
      costUsd: all.costUsd + row.costUsd,
      unpricedCalls: all.unpricedCalls + row.unpricedCalls,
    }),
    totals(0, 0, 0),
  );
}

/** Answers the cron.*, status and usage.* methods; undefined for any other method. */
export function createPreviewSchedule(now: () => number) {
  const created = now() - 7 * day;
  let jobs: CronJobView[] = [
    {
      id: 'inbox01',
      name: 'Inbox digest',
      scheduleText: '0 8 * * 1-5',
      schedule: { kind: 'cron', expr: '0 8 * * 1-5', tz: 'Europe/Lisbon' },
      agentId: 'main',
      message: 'Summarise my inbox: who wrote, what needs an answer today.',
      session: 'isolated',
      delivery: 'ui',
      enabled: true,
      createdAtMs: created,
      updatedAtMs: created,
      nextRunAtMs: now() + 14 * hour,
      lastRunAtMs: now() - 10 * hour,
      lastResult: { status: 'ok', summary: 'Six new mails; Ana asks about Friday, the rest can wait.' },
    },
    {
      id: 'plants02',
      name: 'Water the plants',
      scheduleText: 'every 2d',
      schedule: { kind: 'every', everyMs: 2 * day, anchorMs: created },
      agentId: 'main',
      message: 'Remind me to water the plants.',
      session: 'agent:main:main',
      delivery: 'ui',
      enabled: false,
      createdAtMs: created,
      updatedAtMs: now() - 2 * day,
      lastRunAtMs: now() - 3 * day,
      lastResult: { status: 'error', summary: 'the turn timed out after 600000 ms' },
    },
  ];
  const runs: CronRunView[] = [0, 1, 2].map((daysAgo) => ({
    runId: `run-inbox-${daysAgo}`,
    jobId: 'inbox01',
    sessionKey: `agent:main:cron:inbox01.run-inbox-${daysAgo}`,
    scheduledAtMs: now() - 10 * hour - daysAgo * day,
    startedAtMs: now() - 10 * hour - daysAgo * day,
    endedAtMs: now() - 10 * hour - daysAgo * day + 14_000,
    status: 'ok',
    summary: daysAgo === 0 ? 'Six new mails; Ana asks about Friday, the rest can wait.' : 'Nothing urgent.',
    trigger: daysAgo === 2 ? 'catch-up' : 'schedule',
  }));
  runs.push({
    runId: 'run-plants-0',
    jobId: 'plants02',
    sessionKey: 'agent:main:main',
    scheduledAtMs: now() - 3 * day,
    startedAtMs: now() - 3 * day,
    endedAtMs: now() - 3 * day + 600_000,
    status: 'error',
    summary: 'the turn timed out after 600000 ms',
    trigger: 'schedule',
  });
  const lastBeat = now() - 12 * minute;
  const heartbeat: HeartbeatStatus = {
    enabled: true,
    intervalMs: 30 * minute,
    lastAt: lastBeat,
    nextAt: lastBeat + 30 * minute,
    activeHours: { start: 8, end: 22 },
    tz: 'Europe/Lisbon',
    agentId: 'main',
    turns: 2,
    quietBeats: 301,
    lastResult: {
      status: 'delivered',
      atMs: lastBeat,
      reasons: ['due: Check tomorrow’s calendar'],
      summary: 'Tomorrow: dentist at 9:30, then the call with Ana at 14:00.',
      sessionKey: 'agent:main:heartbeat',
    },
    problems: [],
  };

  const byDay: UsageDayRow[] = Array.from({ length: 30 }, (_, index) => {
    const date = new Date(now() - (29 - index) * day).toISOString().slice(0, 10);
    const weekend = [0, 6].includes(new Date(now() - (29 - index) * day).getUTCDay());
    const tokens = weekend ? 6_000 + index * 150 : 30_000 + ((index * 7919) % 25_000);
    return { day: date, ...totals(Number((tokens * 0.0000042).toFixed(4)), tokens, Math.round(tokens / 1800)) };
  });
  const purposes: [UsagePurpose, number][] = [
    ['chat', 0.62],
    ['tool_loop', 0.2],
    ['compaction', 0.05],
    ['recall', 0.04],
    ['cron', 0.05],
    ['heartbeat', 0.01],
    ['dreaming', 0.02],
    ['embedding', 0.01],
  ];
  const month = sum(byDay);
  let limits: UsageLimitStatus[] = [
    {
      scope: 'global',
      period: 'month',
      limit: { costUsd: 5 },
      used: { tokens: month.totalTokens, costUsd: month.costUsd },
      fraction: month.costUsd / 5,
      state: month.costUsd / 5 >= 1 ? 'exhausted' : month.costUsd / 5 >= 0.8 ? 'warning' : 'ok',
      resetsAtMs: now() + 12 * day,
      isDefault: false,
    },
    {
      scope: 'background',
      period: 'day',
      limit: { tokens: 200_000 },
      used: { tokens: 2_400, costUsd: 0.01 },
      fraction: 0.012,
      state: 'ok',
      resetsAtMs: now() + 9 * hour,
      isDefault: true,
    },
  ];
  const page = (total: number) => ({ total, offset: 0, limit: 50, hasMore: false, nextOffset: null });

  const summary = (): UsageSummaryResult => ({
    timeZone: 'Europe/Lisbon',
    generatedAtMs: now(),
    today: byDay[29]!,
    week: sum(byDay.slice(-7)),
    month,
    byDay,
    byPurpose: purposes.map(([purpose, share]) => ({
      purpose,
      ...totals(
        Number((month.costUsd * share).toFixed(4)),
        Math.round(month.totalTokens * share),
        Math.round(month.calls * share),
      ),
    })),
    byAgent: [{ agentId: 'main', ...month }],
    byModel: [{ model: 'anthropic/claude-sonnet-4-5', ...month }],
    topSessions: [
      ['agent:main:main', 0.41],
      ['agent:main:trip-planning', 0.22],
      ['agent:main:cron:inbox01.run-inbox-0', 0.02],
      ['agent:main:heartbeat', 0.004],
    ].map(([sessionKey, share]) => ({
      sessionKey: String(sessionKey),
      agentId: 'main',
      lastAtMs: now() - hour,
      ...totals(
        Number((month.costUsd * Number(share)).toFixed(4)),
        Math.round(month.totalTokens * Number(share)),
        Math.max(1, Math.round(month.calls * Number(share))),
      ),
    })),
    limits,
  });
  const limitsResult = (): UsageLimitsResult => ({ warnAt: 0.8, limits });

  return (method: string, params: Record<string, unknown>): unknown => {
    switch (method) {
      case 'cron.list':
        return { jobs, ...page(jobs.length), limit: 500, snapshotRevision: `p${jobs.length}` } satisfies CronListResult;
      case 'cron.runs': {
        const sorted = [...runs].sort((a, b) => b.startedAtMs - a.startedAtMs);
        return { runs: sorted, entries: sorted, ...page(runs.length) } satisfies CronRunsResult;
      }
      case 'cron.status':
        return {
          enabled: true,
          triggersEnabled: true,
          catchUp: 'once',
          jobs: jobs.length,
          enabledJobs: jobs.filter((job) => job.enabled).length,
          nextWakeAtMs: jobs.find((job) => job.enabled)?.nextRunAtMs ?? null,
          running: [],
          storage: 'json',
          storePath: '~/.hearth/state/cron/jobs.json',
          sqlitePath: null,
        } satisfies CronStatusView;
      case 'cron.update': {
        const patch = params.patch as Partial<CronJobView>;
        jobs = jobs.map((job) => (job.id === params.id ? { ...job, ...patch, updatedAtMs: now() } : job));
        return { job: jobs.find((job) => job.id === params.id) };
      }
      case 'cron.remove': {
        const job = jobs.find((item) => item.id === params.id);
        jobs = jobs.filter((item) => item.id !== params.id);
        return { job };
      }
      case 'cron.run':
        return { runId: `run-${params.id}-manual`, sessionKey: `agent:main:cron:${params.id}.manual` };
      case 'cron.add': {
        const job: CronJobView = {
          ...jobs[0]!,
          id: `job${jobs.length + 1}`,
          name: String(params.name),
          scheduleText: String(params.schedule),
          schedule: { kind: 'cron', expr: String(params.schedule), ...(params.tz ? { tz: String(params.tz) } : {}) },
          message: String(params.message),
          createdAtMs: now(),
          updatedAtMs: now(),
          nextRunAtMs: now() + day,
        };
        delete job.lastRunAtMs;
        delete job.lastResult;
        jobs = [...jobs, job];
        return { job };
      }
      case 'status':
        return {
          runtimeVersion: 'preview',
          protocol: 4,
          uptimeMs: 7 * day,
          bind: { host: '127.0.0.1', port: 18790, tls: false },
          heartbeat,
          sessions: { count: 4 },
          connections: 1,
          home: '~/.hearth',
          secrets: { backend: 'keychain' },
        } satisfies StatusResult;
      case 'usage.summary':
        return summary();
      case 'usage.limits.get':
        return limitsResult();
      case 'usage.limits.set': {
        const key = (limit: { scope: string; agentId?: string; period: string }) =>
          `${limit.scope}:${limit.agentId ?? ''}:${limit.period}`;
        const wanted = key(params as { scope: string; agentId?: string; period: string });
        limits = limits.filter((limit) => key(limit) !== wanted || limit.isDefault);
        if (params.tokens != null || params.costUsd != null) {
          const limit = {
            ...(params.tokens != null ? { tokens: Number(params.tokens) } : {}),
            ...(params.costUsd != null ? { costUsd: Number(params.costUsd) } : {}),
          };
          limits = limits.filter((item) => key(item) !== wanted);
          limits.unshift({
            scope: params.scope as UsageLimitStatus['scope'],
            ...(params.agentId ? { agentId: String(params.agentId) } : {}),
            period: params.period as UsageLimitStatus['period'],
            limit,
            used: { tokens: 0, costUsd: 0 },
            fraction: 0,
            state: 'ok',
            resetsAtMs: now() + day,
            isDefault: false,
          });
        }
        return limitsResult();
      }
      default:
        return undefined;
    }
  };
}
