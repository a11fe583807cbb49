import type {
  UsageLimitPeriod,
  UsageLimitScope,
  UsageLimitStatus,
  UsageLimitValue,
  UsagePurpose,
} from '../protocol/methods/usage.js';
import { backgroundPurposes } from '../protocol/methods/usage.js';
import { defaultBackgroundLimits, type PeriodLimits, type UsageConfig } from './usage-config.js';
import type { UsageTag } from './usage-tag.js';

/** One cap as configured. */
export interface ConfiguredLimit {
  scope: UsageLimitScope;
  agentId?: string;
  period: UsageLimitPeriod;
  limit: UsageLimitValue;
  isDefault: boolean;
}

export interface Spent {
  tokens: number;
  costUsd: number;
}

/** The counter a cap reads: `global`, `background` or `agent:<id>`. */
export function scopeKeyOf(limit: { scope: UsageLimitScope; agentId?: string }): string {
  return limit.scope === 'agent' ? `agent:${limit.agentId}` : limit.scope;
}

/** The counters one call adds to. */
export function scopeKeysOfCall(tag: Pick<UsageTag, 'agentId' | 'purpose'>): string[] {
  const keys = ['global', `agent:${tag.agentId}`];
  if (isBackground(tag.purpose)) keys.push('background');
  return keys;
}

export function isBackground(purpose: UsagePurpose): boolean {
  return backgroundPurposes.includes(purpose);
}

/** Every cap in `usage.limits`, plus the default background cap when none is set. */
export function configuredLimits(config: UsageConfig): ConfiguredLimit[] {
  const out: ConfiguredLimit[] = [];
  const add = (scope: UsageLimitScope, limits: PeriodLimits | undefined, isDefault: boolean, agentId?: string) => {
    for (const period of ['day', 'month'] as const) {
      const limit = limits?.[period];
      if (limit && (limit.tokens !== undefined || limit.costUsd !== undefined))
        out.push({ scope, period, limit: { ...limit }, isDefault, ...(agentId ? { agentId } : {}) });
    }
  };
  add('global', config.limits.global, false);
  const background = config.limits.background;
  add('background', background ?? defaultBackgroundLimits, background === undefined);
  for (const [agentId, limits] of Object.entries(config.limits.agents).sort(([a], [b]) => a.localeCompare(b)))
    add('agent', limits, false, agentId);
  return out;
}

/** How much of a cap is used: the larger of the token and the dollar fraction. */
export function statusOf(limit: ConfiguredLimit, used: Spent, warnAt: number, resetsAtMs: number): UsageLimitStatus {
  const fractions = [
    limit.limit.tokens ? used.tokens / limit.limit.tokens : 0,
    limit.limit.costUsd ? used.costUsd / limit.limit.costUsd : 0,
  ];
  const fraction = Math.max(...fractions);
  return {
    scope: limit.scope,
    ...(limit.agentId ? { agentId: limit.agentId } : {}),
    period: limit.period,
    limit: limit.limit,
    used: { tokens: used.tokens, costUsd: roundUsd(used.costUsd) },
    fraction,
    state: fraction >= 1 ? 'exhausted' : fraction >= warnAt ? 'warning' : 'ok',
    resetsAtMs,
    isDefault: limit.isDefault,
  };
}

/** "the daily limit of agent \"main\" (1,000 tokens)". */
export function describeLimit(status: Pick<UsageLimitStatus, 'scope' | 'agentId' | 'period' | 'limit'>): string {
  const period = status.period === 'day' ? 'daily' : 'monthly';
  const whose =
    status.scope === 'global'
      ? 'overall'
      : status.scope === 'background'
        ? 'background-work (heartbeat, cron, Dreaming)'
        : `agent "${status.agentId}"`;
  const amounts = [
    status.limit.tokens !== undefined
      ? `${formatTokens(status.limit.tokens)} token${status.limit.tokens === 1 ? '' : 's'}`
      : undefined,
    status.limit.costUsd !== undefined ? formatUsd(status.limit.costUsd) : undefined,
  ].filter(Boolean);
  return `the ${period} ${whose} limit (${amounts.join(' or ')})`;
}

export function formatTokens(tokens: number): string {
  return Math.round(tokens).toLocaleString('en-US');
}

export function formatUsd(usd: number): string {
  return `$${usd < 1 ? usd.toFixed(4) : usd.toFixed(2)}`;
}

export function roundUsd(usd: number): number {
  return Math.round(usd * 1e6) / 1e6;
}
