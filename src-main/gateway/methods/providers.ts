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
  setupFieldProblem,
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
        resourceName: params.resourceName,
        deployment: params.deployment,
        apiVersion: params.apiVersion,
        region: params.region,
        ...(params.accessKeyId || params.secretAccessKey ? { aws: awsPair(params) } : {}),
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
      // Azure and Bedrock are refused here as Test connection refuses them, naming the field.
      const bedrock = params.kind === 'bedrock';
      const wrong = setupFieldProblem({
        ...params,
        // Azure's deployment is the model the chain names; Save needs no separate field for it.
        deployment: params.deployment ?? (params.kind === 'azure' ? modelOf(params.primary) : undefined),
        ...(bedrock ? { aws: awsPair(params) } : {}),
      });
      if (wrong) throw invalidRequest(wrong.message, { field: wrong.field });
      const entry: Record<string, unknown> = { kind: params.kind };
      if (params.baseURL) entry.baseURL = params.baseURL.replace(/\/+$/, '');
      if (params.kind === 'azure') {
        if (params.resourceName && !params.baseURL) entry.resourceName = params.resourceName.trim();
        if (params.apiVersion) entry.apiVersion = params.apiVersion.trim();
      }
      if (bedrock) entry.region = params.region?.trim();
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
      // Bedrock's key pair is kept as one JSON secret, which the Bedrock adapter signs with.
      const secret = bedrock ? JSON.stringify(awsPair(params)) : params.apiKey?.trim();
      let profileId: string | undefined;
      if (secret) {
        profileId = `${params.id}:default`;
        await deps.auth.set({ id: profileId, provider: params.id, type: 'api_key', secret });
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

/** The AWS key pair from the form's fields, trimmed (a pasted key often carries a space or newline). */
function awsPair(params: { accessKeyId?: string; secretAccessKey?: string; sessionToken?: string }): {
  accessKeyId: string;
  secretAccessKey: string;
  sessionToken?: string;
} {
  return {
    accessKeyId: params.accessKeyId?.trim() ?? '',
    secretAccessKey: params.secretAccessKey?.trim() ?? '',
    ...(params.sessionToken?.trim() ? { sessionToken: params.sessionToken.trim() } : {}),
  };
}

const modelOf = (ref: string) => ref.slice(ref.indexOf('/') + 1);
