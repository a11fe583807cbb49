import { z } from 'zod';
import type { Clock } from '../../base/clock.js';
import type { Disposable } from '../../base/disposable.js';
import type { Logger } from '../../base/logger.js';
import type { SecretStore } from '../../secrets/index.js';
import type { FailoverReason } from '../failover-error.js';
import type { AuthConfig } from '../provider-config.js';
import type { ProviderCredential } from '../provider-registry.js';
import {
  type AuthProbeRecord,
  type AuthProfile,
  AuthProfileError,
  type AuthProfileHealth,
  type AuthProfileStats,
  type AuthProfileType,
  cooldownStepsMs,
  inCooldown,
  isDisabled,
  isExpired,
  type OAuthSecret,
  orderProfiles,
  secretAccount,
} from './auth-profile.js';
import {
  type AuthProfileFileData,
  authProfilesPath,
  createAuthProfileWriter,
  readAuthProfileFile,
} from './auth-profile-file.js';

/** Exchanges a refresh token for a new access token; one per provider that supports OAuth. */
// Typed by the interface it decodes, so a field added to the secret without its schema breaks the build.
const oauthSecretSchema: z.ZodType<OAuthSecret> = z.looseObject({
  access: z.string().min(1),
  refresh: z.string().min(1),
  expires: z.number(),
});

export type OAuthRefresher = (profile: AuthProfile, refreshToken: string) => Promise<OAuthSecret>;

export interface AuthProfileManagerDeps {
  stateDir: string;
  secrets: SecretStore;
  clock: Clock;
  log: Logger;
  config: () => AuthConfig;
  refreshers?: Record<string, OAuthRefresher>;
}

export interface SetAuthProfileInput {
  id: string;
  provider: string;
  type: AuthProfileType;
  label?: string;
  expiresAt?: number;
  /** api_key / token: the secret. oauth: JSON of OAuthSecret. Omitted: keep the stored one. */
  secret?: string;
}

export interface AuthProfileManager {
  /** Profiles of a provider in the order to try them (see orderProfiles). */
  order(provider: string, preferred?: string): AuthProfile[];
  /** Every profile of a provider, usable or not. */
  profilesFor(provider: string): AuthProfile[];
  get(id: string): AuthProfile | undefined;
  /** A profile's usage stats (cooldown, disable, failures), if it has any. */
  stats(id: string): Readonly<AuthProfileStats> | undefined;
  credential(profile: AuthProfile): Promise<ProviderCredential>;
  /** Forces an OAuth refresh (after a 401); false when the profile cannot refresh. */
  refresh(profile: AuthProfile): Promise<boolean>;
  markUsed(id: string): void;
  markSuccess(id: string): Promise<void>;
  /** `retryAfterMs` (from the provider) lengthens the cooldown when it asks for more than the current step. */
  markFailure(id: string, reason: FailoverReason, retryAfterMs?: number): Promise<void>;
  /** Keeps what a probe found (auth/auth-probe.ts); a probe that worked also counts as a success. */
  recordProbe(id: string, probe: AuthProbeRecord): Promise<void>;
  /** When the soonest cooldown among these profiles ends (epoch ms), if any is cooling down. */
  soonestCooldownEnd(profiles: readonly AuthProfile[]): number | undefined;
  health(): Promise<AuthProfileHealth[]>;
  set(input: SetAuthProfileInput): Promise<AuthProfile>;
  remove(id: string): Promise<boolean>;
  /** Writes pending stats and waits for writes in flight; call on shutdown. */
  flush(): Promise<void>;
  /** Drops secrets cached in memory (e.g. after the keychain changed behind our back). */
  forgetCachedSecrets(): void;
}

const lazyWriteMs = 5_000;
const profileIdPattern = /^[A-Za-z0-9][A-Za-z0-9._:-]{0,63}$/;

