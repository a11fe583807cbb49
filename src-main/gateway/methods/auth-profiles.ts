import { type Disposable, DisposableStore } from '../../base/index.js';
import { invalidRequest } from '../../protocol/index.js';
import type { AuthProfileRow } from '../../protocol/methods/auth-profiles.js';
import {
  type AuthProber,
  AuthProfileError,
  type AuthProfileHealth,
  type AuthProfileManager,
} from '../../providers/index.js';
import type { SecretStore } from '../../secrets/index.js';
import type { EventBus } from '../event-bus.js';
import type { MethodRouter } from '../method-router.js';

export interface AuthProfilesMethodsDeps {
  auth: AuthProfileManager;
  /** For the backend name and the fallback warning shown in the UI. */
  secrets: Pick<SecretStore, 'backend' | 'warning' | 'fallbackReason'>;
  bus?: EventBus;
  /** Refuses profiles for providers nothing can serve (typos); e.g. `(id) => models.provider(id)` not throwing. */
  isKnownProvider?(providerId: string): boolean;
  /** Answers auth.profiles.probe; without it the method says probing is not set up. */
  prober?: AuthProber;
}

const toRow = (health: AuthProfileHealth): AuthProfileRow => ({
  ...health,
  failureCounts: { ...health.failureCounts },
});

async function wire<T>(job: () => Promise<T>): Promise<T> {
  try {
    return await job();
  } catch (error) {
    if (error instanceof AuthProfileError) throw invalidRequest(error.message, { profileId: error.profileId });
    throw error;
  }
}

/** auth.profiles.*: health for the UI and credential management. No response ever carries a secret. */
export function registerAuthProfilesMethods(router: MethodRouter, deps: AuthProfilesMethodsDeps): Disposable {
  const store = new DisposableStore();
  const changed = (id: string) => deps.bus?.publish('auth.profiles.changed', { id });

  store.add(
    router.handle('auth.profiles.list', async (params) => {
      const profiles = (await deps.auth.health()).filter((p) => !params.provider || p.provider === params.provider);
      return {
        profiles: profiles.map(toRow),
        secretBackend: deps.secrets.backend,
        ...(deps.secrets.warning ? { secretWarning: deps.secrets.warning } : {}),
        ...(deps.secrets.fallbackReason ? { secretFallbackReason: deps.secrets.fallbackReason } : {}),
      };
    }),
  );

  store.add(
    router.handle('auth.profiles.set', (params) =>
      wire(async () => {
        if (deps.isKnownProvider && !deps.isKnownProvider(params.provider)) {
          throw invalidRequest(`unknown provider "${params.provider}": configure it under "providers" first`);
        }
        const profile = await deps.auth.set(params);
        const health = (await deps.auth.health()).find((h) => h.id === profile.id);
        changed(profile.id);
        return { profile: toRow(health as AuthProfileHealth) };
      }),
    ),
  );

  store.add(
    router.handle('auth.profiles.probe', async (params) => {
      const prober = deps.prober;
      if (!prober) throw invalidRequest('auth profile probing is not available in this gateway');
      const all = await deps.auth.health();
      if (params.id && !all.some((p) => p.id === params.id)) {
        throw invalidRequest(`no auth profile "${params.id}"`, { profileId: params.id });
      }
      // A profile without its secret cannot be probed; its row already says why.
      const targets = all.filter((p) => (!params.id || p.id === params.id) && p.status !== 'missing_secret');
      const fresh = await Promise.all(targets.map((p) => prober.probe(p.id, { force: params.force })));
      const probed = fresh.filter((outcome) => !outcome.fromCooldown).map((outcome) => outcome.id);
      if (probed.length > 0) deps.bus?.publish('auth.profiles.changed', { reason: 'probed', ids: probed });
      const rows = (await deps.auth.health()).filter((p) => !params.id || p.id === params.id);
      return { profiles: rows.map(toRow) };
    }),
  );

  store.add(
    router.handle('auth.profiles.remove', (params) =>
      wire(async () => {
        const removed = await deps.auth.remove(params.id);
        if (removed) changed(params.id);
        return { ok: true as const, removed };
      }),
    ),
  );
  return store;
}
