import { z } from 'zod';
import type { PresenceEntry } from '../connect.js';
import { method } from './define.js';

export interface HealthResult {
  ok: boolean;
  ts: number;
  durationMs: number;
  uptimeMs: number;
  version: string;
  agents: { id: string; name?: string }[];
  sessions: { count: number };
  connections: number;
  [key: string]: unknown;
}

export interface StatusResult {
  runtimeVersion: string;
  protocol: number;
  uptimeMs: number;
  bind: { host: string; port: number; tls: boolean; tlsFingerprint?: string };
  heartbeat: { enabled: boolean; lastAt?: number };
  sessions: { count: number };
  connections: number;
  home: string;
  secrets: { backend: string; warning?: string };
  [key: string]: unknown;
}

export const gatewayMethods = {
  health: method<HealthResult>()({ scope: 'none', params: z.object({}).strict() }),
  status: method<StatusResult>()({ scope: 'operator.read', params: z.object({}).strict() }),
  'system-presence': method<PresenceEntry[]>()({ scope: 'operator.read', params: z.object({}).strict() }),
};
