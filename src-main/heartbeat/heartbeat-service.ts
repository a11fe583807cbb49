import type { Clock } from '../base/clock.js';
import type { Disposable } from '../base/disposable.js';
import { Emitter, type Event } from '../base/emitter.js';
import type { Logger } from '../base/logger.js';
import type { DeliveryOutcome } from '../protocol/delivery-target.js';
import type { HeartbeatLastResult } from '../protocol/methods/gateway.js';
import { type Checklist, parseChecklist } from './heartbeat-checklist.js';
import { type HeartbeatReason, heartbeatPrompt, NOTHING_TO_REPORT, precheck } from './heartbeat-precheck.js';

export interface HeartbeatSettings {
  enabled: boolean;
  intervalMs: number;
  /** Local hours [start, end) in `tz` when beats may run; undefined: always. */
  activeHours?: { start: number; end: number };
  tz?: string;
}

/** What survives a restart (heartbeat-state-file.ts): the beats so far and how the last one ended. */
export interface HeartbeatCounters {
  lastBeatAtMs?: number;
  /** Beats that made a model call / that did not (nothing was due, or outside active hours). */
  turns: number;
  quietBeats: number;
  lastResult?: HeartbeatLastResult;
}

export interface HeartbeatState extends HeartbeatCounters {
  enabled: boolean;
  intervalMs: number;
  lastReasons: HeartbeatReason[];
  lastDelivered?: string;
  /** When the timer fires next; undefined when the heartbeat is off. */
  nextBeatAtMs?: number;
  problems: string[];
}

/** What a heartbeat turn answered, and the session it ran in (for the record). */
export interface HeartbeatTurnOutcome {
  reply: string;
  sessionKey?: string;
}

export interface HeartbeatDeps {
  clock: Clock;
  log: Logger;
  settings(): HeartbeatSettings;
  /** HEARTBEAT.md's text ('' when the file is missing). */
  readChecklist(): Promise<string>;
  /**
   * The events (channels, watched files) that came since the last look, as details; taking them
   * empties the source. Asked only in active hours, so events outside them wait for the next one.
   */
  takeEvents(): readonly string[];
  failedJobs(sinceMs: number): string[];
  /** One heartbeat turn (run kind `heartbeat`); resolves with the model's reply; throws when the turn failed. */
  runTurn(prompt: string): Promise<string | HeartbeatTurnOutcome>;
  /**
   * A reply worth telling the person. May answer how a channel delivery went (kept with the
   * beat's result); it must not throw.
   */
  deliver(text: string): Promise<DeliveryOutcome | undefined> | undefined;
  /** The counters to continue from (the ones kept before a restart or a settings change). */
  initial?: HeartbeatCounters;
}

export interface HeartbeatService extends Disposable {
  /** One beat now: pre-check, then a model call only if something is due. */
  beat(): Promise<void>;
  state(): HeartbeatState;
  /** Fires after every beat, quiet ones included (it costs nothing: no model call). */
  readonly onDidBeat: Event<HeartbeatLastResult>;
}

export function describeReason(reason: HeartbeatReason): string {
  if (reason.kind === 'item') return `due: ${reason.text}`;
  if (reason.kind === 'events') {
    const shown = reason.details.slice(0, 3).join('; ');
    const more = reason.count > 3 ? `; and ${reason.count - 3} more` : '';
    return shown ? `${reason.count} new event(s): ${shown}${more}` : `${reason.count} new event(s)`;
  }
  return `failed jobs: ${reason.names.join(', ')}`;
}

const CATCH_UP_MS = 24 * 60 * 60_000;

function localHour(ms: number, tz: string | undefined): number {
  const hour = new Intl.DateTimeFormat('en-US', { hour: 'numeric', hourCycle: 'h23', timeZone: tz }).format(ms);
  return Number(hour);
}

