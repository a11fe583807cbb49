import { createStore, type StoreApi } from 'zustand/vanilla';
import type { RequestParams } from '../../src-main/protocol/client/request-options.js';
import type { AuthProbeRow, AuthProfileRow } from '../../src-main/protocol/methods/auth-profiles.js';
import { disposeAll, errorText, type GatewayPort } from './gateway-port.js';

export interface AuthProfile {
  id: string;
  provider: string;
  label: string;
  /**
   * `ready` only for a key seen to work; `unverified` has never been checked or used, `rejected`
   * and `down` are what the newest probe found (the provider refused the key / did not answer).
   */
  status: 'ready' | 'cooldown' | 'disabled' | 'unverified' | 'rejected' | 'down';
  verified: boolean;
  lastProbe?: AuthProbeRow;
  /** Clock time the cooldown ends (the wire sends the time remaining). */
  cooldownUntil?: number;
  reason?: string;
  fix?: string;
  lastUsedAt?: number;
  failureCount: number;
  fromConfig: boolean;
}

/** A profile's secret as the gateway keeps it, and the `providers.<id>` merge patch it goes with. */
export interface ProfileCredential {
  secret: string;
  providerEntry?: Record<string, unknown>;
}

export interface AuthState {
  profiles: AuthProfile[];
  loading: boolean;
  error?: string;
  /** Where the gateway keeps secrets: 'keychain', 'encrypted-file', 'electron-safe-storage'. */
  secretBackend?: string;
  /** Set when secrets are not in the OS keychain (the gateway says why, in English). */
  secretWarning?: string;
  /** The detail of why the keychain is not used, worded around in the person's language. */
  secretFallbackReason?: string;
  refresh(): Promise<void>;
  /**
   * Adds a profile, or replaces the secret of the one with `id` (default: made from provider and name).
   * `apiKey` is a single key; `credential` is a secret the gateway keeps in another shape (Bedrock's
   * key pair as JSON) with the provider settings it works with, written to hearth.json first.
   */
  add(input: {
    provider: string;
    label: string;
    id?: string;
    apiKey?: string;
    credential?: ProfileCredential;
  }): Promise<boolean>;
  remove(id: string): Promise<void>;
  /** Probes keys (one, or all): the server answers from its last probe within the cooldown unless forced. */
  probe(id?: string, force?: boolean): Promise<void>;
  /** Profiles being probed right now (for "Checking…"). */
  probing: string[];
  /** First run: is a local Ollama reachable, and with which models? */
  ollama?: { running: boolean; models: string[] };
  detectOllama(): Promise<void>;
  /** The model chain turns use: primary, then fallbacks in order (agents.defaults.model). */
  primary?: string;
  fallbacks: string[];
  loadModelChain(): Promise<void>;
  /** Saves fallbacks (provider/model, in order) through config.patch; validated by the gateway. */
  saveFallbacks(fallbacks: string[]): Promise<boolean>;
  /** Saves the order profiles of one provider are tried in (auth.order.<provider>). */
  saveOrder(provider: string, profileIds: string[]): Promise<boolean>;
}

/** What to do about a profile that cannot be used, by status. */
const fixes: Record<string, string> = {
  disabled: 'Add the profile again with a new key (same provider and name) to replace it.',
  expired: 'The token has expired: add it again with a fresh one.',
  missing_secret: 'The key is missing from the keychain: add the profile again with its key.',
};

/** The runtime records why a call failed as a failover reason code (providers/failover-error.ts). */
const reasonWords: Record<string, string> = {
  rate_limit: 'Rate limited by the provider (HTTP 429).',
  overloaded: 'The provider is overloaded.',
  billing: 'Billing problem: out of credit or quota.',
  auth: 'The provider rejected the key.',
  auth_permanent: 'The provider rejected the key for good.',
  timeout: 'The provider did not answer in time.',
  format: 'The provider refused the request.',
  model_not_found: 'The model is not available with this key.',
  session_expired: 'The login session expired.',
  context_overflow: 'The conversation was too long for the model.',
  server_error: 'The provider had a server error.',
  empty_response: 'The provider sent an empty answer.',
  unknown: 'The last call failed for an unknown reason.',
};

const defaultReasons: Record<string, string> = {
  expired: 'The credential has expired.',
  missing_secret: 'The secret is not in the keychain.',
};

/** Which state the newest probe puts a usable-looking key in when it has not worked since. */
function probedStatus(probe: AuthProbeRow | undefined): AuthProfile['status'] {
  if (!probe || probe.ok) return 'unverified';
  if (probe.problem === 'auth') return 'rejected';
  if (probe.problem === 'down' || probe.problem === 'timeout') return 'down';
  return 'unverified';
}

export function toAuthProfile(row: AuthProfileRow, now: number): AuthProfile {
  const verified = row.verified === true;
  const base = row.status === 'ok' ? 'ready' : row.status === 'cooldown' ? 'cooldown' : 'disabled';
  // A key that has never worked is never "Ready", however clean its stats are.
  const status = base === 'ready' && !verified ? probedStatus(row.lastProbe) : base;
  const probeReason = status === 'rejected' || status === 'down' ? row.lastProbe?.message : undefined;
  const rawReason = probeReason || row.disabledReason || row.lastErrorReason || '';
  const failureCount = Object.values(row.failureCounts).reduce((sum, count) => sum + count, 0);
  return {
    id: row.id,
    provider: row.provider,
    label: row.label || row.id,
    status,
    cooldownUntil: status === 'cooldown' ? now + row.cooldownRemainingMs : undefined,
    reason: reasonWords[rawReason] ?? (rawReason || defaultReasons[row.status] || undefined),
    fix: status === 'disabled' ? fixes[row.status] : undefined,
    lastUsedAt: row.lastUsed,
    failureCount,
    fromConfig: row.fromConfig,
    verified,
    ...(row.lastProbe ? { lastProbe: row.lastProbe } : {}),
  };
}

