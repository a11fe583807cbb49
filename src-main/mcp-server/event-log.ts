import type { Clock } from '../base/clock.js';
import { type Disposable, DisposableStore, toDisposable } from '../base/disposable.js';
import type { EventPayloads, ExecApprovalResolvedEvent, ExecApprovalView } from '../protocol/index.js';

/** What an MCP client is told about: what happened in Hearth, in the words of its tools. */
export type HearthEvent =
  | { type: 'message'; sessionKey: string; role: string; text: string; tool?: string }
  | { type: 'permission_requested'; id: string; sessionKey?: string; command: string }
  | { type: 'permission_resolved'; id: string; decision: string }
  | { type: 'turn_failed'; sessionKey: string; error: string };

export interface LoggedEvent {
  seq: number;
  at: string;
  event: HearthEvent;
}

export interface EventPage {
  events: LoggedEvent[];
  /** Pass as `after` next time. */
  cursor: number;
}

function hearthEventOf(event: string, payload: unknown): HearthEvent | undefined {
  switch (event) {
    case 'session.message': {
      const { sessionKey, message } = payload as EventPayloads['session.message'];
      const text = message.content.map((part) => ('text' in part ? String(part.text ?? '') : '')).join('');
      return {
        type: 'message',
        sessionKey,
        role: message.role,
        text,
        ...(message.toolName ? { tool: message.toolName } : {}),
      };
    }
    case 'exec.approval.requested': {
      const view = payload as ExecApprovalView;
      return { type: 'permission_requested', id: view.id, sessionKey: view.sessionKey, command: view.command };
    }
    case 'exec.approval.resolved': {
      const resolved = payload as ExecApprovalResolvedEvent;
      return { type: 'permission_resolved', id: resolved.id, decision: resolved.decision };
    }
    case 'chat': {
      const chat = payload as EventPayloads['chat'];
      return chat.state === 'error'
        ? { type: 'turn_failed', sessionKey: chat.sessionKey, error: chat.errorMessage }
        : undefined;
    }
    default:
      return undefined;
  }
}

/**
 * The events a connection sees (the gateway filtered them by its scopes), kept for `events_poll`
 * and `events_wait`: the last `capacity`, numbered from 1, so a client reads each once by cursor.
 */
export class EventLog implements Disposable {
  private readonly events: LoggedEvent[] = [];
  private readonly waiters = new Set<() => void>();
  private readonly store = new DisposableStore();
  private seq = 0;

  constructor(
    subscribe: (listener: (event: string, payload: unknown) => void) => Disposable,
    private readonly clock: Clock,
    private readonly capacity = 500,
  ) {
    this.store.add(
      subscribe((event, payload) => {
        const described = hearthEventOf(event, payload);
        if (!described) return;
        this.seq += 1;
        this.events.push({ seq: this.seq, at: new Date(this.clock.now()).toISOString(), event: described });
        if (this.events.length > this.capacity) this.events.shift();
        for (const wake of [...this.waiters]) wake();
      }),
    );
  }

  /** The cursor now: events after it are the ones still to come. */
  get cursor(): number {
    return this.seq;
  }

  poll(after: number, limit: number): EventPage {
    const events = this.events.filter((e) => e.seq > after).slice(0, limit);
    return { events, cursor: events.length > 0 ? events[events.length - 1]!.seq : Math.max(after, 0) };
  }

  /** Events after `after`, at once if there are some, else the first to come within `timeoutMs` (none: empty). */
  wait(after: number, limit: number, timeoutMs: number, signal: AbortSignal): Promise<EventPage> {
    const ready = this.poll(after, limit);
    if (ready.events.length > 0 || timeoutMs <= 0) return Promise.resolve(ready);
    return new Promise<EventPage>((resolve) => {
      const pending = new DisposableStore();
      const finish = () => {
        pending.dispose();
        resolve(this.poll(after, limit));
      };
      this.waiters.add(finish);
      pending.add(toDisposable(() => this.waiters.delete(finish)));
      pending.add(this.clock.setTimeout(finish, timeoutMs));
      signal.addEventListener('abort', finish, { once: true });
      pending.add(toDisposable(() => signal.removeEventListener('abort', finish)));
    });
  }

  dispose(): void {
    for (const wake of [...this.waiters]) wake();
    this.store.dispose();
  }
}