/** Every interval a free, deterministic pre-check; the model is called only when it finds something. */
export function createHeartbeat(deps: HeartbeatDeps): HeartbeatService {
  const { clock } = deps;
  // After a restart the window reaches back to the last beat (a day at most), so a checklist item
  // that came due while Hearth was off is looked at once, as a missed cron run is.
  const lastBeat = deps.initial?.lastBeatAtMs;
  let sinceMs =
    lastBeat !== undefined ? Math.min(clock.now(), Math.max(lastBeat, clock.now() - CATCH_UP_MS)) : clock.now();
  let checklistCache: { text: string; checklist: Checklist } | undefined;
  let beating: Promise<void> | undefined;
  const didBeat = new Emitter<HeartbeatLastResult>();
  const finish = (result: HeartbeatLastResult) => {
    state.lastResult = result;
    didBeat.fire(result);
  };
  const state: HeartbeatState = {
    enabled: deps.settings().enabled,
    intervalMs: deps.settings().intervalMs,
    turns: deps.initial?.turns ?? 0,
    quietBeats: deps.initial?.quietBeats ?? 0,
    ...(deps.initial?.lastBeatAtMs !== undefined ? { lastBeatAtMs: deps.initial.lastBeatAtMs } : {}),
    ...(deps.initial?.lastResult ? { lastResult: deps.initial.lastResult } : {}),
    lastReasons: [],
    problems: [],
  };

  async function beatOnce(): Promise<void> {
    const settings = deps.settings();
    const now = clock.now();
    const window = sinceMs;
    sinceMs = now;
    state.lastBeatAtMs = now;
    if (settings.activeHours) {
      const hour = localHour(now, settings.tz);
      const { start, end } = settings.activeHours;
      const active = start <= end ? hour >= start && hour < end : hour >= start || hour < end;
      if (!active) {
        state.quietBeats++;
        state.lastReasons = [];
        finish({ status: 'inactive', atMs: now, reasons: [] });
        return;
      }
    }
    const text = await deps.readChecklist();
    if (checklistCache?.text !== text) {
      // Interval items count from when the checklist was first seen, so an edit does not make all of them due.
      checklistCache = { text, checklist: parseChecklist(text, { tz: settings.tz, anchorMs: now }) };
    }
    state.problems = checklistCache.checklist.problems;
    const reasons = precheck({
      checklist: checklistCache.checklist,
      sinceMs: window,
      nowMs: now,
      events: deps.takeEvents(),
      failedJobs: deps.failedJobs(window),
    });
    state.lastReasons = reasons;
    const described = reasons.map(describeReason);
    if (reasons.length === 0) {
      state.quietBeats++;
      finish({ status: 'quiet', atMs: now, reasons: [] });
      return;
    }
    state.turns++;
    let outcome: HeartbeatTurnOutcome;
    try {
      const answer = await deps.runTurn(heartbeatPrompt(reasons));
      outcome = typeof answer === 'string' ? { reply: answer } : answer;
    } catch (error) {
      finish({ status: 'error', atMs: now, reasons: described, summary: errorText(error) });
      throw error;
    }
    const reply = outcome.reply.trim();
    const session = outcome.sessionKey ? { sessionKey: outcome.sessionKey } : {};
    if (reply === '' || reply.includes(NOTHING_TO_REPORT)) {
      finish({ status: 'ok', atMs: now, reasons: described, ...session });
      return;
    }
    state.lastDelivered = reply;
    const delivery = await deps.deliver(reply);
    finish({
      status: 'delivered',
      atMs: now,
      reasons: described,
      summary: reply,
      ...session,
      ...(delivery ? { delivery } : {}),
    });
  }

  const beat = async () => {
    // A slow heartbeat turn never overlaps the next beat.
    if (beating) return beating;
    beating = beatOnce()
      .catch((error) => deps.log.warn('heartbeat failed', { error: String(error) }))
      .finally(() => {
        beating = undefined;
      });
    return beating;
  };

  const initial = deps.settings();
  if (initial.enabled) state.nextBeatAtMs = clock.now() + initial.intervalMs;
  const timer = initial.enabled
    ? clock.setInterval(() => {
        state.nextBeatAtMs = clock.now() + initial.intervalMs;
        void beat();
      }, initial.intervalMs)
    : undefined;
  return {
    beat,
    state: () => ({ ...state, lastReasons: [...state.lastReasons] }),
    onDidBeat: didBeat.event,
    dispose: () => {
      timer?.dispose();
      didBeat.dispose();
    },
  };
}

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
