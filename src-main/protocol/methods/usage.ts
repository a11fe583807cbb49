import { z } from 'zod';
import { method } from './define.js';

/**
 * What started a model call (docs/USAGE.md). `tool_loop` is a turn's call after tool results;
 * `recall` covers active and model recall, `query_rewrite` memory's query rewriting.
 */
export const usagePurposes = [
  'chat',
  'tool_loop',
  'compaction',
  'recall',
  'query_rewrite',
  'approval',
  'dreaming',
  'heartbeat',
  'cron',
  'subagent',
  'embedding',
  'other',
] as const;
export type UsagePurpose = (typeof usagePurposes)[number];

/** Purposes nobody is waiting on: they count against the background cap too. */
export const backgroundPurposes: readonly UsagePurpose[] = ['heartbeat', 'cron', 'dreaming'];

/** Tokens and money of some calls. Cost in US dollars from the price table; `unpriced` calls have none. */
export interface UsageTotals {
  calls: number;
  inputTokens: number;
  outputTokens: number;
  cachedInputTokens: number;
  /** input + output. Limits in tokens count this. */
  totalTokens: number;
  costUsd: number;
  /** Calls of models with no known price (their cost counts as 0). */
  unpricedCalls: number;
}

export interface UsageDayRow extends UsageTotals {
  /** `YYYY-MM-DD` in the meter's time zone. */
  day: string;
}

export interface UsagePurposeRow extends UsageTotals {
  purpose: UsagePurpose;
}

export interface UsageAgentRow extends UsageTotals {
  agentId: string;
}

export interface UsageModelRow extends UsageTotals {
  /** `provider/model`. */
  model: string;
}

export interface UsageSessionRow extends UsageTotals {
  sessionKey: string;
  agentId: string;
  lastAtMs: number;
}

export type UsageLimitScope = 'global' | 'background' | 'agent';
export type UsageLimitPeriod = 'day' | 'month';

/** One cap: tokens, dollars, or both (whichever is hit first). */
export interface UsageLimitValue {
  tokens?: number;
  costUsd?: number;
}

/** A configured cap and how much of it the current period has used. */
export interface UsageLimitStatus {
  scope: UsageLimitScope;
  /** Only for `agent`. */
  agentId?: string;
  period: UsageLimitPeriod;
  limit: UsageLimitValue;
  used: { tokens: number; costUsd: number };
  /** The larger of tokens and cost used ÷ limit (0..1+). */
  fraction: number;
  state: 'ok' | 'warning' | 'exhausted';
  /** When the period ends and the cap resets. */
  resetsAtMs: number;
  /** True when the cap is the built-in default (background), not the person's. */
  isDefault: boolean;
}

export interface UsageSummaryResult {
  /** The time zone days and months are cut in (config `usage.timeZone`, else the machine's). */
  timeZone: string;
  generatedAtMs: number;
  today: UsageTotals;
  /** The last 7 days, today included. */
  week: UsageTotals;
  /** The calendar month so far. */
  month: UsageTotals;
  /** The period asked for (`days`, default 30), oldest first, one row per day (zeros included). */
  byDay: UsageDayRow[];
  /** Over the same `days`. */
  byPurpose: UsagePurposeRow[];
  byAgent: UsageAgentRow[];
  byModel: UsageModelRow[];
  /** Most expensive first (by cost, then tokens), at most `topSessions`. */
  topSessions: UsageSessionRow[];
  limits: UsageLimitStatus[];
}

export interface UsageLimitsResult {
  /** 0..1: when the person is told (default 0.8). */
  warnAt: number;
  limits: UsageLimitStatus[];
}

const agentId = z.string().min(1).max(64);
const limitScope = z.enum(['global', 'background', 'agent']);
const limitPeriod = z.enum(['day', 'month']);

export const usageMethods = {
  'usage.summary': method<UsageSummaryResult>()({
    scope: 'operator.read',
    params: () =>
      z
        .object({
          /** Days of history for byDay/byPurpose/byAgent/byModel/topSessions (default 30). */
          days: z.number().int().min(1).max(366).optional(),
          agentId: agentId.optional(),
          topSessions: z.number().int().min(1).max(100).optional(),
        })
        .strict(),
  }),
  'usage.limits.get': method<UsageLimitsResult>()({
    scope: 'operator.read',
    params: () => z.object({}).strict(),
  }),
  /**
   * Sets (or with `null`, removes) one cap; writes `usage.limits` in hearth.json. A value left
   * out keeps its current setting. Answers every cap after the change.
   */
  'usage.limits.set': method<UsageLimitsResult>()({
    scope: 'operator.admin',
    controlPlaneWrite: true,
    params: () =>
      z
        .object({
          scope: limitScope,
          agentId: agentId.optional(),
          period: limitPeriod,
          tokens: z.number().int().positive().nullable().optional(),
          costUsd: z.number().positive().nullable().optional(),
        })
        .strict(),
  }),
};

/**
 * `usage.limit`: a cap crossed its warning line or ran out. Sent once per cap, period and state
 * (UI banner, channels); `message` is the sentence to show.
 */
export interface UsageLimitEvent {
  scope: UsageLimitScope;
  agentId?: string;
  period: UsageLimitPeriod;
  state: 'warning' | 'exhausted';
  fraction: number;
  limit: UsageLimitValue;
  used: { tokens: number; costUsd: number };
  resetsAtMs: number;
  message: string;
}
