import type { Clock, Disposable } from '../base/index.js';
import type { ChatEvent } from '../protocol/index.js';
import { type Notifier, shouldNotifyFinishedTask } from './notifications.js';
import { type ShellWords, shellWords } from './shell-words.js';

/** The part of the gateway client the watcher listens on. */
export interface ChatEventSource {
  on(event: 'chat', listener: (payload: ChatEvent) => void): Disposable;
}

export interface RunNotificationDeps {
  events: ChatEventSource;
  notifier: Notifier;
  /** True while the person is looking at a Hearth window (visible and focused). */
  windowFocused(): boolean;
  /** A clicked notification opens the chat the run answered in. */
  openSession(sessionKey: string): void;
  clock: Pick<Clock, 'now'>;
  /** Runs shorter than this are not worth interrupting for (default 0: every answer while away). */
  minDurationMs?: number;
  /** The other machine's gateway these runs are on, said in the title; undefined for this computer's. */
  remoteGateway?: string;
  words?(): ShellWords;
}

const PREVIEW = 120;

/**
 * A native notification when a run ends (answered, failed) while no Hearth window has the
 * person's attention; clicking it opens that chat. A run's start is the first event seen for it.
 * Approval requests notify from the approval prompter (approval-dialog.ts).
 */
export function notifyFinishedRuns(deps: RunNotificationDeps): Disposable {
  const started = new Map<string, number>();
  return deps.events.on('chat', (event) => {
    if (!started.has(event.runId)) started.set(event.runId, deps.clock.now());
    if (event.state === 'delta') return;
    const startedAt = started.get(event.runId) ?? deps.clock.now();
    started.delete(event.runId);
    if (event.state === 'aborted') return;
    const ok = event.state === 'final';
    const text = ok ? messageText(event.message) : event.errorMessage;
    const task = { title: preview(text) || event.sessionKey, durationMs: deps.clock.now() - startedAt, ok };
    if (
      !shouldNotifyFinishedTask(task, { minDurationMs: deps.minDurationMs ?? 0, windowFocused: deps.windowFocused() })
    ) {
      return;
    }
    deps.notifier.notify({
      title: (deps.words?.() ?? shellWords('en'))[ok ? 'answered' : 'couldNotAnswer'](deps.remoteGateway),
      body: task.title,
      onClick: () => deps.openSession(event.sessionKey),
    });
  });
}

function messageText(message: { content?: readonly { type: string; text?: string }[] } | undefined): string {
  return (message?.content ?? []).map((part) => (part.type === 'text' ? (part.text ?? '') : '')).join('');
}

function preview(text: string): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > PREVIEW ? `${line.slice(0, PREVIEW - 1)}…` : line;
}
