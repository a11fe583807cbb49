import type { Disposable } from '../../base/index.js';
import { DisposableStore } from '../../base/index.js';
import type { ConfigService } from '../../config/index.js';
import { ConfigValidationError } from '../../config/index.js';
import { GatewayError, invalidRequest } from '../../protocol/index.js';
import {
  type AuthProfileManager,
  detectLocalServers,
  type LocalServerHost,
  listProviderModels,
} from '../../providers/index.js';
import type { EventBus } from '../event-bus.js';
import type { MethodRouter } from '../method-router.js';

export interface ProvidersMethodsDeps {
  config: Pick<ConfigService<unknown>, 'patch'>;
  auth: Pick<AuthProfileManager, 'get' | 'credential' | 'set'>;
  /** Passed in so tests point onboarding at a loopback server rather than the internet. */
  fetch: typeof globalThis.fetch;
  /** Where to look for local model servers (defaultLocalServerHosts in the app). */
  localHosts: readonly LocalServerHost[];
  /** Default 8 s for a Test connection; detection uses its own short one. */
  timeoutMs?: number;
  bus?: EventBus;
}

/** providers.*: set up a model provider from the app, with a real request before anything is saved. */
export function registerProvidersMethods(router: MethodRouter, deps: ProvidersMethodsDeps): Disposable {
  const store = new DisposableStore();

  store.add(
    router.handle('providers.test', async (params) => {
      let apiKey = params.apiKey?.trim();
      if (!apiKey && params.profileId) {
        const profile = deps.auth.get(params.profileId);
        if (!profile) throw invalidRequest(`no auth profile "${params.profileId}"`, { profileId: params.profileId });
        apiKey = (await deps.auth.credential(profile)).value;
      }
      return listProviderModels({
        kind: params.kind,
        baseURL: params.baseURL,
        apiKey,
        fetch: deps.fetch,
        timeoutMs: deps.timeoutMs,
      });
    }),
  );

  store.add(
    router.handle('providers.detect', async () => ({
      local: await detectLocalServers({ hosts: deps.localHosts, fetch: deps.fetch }),
    })),
  );

  store.add(
    router.handle('providers.save', async (params) => {
      if (params.kind === 'openai-compatible' && !params.baseURL) {
        throw invalidRequest('an OpenAI-compatible provider needs its base URL (e.g. http://127.0.0.1:1234/v1)', {
          field: 'baseURL',
        });
      }
      const entry: Record<string, unknown> = { kind: params.kind };
      if (params.baseURL) entry.baseURL = params.baseURL.replace(/\/+$/, '');
      try {
        await deps.config.patch({
          providers: { [params.id]: entry },
          agents: { defaults: { model: { primary: params.primary, fallbacks: params.fallbacks } } },
        });
      } catch (error) {
        if (error instanceof ConfigValidationError) {
          throw new GatewayError('INVALID_REQUEST', error.message, { reason: 'invalid-config', errors: error.errors });
        }
        throw error;
      }
      // The key goes to the secret store (never hearth.json), after the provider exists to own it.
      let profileId: string | undefined;
      if (params.apiKey) {
        profileId = `${params.id}:default`;
        await deps.auth.set({ id: profileId, provider: params.id, type: 'api_key', secret: params.apiKey.trim() });
        deps.bus?.publish('auth.profiles.changed', { id: profileId });
      }
      return {
        providerId: params.id,
        ...(profileId ? { profileId } : {}),
        primary: params.primary,
        fallbacks: params.fallbacks,
      };
    }),
  );
  return store;
}
