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

/** `status.upgrades`: the version of each on-disk format in the home and what the last starts did (docs/UPGRADES.md). */
export interface UpgradesStatus {
  formats: {
    format: string;
    label: string;
    /** Relative to the home. */
    path: string;
    version: number;
    /** The version this Hearth reads and writes. */
    current: number;
    /** False: the file has no version field and is read as the version it has always been. */
    explicit: boolean;
    unreadable?: string;
  }[];
  lastEvent?: {
    kind: 'migrated' | 'migration-failed' | 'crash-restored' | 'crash-nothing-to-restore';
    atMs: number;
    appVersion: string;
    /** One sentence a person reads. */
    message: string;
    /** Backup folders made or restored from, relative to the home. */
    backups?: string[];
    error?: string;
    /**
     * The message's parts, so a client can say it in the person's language: the files an upgrade
     * changed (`path vN→vM` when migrated, the paths when it failed) and how many starts crashed.
     * Absent in events written before they existed; `message` is then all there is.
     */
    files?: string[];
    attempts?: number;
  };
  /** This app version does not re-run its migrations (they crashed it twice). */
  held?: { appVersion: string; reason: string };
  lastGoodStartMs?: number;
  lastGoodAppVersion?: string;
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
  upgrades?: UpgradesStatus;
  [key: string]: unknown;
}

export const gatewayMethods = {
  health: method<HealthResult>()({ scope: 'none', params: () => z.object({}).strict() }),
  status: method<StatusResult>()({ scope: 'operator.read', params: () => z.object({}).strict() }),
  'system-presence': method<PresenceEntry[]>()({ scope: 'operator.read', params: () => z.object({}).strict() }),
};
