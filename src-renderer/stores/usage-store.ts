import { createStore, type StoreApi } from 'zustand/vanilla';
import type { RequestParams } from '../../src-main/protocol/client/request-options.js';
import type {
  UsageLimitPeriod,
  UsageLimitScope,
  UsageLimitsResult,
  UsageSummaryResult,
} from '../../src-main/protocol/methods/usage.js';
import { disposeAll, errorText, type GatewayPort } from './gateway-port.js';

export type UsageMetric = 'cost' | 'tokens';

/** One cap as the form sends it; a value left empty means no cap of that kind. */
export interface LimitInput {
  scope: UsageLimitScope;
  agentId?: string;
  period: UsageLimitPeriod;
  tokens?: number;
  costUsd?: number;
}

export interface UsageState {
  summary?: UsageSummaryResult;
  limits?: UsageLimitsResult;
  metric: UsageMetric;
  saving: boolean;
  error?: string;
  setMetric(metric: UsageMetric): void;
  refresh(): Promise<void>;
  /** Resolves true once the gateway took the cap (and every cap is re-read). */
  setLimit(input: LimitInput): Promise<boolean>;
  removeLimit(limit: { scope: UsageLimitScope; agentId?: string; period: UsageLimitPeriod }): Promise<boolean>;
}

const DAYS = 30;

export function createUsageStore(client: GatewayPort): StoreApi<UsageState> & { dispose(): void } {
  const store = createStore<UsageState>((set, get) => {
    const write = async (params: RequestParams<'usage.limits.set'>) => {
      set({ saving: true });
      try {
        const limits = await client.request('usage.limits.set', params);
        set({ limits, saving: false, error: undefined });
        await get().refresh();
        return true;
      } catch (error) {
        set({ saving: false, error: errorText(error) });
        return false;
      }
    };
    return {
      metric: 'cost',
      saving: false,
      setMetric: (metric) => set({ metric }),
      async refresh() {
        const [summary, limits] = await Promise.allSettled([
          client.request('usage.summary', { days: DAYS, topSessions: 10 }),
          client.request('usage.limits.get', {}),
        ]);
        set({
          summary: summary.status === 'fulfilled' ? summary.value : get().summary,
          limits: limits.status === 'fulfilled' ? limits.value : get().limits,
          error: summary.status === 'rejected' ? errorText(summary.reason) : undefined,
        });
      },
      setLimit: (input) =>
        write({
          scope: input.scope,
          period: input.period,
          ...(input.scope === 'agent' && input.agentId ? { agentId: input.agentId } : {}),
          tokens: input.tokens ?? null,
          costUsd: input.costUsd ?? null,
        }),
      removeLimit: (limit) =>
        write({
          scope: limit.scope,
          period: limit.period,
          ...(limit.agentId ? { agentId: limit.agentId } : {}),
          tokens: null,
          costUsd: null,
        }),
    };
  });
  const subscriptions = [
    client.onDidConnect(() => void store.getState().refresh()),
    client.on('usage.limit', () => void store.getState().refresh()),
  ];
  return Object.assign(store, { dispose: () => disposeAll(subscriptions) });
}
