import type { Clock } from '../base/clock.js';
import { type Disposable, DisposableStore } from '../base/disposable.js';
import { HearthError } from '../base/errors.js';
import type { Logger } from '../base/logger.js';
import type {
  UsageLimitEvent,
  UsageLimitPeriod,
  UsageLimitScope,
  UsageLimitsResult,
  UsagePurpose,
  UsageSummaryResult,
} from '../protocol/methods/usage.js';
import type { ModelRef, SdkLanguageModel } from '../providers/index.js';
import { meterLanguageModel } from './metered-model.js';
import { defaultBackgroundLimits, type PeriodLimits, parseUsageConfig, type UsageConfig } from './usage-config.js';
import { UsageLedger } from './usage-ledger.js';
import { UsageMeter } from './usage-meter.js';
import { summarizeUsage, type UsageSummaryOptions } from './usage-summary.js';
import { currentUsageTag, withUsageTag } from './usage-tag.js';

export interface UsageServiceDeps {
  /** Where the monthly ledgers live (`state/usage`). */
  dir: string;
  clock: Clock;
  log: Logger;
  /** The raw `usage` section of hearth.json, read on every use. */
  config(): unknown;
  /** Writes a JSON merge patch to hearth.json (usage.limits.set). */
  patchConfig(patch: Record<string, unknown>): Promise<unknown>;
  /** Told when a cap crosses its warning line or runs out (the host publishes `usage.limit`). */
  onLimit(event: UsageLimitEvent): void;
}

export interface SetLimitInput {
  scope: UsageLimitScope;
  agentId?: string;
  period: UsageLimitPeriod;
  /** A number sets it, null removes it, undefined keeps it. */
  tokens?: number | null;
  costUsd?: number | null;
}

/** What a turn is, as far as usage cares. */
export interface TurnUsageScope {
  agentId: string;
  sessionKey: string;
  runKind?: 'default' | 'heartbeat' | 'cron';
}

export interface UsageService extends Disposable {
  readonly meter: UsageMeter;
  /** For the model factory: counts and caps every call of the model. */
  wrapModel(model: SdkLanguageModel, ref: ModelRef): SdkLanguageModel;
  /** Runs a turn with its tag (purpose from the run kind and session: chat, heartbeat, cron, subagent). */
  aroundTurn<T>(scope: TurnUsageScope, run: () => Promise<T>): Promise<T>;
  summary(options?: UsageSummaryOptions): Promise<UsageSummaryResult>;
  limits(): UsageLimitsResult;
  setLimit(input: SetLimitInput): Promise<UsageLimitsResult>;
  /** One provider embeddings request (memory's provider embedder), tagged `embedding`. */
  recordEmbedding(call: { provider: string; model: string; tokens: number }): void;
}

export async function createUsageService(deps: UsageServiceDeps): Promise<UsageService> {
  const store = new DisposableStore();
  // A bad section is reported once by the config layer; the meter keeps the last good one.
  // Parsed once per config object (a reload makes a new one): the meter reads it on every call.
  let lastGood: UsageConfig = parseUsageConfig(undefined);
  let lastRaw: unknown = Symbol('unread');
  const config = (): UsageConfig => {
    const raw = deps.config();
    if (raw === lastRaw) return lastGood;
    lastRaw = raw;
    try {
      lastGood = parseUsageConfig(raw);
    } catch (error) {
      deps.log.warn('usage config invalid; using the last good one', { error: String(error) });
    }
    return lastGood;
  };
  const meter = store.add(
    await UsageMeter.open({ ledger: new UsageLedger(deps.dir, deps.log), clock: deps.clock, log: deps.log, config }),
  );
  store.add(meter.onDidCrossLimit((event) => deps.onLimit(event)));

  const limits = (): UsageLimitsResult => ({ warnAt: config().warnAt, limits: meter.limits() });

  return {
    meter,
    wrapModel: (model, ref) => meterLanguageModel(model, { provider: ref.provider, model: ref.model }, meter),
    aroundTurn: (scope, run) =>
      withUsageTag({ purpose: turnPurpose(scope), agentId: scope.agentId, sessionKey: scope.sessionKey }, run),
    summary: (options) => summarizeUsage(meter, deps.clock.now(), options),
    limits,
    async setLimit(input) {
      await deps.patchConfig({ usage: { limits: limitPatch(config(), input) } });
      meter.reevaluate();
      return limits();
    },
    recordEmbedding(call) {
      meter.record(
        { provider: call.provider, model: call.model, inputTokens: call.tokens, outputTokens: 0, cachedInputTokens: 0 },
        { ...currentUsageTag(), purpose: 'embedding' },
      );
    },
    dispose() {
      store.dispose();
      void meter.flush();
    },
  };
}

function turnPurpose(scope: TurnUsageScope): UsagePurpose {
  if (scope.runKind === 'heartbeat') return 'heartbeat';
  if (scope.runKind === 'cron') return 'cron';
  if (/^agent:[^:]+:subagent:/.test(scope.sessionKey)) return 'subagent';
  return 'chat';
}

/** The merge patch for `usage.limits` that sets one cap; throws a bad_request naming what is wrong. */
export function limitPatch(config: UsageConfig, input: SetLimitInput): Record<string, unknown> {
  if (input.scope === 'agent' && !input.agentId)
    throw new HearthError('bad_request', 'scope "agent" needs an agentId (the agent whose cap this is)');
  if (input.scope !== 'agent' && input.agentId !== undefined)
    throw new HearthError('bad_request', `agentId is only for scope "agent", not "${input.scope}"`);
  if (input.tokens === undefined && input.costUsd === undefined)
    throw new HearthError('bad_request', 'give tokens or costUsd (a number sets the cap, null removes it)');
  for (const [name, value] of [
    ['tokens', input.tokens],
    ['costUsd', input.costUsd],
  ] as const) {
    if (value !== undefined && value !== null && !(Number.isFinite(value) && value > 0))
      throw new HearthError('bad_request', `${name} must be a positive number (or null to remove it), got ${value}`);
    if (name === 'tokens' && typeof value === 'number' && !Number.isInteger(value))
      throw new HearthError('bad_request', `tokens must be a whole number, got ${value}`);
  }
  const current: PeriodLimits | undefined =
    input.scope === 'global'
      ? config.limits.global
      : input.scope === 'background'
        ? (config.limits.background ?? defaultBackgroundLimits)
        : config.limits.agents[input.agentId!];
  const next = { ...current?.[input.period] };
  if (input.tokens !== undefined) next.tokens = input.tokens ?? undefined;
  if (input.costUsd !== undefined) next.costUsd = input.costUsd ?? undefined;
  const value =
    next.tokens === undefined && next.costUsd === undefined
      ? null
      : { tokens: next.tokens ?? null, costUsd: next.costUsd ?? null };
  const periods: Record<string, unknown> = { [input.period]: value };
  // The default background cap becomes explicit when the person first changes part of it.
  if (input.scope === 'background' && config.limits.background === undefined) {
    for (const [period, limit] of Object.entries(defaultBackgroundLimits))
      if (period !== input.period) periods[period] = limit;
  }
  if (input.scope === 'agent') return { agents: { [input.agentId!]: periods } };
  return { [input.scope]: periods };
}
