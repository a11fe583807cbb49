import { listProviderModels } from './provider-models.js';

/** A model server people run on their own machine, found by asking its default port. */
export interface LocalServerHost {
  /** The provider id onboarding proposes (`ollama`, `lmstudio`). */
  id: string;
  name: string;
  kind: 'ollama' | 'openai-compatible';
  /** The baseURL the provider entry gets (Ollama's ends in /api, LM Studio's in /v1). */
  baseURL: string;
}

export interface LocalServerFound extends LocalServerHost {
  available: boolean;
  models: string[];
  /** Why it was not found (connection refused, timeout…). */
  reason?: string;
}

/** Their documented default ports: Ollama 11434, LM Studio's local server 1234. */
export const defaultLocalServerHosts: readonly LocalServerHost[] = [
  { id: 'ollama', name: 'Ollama', kind: 'ollama', baseURL: 'http://127.0.0.1:11434/api' },
  { id: 'lmstudio', name: 'LM Studio', kind: 'openai-compatible', baseURL: 'http://127.0.0.1:1234/v1' },
];

/**
 * Asks every host at once with a short timeout: a server that is not running must cost the
 * onboarding screen a fraction of a second, not the whole fetch timeout.
 */
export async function detectLocalServers(input: {
  hosts: readonly LocalServerHost[];
  fetch: typeof globalThis.fetch;
  timeoutMs?: number;
}): Promise<LocalServerFound[]> {
  return Promise.all(
    input.hosts.map(async (host): Promise<LocalServerFound> => {
      const listing = await listProviderModels({
        kind: host.kind,
        baseURL: host.baseURL,
        fetch: input.fetch,
        timeoutMs: input.timeoutMs ?? 700,
      });
      return listing.ok
        ? { ...host, available: true, models: listing.models }
        : { ...host, available: false, models: [], reason: listing.message };
    }),
  );
}

/**
 * The hosts to ask on this machine: the defaults, moved by Ollama's own `OLLAMA_HOST` and by
 * `HEARTH_LMSTUDIO_URL` for an LM Studio served elsewhere (also how tests point at a fake).
 */
export function localServerHostsFrom(env: Record<string, string | undefined>): LocalServerHost[] {
  return defaultLocalServerHosts.map((host) => {
    if (host.id === 'ollama' && env.OLLAMA_HOST) {
      const root = /^https?:\/\//.test(env.OLLAMA_HOST) ? env.OLLAMA_HOST : `http://${env.OLLAMA_HOST}`;
      return { ...host, baseURL: `${root.replace(/\/+$/, '').replace(/\/api$/, '')}/api` };
    }
    if (host.id === 'lmstudio' && env.HEARTH_LMSTUDIO_URL) return { ...host, baseURL: env.HEARTH_LMSTUDIO_URL };
    return { ...host };
  });
}