/** Loads persisted profiles and stats, then answers ordering, credentials and failure bookkeeping. */
export async function createAuthProfileManager(deps: AuthProfileManagerDeps): Promise<AuthProfileManager> {
  const path = authProfilesPath(deps.stateDir);
  const data: AuthProfileFileData = await readAuthProfileFile(path);
  const write = createAuthProfileWriter(path);
  let pending: Promise<void> = Promise.resolve();
  let lazyTimer: Disposable | undefined;
  const persist = () => {
    lazyTimer?.dispose();
    lazyTimer = undefined;
    pending = write(data);
    return pending;
  };
  // Routine successes only move lastUsed/lastSuccess: written within a few seconds, not on every turn's hot path.
  const persistSoon = () => {
    lazyTimer ??= deps.clock.setTimeout(() => {
      lazyTimer = undefined;
      void persist().catch((error) =>
        deps.log.warn('auth profile stats not saved', { error: (error as Error).message }),
      );
    }, lazyWriteMs);
  };
  // Secrets are read once per profile and kept in memory; set/remove/refresh invalidate.
  const secretCache = new Map<string, string>();

  function all(): AuthProfile[] {
    const fromConfig = Object.entries(deps.config().profiles).map(([id, p]) => ({ ...p, id, fromConfig: true }));
    const stored = Object.entries(data.profiles)
      .filter(([id]) => !deps.config().profiles[id])
      .map(([id, p]) => ({ ...p, id, fromConfig: false }));
    return [...fromConfig, ...stored];
  }

  const statsOf = (id: string): AuthProfileStats => {
    data.stats[id] ??= {};
    return data.stats[id];
  };

  async function readSecret(profile: AuthProfile): Promise<string> {
    const cached = secretCache.get(profile.id);
    if (cached) return cached;
    const secret = await deps.secrets.get(secretAccount(profile.id));
    if (secret) secretCache.set(profile.id, secret);
    if (!secret) {
      throw new AuthProfileError(
        `auth profile "${profile.id}" (${profile.provider}) has no secret in the ${deps.secrets.backend} store; set it with "hearth auth set ${profile.id}"`,
        profile.id,
      );
    }
    return secret;
  }

  /**
   * The stored secret of an oauth profile. Errors name the field, never the value: neither
   * JSON.parse's message (it quotes the text) nor the input goes into them, only zod's wording.
   */
  function parseOAuth(profile: AuthProfile, secret: string): OAuthSecret {
    const fail = (why: string) =>
      new AuthProfileError(
        `auth profile "${profile.id}" is oauth but its secret is not {access, refresh, expires} JSON (${why}); it was left as it is`,
        profile.id,
      );
    let value: unknown;
    try {
      value = JSON.parse(secret);
    } catch {
      throw fail('not JSON');
    }
    const parsed = oauthSecretSchema.safeParse(value);
    if (parsed.success) return parsed.data;
    const issue = parsed.error.issues[0];
    throw fail(`${issue?.path.join('.') || 'secret'}: ${issue?.message ?? 'invalid'}`);
  }

  async function refreshOAuth(profile: AuthProfile, current: OAuthSecret): Promise<OAuthSecret | undefined> {
    const refresher = deps.refreshers?.[profile.provider];
    if (!refresher) return undefined;
    const next = await refresher(profile, current.refresh);
    await deps.secrets.set(secretAccount(profile.id), JSON.stringify(next));
    secretCache.set(profile.id, JSON.stringify(next));
    deps.log.info('oauth token refreshed', { profileId: profile.id });
    return next;
  }

  const manager: AuthProfileManager = {
    order(provider, preferred) {
      const explicit = [...(preferred ? [preferred] : []), ...(deps.config().order[provider] ?? [])];
      return orderProfiles(manager.profilesFor(provider), data.stats, deps.clock.now(), explicit);
    },
    profilesFor: (provider) => all().filter((p) => p.provider === provider),
    get: (id) => all().find((p) => p.id === id),
    stats: (id) => data.stats[id],

    async credential(profile) {
      const now = deps.clock.now();
      if (isExpired(profile, now)) {
        throw new AuthProfileError(`auth profile "${profile.id}" token expired; set a new one`, profile.id);
      }
      const secret = await readSecret(profile);
      if (profile.type === 'api_key') return { kind: 'api_key', value: secret };
      if (profile.type === 'token') return { kind: 'bearer', value: secret };
      let oauth = parseOAuth(profile, secret);
      // Refresh a minute early so the token cannot expire mid-request.
      if (oauth.expires <= now + 60_000) oauth = (await refreshOAuth(profile, oauth)) ?? oauth;
      return { kind: 'bearer', value: oauth.access };
    },

    async refresh(profile) {
      if (profile.type !== 'oauth') return false;
      const refreshed = await refreshOAuth(profile, parseOAuth(profile, await readSecret(profile)));
      return refreshed !== undefined;
    },

    markUsed(id) {
      statsOf(id).lastUsed = deps.clock.now();
    },

    async markSuccess(id) {
      const stats = statsOf(id);
      const recovered = (stats.consecutiveFailures ?? 0) > 0 || stats.cooldownUntil !== undefined;
      stats.lastSuccess = deps.clock.now();
      stats.consecutiveFailures = 0;
      delete stats.cooldownUntil;
      delete stats.cooldownReason;
      if (recovered) await persist();
      else persistSoon();
    },

    async markFailure(id, reason, retryAfterMs) {
      const now = deps.clock.now();
      const stats = statsOf(id);
      stats.failureCounts = { ...stats.failureCounts, [reason]: (stats.failureCounts?.[reason] ?? 0) + 1 };
      stats.lastErrorReason = reason;
      if (reason === 'billing') {
        stats.disabledReason = 'billing';
        stats.disabledUntil = now + deps.config().billingDisableMs;
      } else if (reason === 'auth_permanent') {
        // Off until the user acts (auth.profiles.set clears it).
        stats.disabledReason = 'auth_permanent';
        delete stats.disabledUntil;
      } else {
        const step = Math.min(stats.consecutiveFailures ?? 0, cooldownStepsMs.length - 1);
        stats.cooldownUntil = now + Math.max(cooldownStepsMs[step] ?? 300_000, retryAfterMs ?? 0);
        stats.cooldownReason = reason;
        stats.consecutiveFailures = (stats.consecutiveFailures ?? 0) + 1;
      }
      deps.log.warn('auth profile failure', { profileId: id, reason });
      await persist();
    },

    async recordProbe(id, probe) {
      const stats = statsOf(id);
      stats.lastProbe = { ...probe };
      if (probe.ok) stats.lastSuccess = Math.max(stats.lastSuccess ?? 0, probe.at);
      await persist();
    },

    soonestCooldownEnd(profiles) {
      const now = deps.clock.now();
      const ends = profiles
        .map((p) => data.stats[p.id])
        .filter((s) => inCooldown(s, now))
        .map((s) => s?.cooldownUntil as number);
      return ends.length > 0 ? Math.min(...ends) : undefined;
    },

    async health() {
      const now = deps.clock.now();
      const accounts = new Set(await deps.secrets.list());
      return all().map((p): AuthProfileHealth => {
        const stats = data.stats[p.id] ?? {};
        const status = !accounts.has(secretAccount(p.id))
          ? 'missing_secret'
          : isDisabled(stats, now)
            ? 'disabled'
            : isExpired(p, now)
              ? 'expired'
              : inCooldown(stats, now)
                ? 'cooldown'
                : 'ok';
        return {
          id: p.id,
          provider: p.provider,
          type: p.type,
          label: p.label,
          fromConfig: p.fromConfig === true,
          status,
          cooldownRemainingMs: inCooldown(stats, now) ? (stats.cooldownUntil as number) - now : 0,
          disabledUntil: isDisabled(stats, now) ? stats.disabledUntil : undefined,
          disabledReason: isDisabled(stats, now) ? stats.disabledReason : undefined,
          lastUsed: stats.lastUsed,
          lastSuccess: stats.lastSuccess,
          lastErrorReason: stats.lastErrorReason,
          failureCounts: stats.failureCounts ?? {},
          expiresAt: p.expiresAt,
          ...(stats.lastProbe ? { lastProbe: { ...stats.lastProbe } } : {}),
          // A refused newest probe outweighs an older success: the key may have been revoked since.
          verified: stats.lastProbe
            ? stats.lastProbe.ok || (stats.lastSuccess ?? 0) > stats.lastProbe.at
            : stats.lastSuccess !== undefined,
        };
      });
    },

    async set(input) {
      if (!profileIdPattern.test(input.id)) {
        throw new AuthProfileError(`invalid auth profile id "${input.id}": use letters, digits, . _ : - (max 64)`);
      }
      const existing = manager.get(input.id);
      if (existing?.fromConfig && (existing.provider !== input.provider || existing.type !== input.type)) {
        throw new AuthProfileError(`auth profile "${input.id}" is declared in hearth.json; change it there`, input.id);
      }
      if (input.secret !== undefined) {
        if (input.secret.trim() === '')
          throw new AuthProfileError(`auth profile "${input.id}": secret is empty`, input.id);
        if (input.type === 'oauth') parseOAuth({ ...input }, input.secret);
        await deps.secrets.set(secretAccount(input.id), input.secret);
        secretCache.set(input.id, input.secret);
      } else if (!(await deps.secrets.get(secretAccount(input.id)))) {
        throw new AuthProfileError(`auth profile "${input.id}" needs a secret (none is stored yet)`, input.id);
      }
      if (!existing?.fromConfig) {
        data.profiles[input.id] = {
          provider: input.provider,
          type: input.type,
          label: input.label,
          expiresAt: input.expiresAt,
        };
      }
      // The user acted: lift cooldowns and disables, including auth_permanent.
      data.stats[input.id] = { lastUsed: data.stats[input.id]?.lastUsed };
      await persist();
      return manager.get(input.id) as AuthProfile;
    },

    async remove(id) {
      const existing = manager.get(id);
      if (!existing) return false;
      if (existing.fromConfig) {
        throw new AuthProfileError(`auth profile "${id}" is declared in hearth.json; remove it there`, id);
      }
      delete data.profiles[id];
      delete data.stats[id];
      secretCache.delete(id);
      await deps.secrets.delete(secretAccount(id));
      await persist();
      return true;
    },

    async flush() {
      if (lazyTimer) await persist().catch(() => {});
      await pending.catch(() => {});
    },

    forgetCachedSecrets() {
      secretCache.clear();
    },
  };
  return manager;
}
