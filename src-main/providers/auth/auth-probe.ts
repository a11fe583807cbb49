import type { Clock } from '../../base/clock.js';
import type { ModelFactory } from '../model-factory.js';
import { listProviderModels } from '../provider-models.js';
import type { AuthProbeRecord } from './auth-profile.js';
import type { AuthProfileManager } from './auth-profile-manager.js';

/**
 * Checks that a saved key really works with one cheap real request (the provider's model list),
 * so the health view can say "works" or "refused" before a turn finds out. Probing costs the
 * person nothing but is still a request to their provider: within `cooldownMs` of the last probe
 * the stored answer is returned unless they ask again.
 */
export interface AuthProberDeps {
  auth: Pick<AuthProfileManager, 'get' | 'stats' | 'credential' | 'recordProbe'>;
  models: Pick<ModelFactory, 'provider'>;
  fetch: typeof globalThis.fetch;
  clock: Clock;
  /** Default 10 minutes. */
  cooldownMs?: number;
  timeoutMs?: number;
}

export interface AuthProbeOutcome {
  id: string;
  probe: AuthProbeRecord;
  /** True when the stored answer was returned because the last probe is recent. */
  fromCooldown: boolean;
}

export interface AuthProber {
  probe(id: string, options?: { force?: boolean }): Promise<AuthProbeOutcome>;
}

export const defaultProbeCooldownMs = 10 * 60_000;

export function createAuthProber(deps: AuthProberDeps): AuthProber {
  const cooldownMs = deps.cooldownMs ?? defaultProbeCooldownMs;
  // Two views opening at once share one request rather than probing twice.
  const inFlight = new Map<string, Promise<AuthProbeOutcome>>();

  async function run(id: string): Promise<AuthProbeOutcome> {
    const profile = deps.auth.get(id);
    if (!profile) throw new Error(`no auth profile "${id}"`);
    const record = async (probe: Omit<AuthProbeRecord, 'at'>): Promise<AuthProbeOutcome> => {
      const done = { ...probe, at: deps.clock.now() };
      await deps.auth.recordProbe(id, done);
      return { id, probe: done, fromCooldown: false };
    };
    let provider: ReturnType<ModelFactory['provider']>;
    try {
      provider = deps.models.provider(profile.provider);
    } catch (error) {
      return record({ ok: false, problem: 'bad_input', message: (error as Error).message });
    }
    let apiKey: string;
    try {
      apiKey = (await deps.auth.credential(profile)).value;
    } catch (error) {
      return record({ ok: false, problem: 'auth', message: (error as Error).message });
    }
    const listing = await listProviderModels({
      kind: provider.service.kind,
      baseURL: provider.entry?.baseURL,
      headers: provider.entry?.headers,
      resourceName: provider.entry?.resourceName,
      apiVersion: provider.entry?.apiVersion,
      region: provider.entry?.region,
      keyOnly: true,
      apiKey,
      fetch: deps.fetch,
      timeoutMs: deps.timeoutMs,
    });
    if (listing.ok) return record({ ok: true, models: listing.models.length });
    return record({
      ok: false,
      problem: listing.problem,
      message: listing.message,
      ...(listing.status !== undefined ? { status: listing.status } : {}),
    });
  }

  return {
    probe(id, options = {}) {
      const last = deps.auth.stats(id)?.lastProbe;
      if (!options.force && last && deps.clock.now() - last.at < cooldownMs) {
        return Promise.resolve({ id, probe: { ...last }, fromCooldown: true });
      }
      const running = inFlight.get(id);
      if (running) return running;
      const job = run(id).finally(() => inFlight.delete(id));
      inFlight.set(id, job);
      return job;
    },
  };
}
