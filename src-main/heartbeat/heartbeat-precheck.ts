import { type Checklist, dueItems } from './heartbeat-checklist.js';

/** Why a beat needs the model; empty means it makes no model call at all. */
export type HeartbeatReason =
  | { kind: 'item'; text: string }
  | { kind: 'events'; count: number; details: string[] }
  | { kind: 'failed-jobs'; names: string[] };

export interface PrecheckInput {
  checklist: Checklist;
  /** The previous beat (or when the heartbeat started). */
  sinceMs: number;
  nowMs: number;
  /** New events from channels or watched files since the last beat (their details). */
  events: readonly string[];
  /** Jobs whose last run failed since the last beat. */
  failedJobs: string[];
}

/** Deterministic and free: no I/O, no model. The heartbeat calls the model only if this finds something. */
export function precheck(input: PrecheckInput): HeartbeatReason[] {
  const reasons: HeartbeatReason[] = dueItems(input.checklist, input.sinceMs, input.nowMs).map((item) => ({
    kind: 'item',
    text: item.text,
  }));
  if (input.events.length > 0) reasons.push({ kind: 'events', count: input.events.length, details: [...input.events] });
  if (input.failedJobs.length > 0) reasons.push({ kind: 'failed-jobs', names: input.failedJobs });
  return reasons;
}

/** The most event details one prompt lists: the turn stays small however busy the hour was. */
const EVENTS_IN_PROMPT = 10;

/** What the heartbeat turn is told: only what is due, so the turn stays small. */
export function heartbeatPrompt(reasons: readonly HeartbeatReason[]): string {
  const lines = reasons.map((reason) => {
    if (reason.kind === 'item') return `- due: ${reason.text}`;
    if (reason.kind === 'events')
      return [
        `- ${reason.count} new event(s) from channels or watched files:`,
        ...reason.details.slice(0, EVENTS_IN_PROMPT).map((detail) => `  - ${detail}`),
        ...(reason.count > EVENTS_IN_PROMPT ? [`  - and ${reason.count - EVENTS_IN_PROMPT} more`] : []),
      ].join('\n');
    return `- failed scheduled jobs: ${reason.names.join(', ')}`;
  });
  return [
    'Heartbeat. Check these against HEARTBEAT.md:',
    ...lines,
    `If there is nothing the person needs to hear, answer exactly ${NOTHING_TO_REPORT}.`,
  ].join('\n');
}

/** The model's answer for "nothing to report": nothing is delivered. */
export const NOTHING_TO_REPORT = 'HEARTBEAT_OK';
