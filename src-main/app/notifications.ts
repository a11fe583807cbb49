import type { Logger } from '../base/index.js';

/** The parts of an Electron Notification instance the shell uses. */
export interface NotificationLike {
  show(): void;
  close(): void;
  on(event: 'click', listener: () => void): unknown;
}

export interface NotificationCtor {
  new (options: { title: string; body: string; silent?: boolean }): NotificationLike;
  isSupported(): boolean;
}

export interface NotifyOptions {
  title: string;
  body: string;
  onClick?: () => void;
}

export interface Notifier {
  /** Shows a system notification; the handle closes it (e.g. when the approval was answered elsewhere). */
  notify(options: NotifyOptions): { close(): void };
}

/** Some Linux desktops have no notification daemon: then nothing is shown and nothing breaks. */
export function createNotifier(Notification: NotificationCtor, logger: Logger): Notifier {
  return {
    notify({ title, body, onClick }) {
      if (!Notification.isSupported()) return { close() {} };
      try {
        const notification = new Notification({ title, body: truncate(body, 240) });
        if (onClick) notification.on('click', onClick);
        notification.show();
        return { close: () => notification.close() };
      } catch (error) {
        logger.warn('could not show a notification', { error: String(error) });
        return { close() {} };
      }
    },
  };
}

export interface FinishedTask {
  title: string;
  durationMs: number;
  ok: boolean;
}

export interface FinishedTaskPolicy {
  /** Only tasks at least this long are worth interrupting the user for. */
  minDurationMs: number;
  /** The user is looking at the window already: no notification. */
  windowFocused: boolean;
}

export function shouldNotifyFinishedTask(task: FinishedTask, policy: FinishedTaskPolicy): boolean {
  return !policy.windowFocused && task.durationMs >= policy.minDurationMs;
}

export function finishedTaskMessage(task: FinishedTask): NotifyOptions {
  const seconds = Math.round(task.durationMs / 1000);
  const took = seconds >= 120 ? `${Math.round(seconds / 60)} min` : `${seconds} s`;
  return {
    title: task.ok ? 'Task finished' : 'Task failed',
    body: `${task.title} (${took})`,
  };
}

function truncate(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}
