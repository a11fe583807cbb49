import { z } from 'zod';
import type { PresenceEntry } from '../connect.js';
import type { DeliveryOutcome } from '../delivery-target.js';
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

/** How the last heartbeat beat ended: `quiet` nothing was due (no model call), `inactive` outside active hours. */
export type HeartbeatBeatStatus = 'quiet' | 'inactive' | 'ok' | 'delivered' | 'error';

export interface HeartbeatLastResult {
  status: HeartbeatBeatStatus;
  atMs: number;
  /** Why the beat called the model (`due: …`, failed jobs); empty for a quiet beat. */
  reasons: string[];
  /** The delivered reply, or what went wrong. */
  summary?: string;
  /** The heartbeat turn's session (its transcript is the beat's record). */
  sessionKey?: string;
  /** A delivered reply sent to a channel (`heartbeat.delivery` is `owner` or a chat): how it went. */
  delivery?: DeliveryOutcome;
}

/** `status.heartbeat`: `enabled` and `lastAt` are OpenClaw's; the rest is Hearth's. */
export interface HeartbeatStatus {
  enabled: boolean;
  lastAt?: number;
  intervalMs?: number;
  nextAt?: number;
  activeHours?: { start: number; end: number };
  tz?: string;
  agentId?: string;
  /** Beats that called the model / that did not. */
  turns?: number;
  quietBeats?: number;
  lastResult?: HeartbeatLastResult;
  /** Events (channel messages no turn answered, watched files that changed) waiting for the next beat. */
  pendingEvents?: number;
  /** `heartbeat.watch`: the workspace files and folders whose change wakes the next beat. */
  watch?: string[];
  /** `heartbeat.delivery`: where a reply worth telling goes (`ui`, `owner`, `telegram:42`). */
  delivery?: string;
  /** HEARTBEAT.md lines that could not be read, or a config problem. */
  problems?: string[];
}

export interface StatusResult {
  runtimeVersion: string;
  protocol: number;
  uptimeMs: number;
  bind: { host: string; port: number; tls: boolean; tlsFingerprint?: string };
  heartbeat: HeartbeatStatus;
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
