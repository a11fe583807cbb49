import type { FailoverReason } from '../failover-error.js';
import type { ModelListingProblem } from '../provider-models.js';

export type AuthProfileType = 'api_key' | 'token' | 'oauth';

/** A credential's metadata; the secret itself lives in the SecretStore under `secretAccount(id)`. */
export interface AuthProfile {
  id: string;
  provider: string;
  type: AuthProfileType;
  label?: string;
  /** Epoch ms; `token` profiles are unusable after it. */
  expiresAt?: number;
  /** Declared in hearth.json (read-only through auth.profiles.remove) rather than added at run time. */
  fromConfig?: boolean;
}

/** Usage stats that survive restarts so a key known to be out of credit is not hammered. */
export interface AuthProfileStats {
  lastUsed?: number;
  lastSuccess?: number;
  cooldownUntil?: number;
  cooldownReason?: FailoverReason;
  /** With `disabledReason` set and no `disabledUntil`, the profile stays off until the user acts. */
  disabledUntil?: number;
  disabledReason?: FailoverReason;
  /** Failures since the last success; picks the next cooldown step. */
  consecutiveFailures?: number;
  failureCounts?: Partial<Record<FailoverReason, number>>;
  lastErrorReason?: FailoverReason;
  /** The last probe (a model-list request made to check the key, not a turn). */
  lastProbe?: AuthProbeRecord;
}

/** What one probe found; kept with the stats so the health view survives a restart. */
export interface AuthProbeRecord {
  /** Epoch ms the probe finished. */
  at: number;
  ok: boolean;
  problem?: ModelListingProblem;
  /** The HTTP status the provider answered, when it answered. */
  status?: number;
  message?: string;
  /** How many models the provider listed (ok probes). */
  models?: number;
}

/** Secret of an `oauth` profile, stored as JSON. */
export interface OAuthSecret {
  access: string;
  refresh: string;
  /** Epoch ms. */
  expires: number;
}

export type AuthProfileStatus = 'ok' | 'cooldown' | 'disabled' | 'expired' | 'missing_secret';

/** What `auth.profiles.list` shows: health, never the secret. */
export interface AuthProfileHealth {
  id: string;
  provider: string;
  type: AuthProfileType;
  label?: string;
  fromConfig: boolean;
  status: AuthProfileStatus;
  cooldownRemainingMs: number;
  disabledUntil?: number;
  disabledReason?: FailoverReason;
  lastUsed?: number;
  /** Epoch ms of the last call that worked (a turn). */
  lastSuccess?: number;
  lastErrorReason?: FailoverReason;
  failureCounts: Partial<Record<FailoverReason, number>>;
  expiresAt?: number;
  lastProbe?: AuthProbeRecord;
  /**
   * The key has been seen to work: a turn succeeded or the newest probe was answered. A key that
   * never worked is not shown as ready, however healthy its stats look.
   */
  verified: boolean;
}

export const secretAccount = (profileId: string): string => `auth-profile:${profileId}`;

/** Escalating cooldowns for transient failures: 30 s → 1 min → 5 min (ARCHITECTURE.md constants). */
export const cooldownStepsMs = [30_000, 60_000, 300_000] as const;

export class AuthProfileError extends Error {
  constructor(
    message: string,
    readonly profileId?: string,
  ) {
    super(message);
    this.name = 'AuthProfileError';
  }
}

const typeRank: Record<AuthProfileType, number> = { oauth: 0, token: 1, api_key: 2 };

export function isDisabled(stats: AuthProfileStats | undefined, now: number): boolean {
  if (!stats?.disabledReason) return false;
  return stats.disabledUntil === undefined || stats.disabledUntil > now;
}

export function inCooldown(stats: AuthProfileStats | undefined, now: number): boolean {
  return stats?.cooldownUntil !== undefined && stats.cooldownUntil > now;
}

export function isExpired(profile: AuthProfile, now: number): boolean {
  return profile.type === 'token' && profile.expiresAt !== undefined && profile.expiresAt <= now;
}

/**
 * The order to try a provider's profiles: explicit order first, then oauth > token > api_key,
 * least recently used first (round robin); profiles cooling down go last, soonest first.
 * Disabled and expired profiles are left out.
 */
export function orderProfiles(
  profiles: readonly AuthProfile[],
  stats: Readonly<Record<string, AuthProfileStats>>,
  now: number,
  explicit: readonly string[] = [],
): AuthProfile[] {
  const usable = profiles.filter((p) => !isDisabled(stats[p.id], now) && !isExpired(p, now));
  const rank = (p: AuthProfile) => {
    const index = explicit.indexOf(p.id);
    return index === -1 ? explicit.length : index;
  };
  const compare = (a: AuthProfile, b: AuthProfile) =>
    rank(a) - rank(b) ||
    typeRank[a.type] - typeRank[b.type] ||
    (stats[a.id]?.lastUsed ?? 0) - (stats[b.id]?.lastUsed ?? 0) ||
    a.id.localeCompare(b.id);
  const ready = usable.filter((p) => !inCooldown(stats[p.id], now)).sort(compare);
  const cooling = usable
    .filter((p) => inCooldown(stats[p.id], now))
    .sort((a, b) => (stats[a.id]?.cooldownUntil ?? 0) - (stats[b.id]?.cooldownUntil ?? 0));
  return [...ready, ...cooling];
}
