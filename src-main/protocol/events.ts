import type { PresenceEntry } from './connect.js';

/**
 * Server → client events and their payloads. Capabilities add theirs here; the
 * gateway advertises the keys in hello-ok.features.events.
 */
export interface EventPayloads {
  'connect.challenge': { nonce: string; ts: number; capabilities: string[] };
  tick: { ts: number };
  presence: { presence: PresenceEntry[] };
  health: Record<string, unknown>;
  shutdown: { reason: string; restartExpectedMs?: number };
  'config.changed': { hash: string; changedPrefixes: string[] };
  'config.error': { path: string; errors: { path: string; message: string }[] };
  chat: Record<string, unknown>;
  agent: Record<string, unknown>;
  'sessions.changed': Record<string, unknown>;
  'exec.approval.requested': Record<string, unknown>;
  'exec.approval.resolved': Record<string, unknown>;
  'terminal.output': Record<string, unknown>;
  'terminal.exit': Record<string, unknown>;
  'auth.profiles.changed': Record<string, unknown>;
  'memory.changed': Record<string, unknown>;
  'dreams.changed': Record<string, unknown>;
  'canvas.changed': Record<string, unknown>;
  'device.pair.requested': Record<string, unknown>;
  'device.pair.resolved': Record<string, unknown>;
}

export type EventName = keyof EventPayloads;

export const eventNames = [
  'connect.challenge',
  'tick',
  'presence',
  'health',
  'shutdown',
  'config.changed',
  'config.error',
  'chat',
  'agent',
  'sessions.changed',
  'exec.approval.requested',
  'exec.approval.resolved',
  'terminal.output',
  'terminal.exit',
  'auth.profiles.changed',
  'memory.changed',
  'dreams.changed',
  'canvas.changed',
  'device.pair.requested',
  'device.pair.resolved',
] as const satisfies readonly EventName[];

/** Which scope an event needs to be delivered (PROTOCOL.md §5 "Event delivery"). */
export type EventAudience = 'everyone' | 'operator.read' | 'operator.approvals' | 'operator.pairing' | 'operator.admin';

export function eventAudience(event: string): EventAudience {
  if (event === 'tick' || event === 'presence' || event === 'health' || event === 'shutdown') return 'everyone';
  if (event.startsWith('exec.approval.')) return 'operator.approvals';
  if (event.startsWith('device.pair.')) return 'operator.pairing';
  if (event.startsWith('config.')) return 'operator.admin';
  return 'operator.read';
}
