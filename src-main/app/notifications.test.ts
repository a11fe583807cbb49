import { describe, expect, it } from 'vitest';
import { createMemoryLogger } from '../base/index.js';
import {
  createNotifier,
  finishedTaskMessage,
  type NotificationCtor,
  type NotificationLike,
  shouldNotifyFinishedTask,
} from './notifications.js';

function fakeNotificationClass(options: { supported?: boolean; throws?: boolean } = {}) {
  const shown: { title: string; body: string; closed: boolean; click?: () => void }[] = [];
  class FakeNotification implements NotificationLike {
    static isSupported = () => options.supported ?? true;
    private readonly entry: (typeof shown)[number];
    constructor(init: { title: string; body: string }) {
      if (options.throws) throw new Error('no notification daemon');
      this.entry = { title: init.title, body: init.body, closed: false };
    }
    show() {
      shown.push(this.entry);
    }
    close() {
      this.entry.closed = true;
    }
    on(_event: 'click', listener: () => void) {
      this.entry.click = listener;
      return this;
    }
  }
  return { Notification: FakeNotification as NotificationCtor, shown };
}

describe('notifications', () => {
  it('shows a notification that can be clicked and closed', () => {
    const { Notification, shown } = fakeNotificationClass();
    let clicked = 0;
    const handle = createNotifier(Notification, createMemoryLogger()).notify({
      title: 'Approval needed',
      body: 'rm -rf build',
      onClick: () => {
        clicked += 1;
      },
    });
    shown[0]!.click!();
    handle.close();
    expect(shown[0]).toMatchObject({ title: 'Approval needed', body: 'rm -rf build', closed: true });
    expect(clicked).toBe(1);
  });

  it('shortens very long bodies', () => {
    const { Notification, shown } = fakeNotificationClass();
    createNotifier(Notification, createMemoryLogger()).notify({ title: 't', body: 'x'.repeat(1000) });
    expect(shown[0]!.body).toHaveLength(240);
    expect(shown[0]!.body.endsWith('…')).toBe(true);
  });

  it('does nothing where notifications are unsupported or broken, and logs the failure', () => {
    const unsupported = fakeNotificationClass({ supported: false });
    createNotifier(unsupported.Notification, createMemoryLogger()).notify({ title: 't', body: 'b' }).close();
    expect(unsupported.shown).toEqual([]);
    const logger = createMemoryLogger();
    const broken = fakeNotificationClass({ throws: true });
    createNotifier(broken.Notification, logger).notify({ title: 't', body: 'b' }).close();
    expect(logger.entries.map((e) => e.message)).toEqual(['could not show a notification']);
  });

  it('notifies about long tasks only when the user is not looking', () => {
    const task = { title: 'Refactor the parser', durationMs: 150_000, ok: true };
    expect(shouldNotifyFinishedTask(task, { minDurationMs: 60_000, windowFocused: false })).toBe(true);
    expect(shouldNotifyFinishedTask(task, { minDurationMs: 60_000, windowFocused: true })).toBe(false);
    expect(
      shouldNotifyFinishedTask({ ...task, durationMs: 5_000 }, { minDurationMs: 60_000, windowFocused: false }),
    ).toBe(false);
    expect(finishedTaskMessage(task)).toEqual({ title: 'Task finished', body: 'Refactor the parser (3 min)' });
    expect(finishedTaskMessage({ ...task, ok: false, durationMs: 45_000 })).toEqual({
      title: 'Task failed',
      body: 'Refactor the parser (45 s)',
    });
  });
});
