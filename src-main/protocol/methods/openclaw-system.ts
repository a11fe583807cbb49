import { z } from 'zod';
import { method } from './define.js';

// The gateway's own machine, logs, nodes and spend as OpenClaw's Control UI shows them.

export interface LogsTailResult {
  file: string;
  cursor: number;
  size: number;
  lines: string[];
  truncated: boolean;
  reset: boolean;
}

export interface UsageTotals {
  input: number;
  output: number;
  cacheRead: number;
  cacheWrite: number;
  totalTokens: number;
  totalCost: number;
}

export const openClawSystemMethods = {
  'logs.tail': method<LogsTailResult>()({
    scope: 'operator.admin',
    params: () =>
      z
        .object({
          cursor: z.number().int().min(0).optional(),
          limit: z.number().int().min(1).max(5000).optional(),
          maxBytes: z.number().int().min(1).max(1_000_000).optional(),
        })
        .strict(),
  }),
  'system.info': method<Record<string, unknown>>()({ scope: 'operator.read', params: () => z.object({}).strict() }),
  /** Connected clients with role node (Hearth accepts them at the handshake but runs nothing on them). */
  'node.list': method<{ ts: number; nodes: Record<string, unknown>[] }>()({
    scope: 'operator.read',
    params: () => z.object({}).strict(),
  }),
  /** Hearth updates with its package manager or installer; the gateway does not update itself. */
  'update.status': method<Record<string, unknown>>()({ scope: 'operator.read', params: () => z.object({}).strict() }),
  /** Where the gateway runs sessions: the machine itself. */
  'environments.list': method<{ environments: Record<string, unknown>[] }>()({
    scope: 'operator.read',
    params: () => z.object({ includeDesktopSetup: z.boolean().optional() }).strict(),
  }),
  /** Provider quota windows; Hearth tracks spend per session (sessions.usage), not provider quotas. */
  'usage.status': method<{ updatedAt: number; providers: unknown[]; refreshing: boolean }>()({
    scope: 'operator.read',
    params: () => z.object({}).strict(),
  }),
  'sessions.usage': method<{
    updatedAt: number;
    startDate?: string;
    endDate?: string;
    sessions: Record<string, unknown>[];
    totals: UsageTotals;
    aggregates: Record<string, unknown>;
    cacheStatus: Record<string, unknown>;
    creatorOptions: unknown[];
  }>()({
    scope: 'operator.read',
    params: () =>
      z
        .object({
          startDate: z
            .string()
            .regex(/^\d{4}-\d{2}-\d{2}$/, 'startDate must be YYYY-MM-DD')
            .optional(),
          endDate: z
            .string()
            .regex(/^\d{4}-\d{2}-\d{2}$/, 'endDate must be YYYY-MM-DD')
            .optional(),
          limit: z.number().int().min(1).max(1000).optional(),
        })
        .strict(),
  }),
};
