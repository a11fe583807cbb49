import { describe, expect, it, onTestFinished } from 'vitest';
import { silentLogger } from '../base/logger.js';
import { createFakeClock, type FakeClock } from '../testing/fake-clock.js';
import { NOTHING_TO_REPORT } from './heartbeat-precheck.js';
import { createHeartbeat, type HeartbeatSettings } from './heartbeat-service.js';

const minute = 60_000;
const interval = 30 * minute;

function harness(options: {
  checklist: string;
  reply?: string;
  settings?: Partial<HeartbeatSettings>;
  start?: number;
}) {
  const clock: FakeClock = createFakeClock(options.start ?? Date.UTC(2026, 0, 5, 0, 0));
  const prompts: string[] = [];
  const delivered: string[] = [];
  let events: string[] = [];
  const heartbeat = createHeartbeat({
    clock,
    log: silentLogger,
    settings: () => ({ enabled: true, intervalMs: interval, tz: 'UTC', ...options.settings }),
    readChecklist: async () => options.checklist,
    takeEvents: () => {
      const taken = events;
      events = [];
      return taken;
    },
    failedJobs: () => [],
    runTurn: async (prompt) => {
      prompts.push(prompt);
      return options.reply ?? NOTHING_TO_REPORT;
    },
    deliver: (text) => {
      delivered.push(text);
      return undefined;
    },
  });
  // Each test's heartbeat stops with it (its interval would otherwise outlive the test).
  onTestFinished(() => heartbeat.dispose());
  /** One interval at a time, letting each beat finish, as on a real machine. */
  const pass = async (beats: number) => {
    for (let i = 0; i < beats; i++) {
      clock.advance(interval);
      await heartbeat.beat();
    }
  };
  return {
    clock,
    heartbeat,
    prompts,
    delivered,
    pass,
    addEvent: (detail = 'telegram: a message') => events.push(detail),
  };
}

describe('heartbeat at zero tokens when idle', () => {
  it('a simulated idle day (48 intervals, nothing due) makes no model call', async () => {
    const { pass, prompts, heartbeat } = harness({
      checklist: '# Heartbeat\n- Look over the inbox when something arrives\n- Weekly review @ 0 17 * * 5\n',
    });
    await pass(48);
    expect(prompts).toHaveLength(0);
    expect(heartbeat.state()).toMatchObject({ turns: 0 });
    expect(heartbeat.state().quietBeats).toBeGreaterThanOrEqual(48);
  });

  it('a day with one due item makes exactly one model call, and "nothing to report" delivers nothing', async () => {
    const { pass, prompts, delivered } = harness({ checklist: '- Check the calendar for tomorrow @ 0 18 * * *\n' });
    await pass(48);
    expect(prompts).toHaveLength(1);
    expect(prompts[0]).toContain('due: Check the calendar for tomorrow');
    expect(delivered).toEqual([]);
  });

  it('delivers a reply that has something to say; new events wake it too', async () => {
    const { pass, prompts, delivered, addEvent } = harness({ checklist: '', reply: 'A new message from Ana.' });
    await pass(4);
    expect(prompts).toHaveLength(0);
    addEvent();
    await pass(1);
    expect(prompts).toHaveLength(1);
    expect(prompts[0]).toContain('1 new event(s)');
    expect(delivered).toEqual(['A new message from Ana.']);
  });

  it('outside active hours a due item waits: no model call', async () => {
    const { pass, prompts } = harness({
      checklist: '- Stretch @ every 1h\n',
      settings: { activeHours: { start: 9, end: 17 } },
    });
    await pass(16); // 00:00 → 08:00 UTC
    expect(prompts).toHaveLength(0);
    await pass(4); // into 09:00-10:00
    expect(prompts.length).toBeGreaterThan(0);
  });

  it('names a checklist line whose schedule it cannot read', async () => {
    const { pass, heartbeat, prompts } = harness({ checklist: '- Water plants @ every fortnight\n' });
    await pass(1);
    expect(heartbeat.state().problems[0]).toMatch(/HEARTBEAT\.md line 1: schedule "every fortnight"/);
    expect(prompts).toHaveLength(0);
  });
});
