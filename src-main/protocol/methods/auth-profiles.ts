import { z } from 'zod';
import { method } from './define.js';
import type { ProviderProblem } from './providers.js';

/** Health of one credential for the UI. Never carries the secret. */
export interface AuthProfileRow {
  id: string;
  provider: string;
  type: 'api_key' | 'token' | 'oauth';
  label?: string;
  fromConfig: boolean;
  status: 'ok' | 'cooldown' | 'disabled' | 'expired' | 'missing_secret';
  cooldownRemainingMs: number;
  disabledUntil?: number;
  disabledReason?: string;
  lastUsed?: number;
  /** Epoch ms of the last call (turn or probe) that worked. */
  lastSuccess?: number;
  lastErrorReason?: string;
  failureCounts: Record<string, number>;
  expiresAt?: number;
  /** The last probe: a cheap real request (the provider's model list) made to check the key. */
  lastProbe?: AuthProbeRow;
  /** The key has been seen to work (a turn, or the newest probe). False: never show it as ready. */
  verified: boolean;
}

export interface AuthProbeRow {
  /** Epoch ms. */
  at: number;
  ok: boolean;
  problem?: ProviderProblem;
  status?: number;
  message?: string;
  models?: number;
}

export const authProfilesMethods = {
  'auth.profiles.list': method<{
    profiles: AuthProfileRow[];
    secretBackend: string;
    /** English, for older clients; `secretFallbackReason` is the detail a client words itself. */
    secretWarning?: string;
    secretFallbackReason?: string;
  }>()({
    scope: 'operator.admin',
    params: () => z.object({ provider: z.string().min(1).optional() }).strict(),
  }),
  'auth.profiles.set': method<{ profile: AuthProfileRow }>()({
    scope: 'operator.admin',
    params: () =>
      z
        .object({
          id: z.string().min(1).max(64),
          provider: z.string().min(1),
          type: z.enum(['api_key', 'token', 'oauth']),
          /** Omit to keep the stored secret (e.g. to re-enable a disabled profile). */
          secret: z.string().min(1).optional(),
          label: z.string().max(200).optional(),
          expiresAt: z.number().int().positive().optional(),
        })
        .strict(),
    controlPlaneWrite: true,
  }),
  /**
   * Probes profiles (all, or one): the stored answer within the cooldown (10 min), a fresh
   * request with `force`. Each profile's row is returned as auth.profiles.list would show it.
   */
  'auth.profiles.probe': method<{ profiles: AuthProfileRow[] }>()({
    scope: 'operator.admin',
    params: () => z.object({ id: z.string().min(1).optional(), force: z.boolean().optional() }).strict(),
  }),
  'auth.profiles.remove': method<{ ok: true; removed: boolean }>()({
    scope: 'operator.admin',
    params: () => z.object({ id: z.string().min(1) }).strict(),
    controlPlaneWrite: true,
  }),
};