/** A profile id from provider and name: `openai:work`. */
export function profileId(provider: string, label: string): string {
  const slug = label
    .trim()
    .toLowerCase()
    .replace(/[^a-z0-9_-]+/g, '-')
    .replace(/^-+|-+$/g, '');
  return `${provider}:${slug || 'default'}`.slice(0, 64);
}

export function createAuthStore(client: GatewayPort, now: () => number): StoreApi<AuthState> & { dispose(): void } {
  const store = createStore<AuthState>((set, get) => ({
    profiles: [],
    loading: false,
    fallbacks: [],
    probing: [],
    async probe(id, force) {
      const ids = id ? [id] : get().profiles.map((p) => p.id);
      if (ids.length === 0) return;
      set((state) => ({ probing: [...new Set([...state.probing, ...ids])] }));
      try {
        const params: RequestParams<'auth.profiles.probe'> = {};
        if (id) params.id = id;
        if (force) params.force = true;
        const result = await client.request('auth.profiles.probe', params);
        const at = now();
        const fresh = new Map(result.profiles.map((row) => [row.id, toAuthProfile(row, at)]));
        set((state) => ({ profiles: state.profiles.map((p) => fresh.get(p.id) ?? p), error: undefined }));
      } catch (error) {
        set({ error: errorText(error) });
      } finally {
        set((state) => ({ probing: state.probing.filter((p) => !ids.includes(p)) }));
      }
    },
    async loadModelChain() {
      try {
        const result = await client.request('models.list', {});
        set({ primary: result.primary || undefined, fallbacks: result.fallbacks.filter(Boolean) });
      } catch (error) {
        set({ error: errorText(error) });
      }
    },
    async saveFallbacks(fallbacks) {
      const primary = get().primary;
      if (!primary) {
        set({ error: 'Choose a primary model first (Chat → model picker).' });
        return false;
      }
      try {
        await client.request('config.patch', { patch: { agents: { defaults: { model: { primary, fallbacks } } } } });
        set({ fallbacks, error: undefined });
        return true;
      } catch (error) {
        set({ error: errorText(error) });
        return false;
      }
    },
    async saveOrder(provider, profileIds) {
      try {
        await client.request('config.patch', { patch: { auth: { order: { [provider]: profileIds } } } });
        set({ error: undefined });
        await get().refresh();
        return true;
      } catch (error) {
        set({ error: errorText(error) });
        return false;
      }
    },
    async refresh() {
      set({ loading: true });
      try {
        const result = await client.request('auth.profiles.list', {});
        const at = now();
        set({
          profiles: result.profiles.map((profile) => toAuthProfile(profile, at)),
          secretBackend: result.secretBackend,
          secretWarning: result.secretWarning || undefined,
          secretFallbackReason: result.secretFallbackReason || undefined,
          loading: false,
          error: undefined,
        });
      } catch (error) {
        set({ loading: false, error: errorText(error) });
      }
    },
    async add(input) {
      if (!input.provider.trim()) {
        set({ error: 'Choose a provider for the new profile.' });
        return false;
      }
      const secret = input.credential ? input.credential.secret : input.apiKey?.trim();
      if (!secret) {
        set({ error: 'The API key is empty.' });
        return false;
      }
      const params: RequestParams<'auth.profiles.set'> = {
        id: input.id ?? profileId(input.provider, input.label),
        provider: input.provider,
        type: 'api_key',
        secret,
      };
      if (input.label.trim()) params.label = input.label.trim();
      try {
        // The settings first: a provider only hearth.json names must exist before a profile can be its.
        const entry = input.credential?.providerEntry;
        if (entry) await client.request('config.patch', { patch: { providers: { [input.provider]: entry } } });
        await client.request('auth.profiles.set', params);
        set({ error: undefined });
        await get().refresh();
        return true;
      } catch (error) {
        set({ error: errorText(error) });
        return false;
      }
    },
    async remove(id) {
      try {
        await client.request('auth.profiles.remove', { id });
        await get().refresh();
      } catch (error) {
        set({ error: errorText(error) });
      }
    },
    async detectOllama() {
      // Ollama needs no key: its models are listed as available when the local server answers.
      try {
        const result = await client.request('models.list', { provider: 'ollama' });
        const local = result.local?.ollama;
        if (local) {
          // The gateway asked the local Ollama server itself.
          set({ ollama: { running: local.available, models: local.models } });
          return;
        }
        const models = result.models.filter((model) => model.available);
        set({ ollama: { running: models.length > 0, models: models.map((model) => model.name || model.id) } });
      } catch (error) {
        set({ ollama: { running: false, models: [] }, error: errorText(error) });
      }
    },
  }));
  const subscriptions = [
    client.onDidConnect(() => void store.getState().refresh()),
    client.on('auth.profiles.changed', () => void store.getState().refresh()),
    // The model chain is hearth.json's: follow a save or a hand edit without a reload.
    client.on('config.changed', () => void store.getState().loadModelChain()),
  ];
  return Object.assign(store, { dispose: () => disposeAll(subscriptions) });
}
