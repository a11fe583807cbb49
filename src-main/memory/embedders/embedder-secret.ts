import { EmbedderError } from './embedder.js';

/** Where an embedder's API key lives: the secret store (by shape, so memory does not import secrets). */
export interface EmbedderSecretSource {
  /** e.g. `keychain`, `encrypted-file`; named in the error so the user knows where to look. */
  readonly backend?: string;
  get(name: string): Promise<string | undefined>;
}

/**
 * `resolveSecret` for createEmbedder that insists: a `memory.embedder.apiKeySecret` the store
 * does not hold is an error naming it, instead of a request sent without a key that comes back
 * as an anonymous 401 (or indexes nothing) much later.
 */
export function requireEmbedderSecret(store: EmbedderSecretSource): (name: string) => Promise<string> {
  return async (name) => {
    const value = await store.get(name);
    if (value) return value;
    const profile = /^auth-profile:(.+)$/.exec(name)?.[1];
    const how = profile ? `; store the key with: hearth auth set ${profile} --provider <provider> (key on stdin)` : '';
    throw new EmbedderError(
      `memory.embedder.apiKeySecret is "${name}", but the secret store${store.backend ? ` (${store.backend})` : ''} has no such entry${how}`,
    );
  };
}
