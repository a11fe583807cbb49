import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { HeartbeatEvent } from '../protocol/events.js';
import type { StatusResult } from '../protocol/methods/gateway.js';
import { createFakeClock } from '../testing/fake-clock.js';
import { type ProductFixture, startProductFixture } from '../testing/product-fixture.js';

// The heartbeat in the composed product, on a fake clock and the fake LLM: every request the
// model server sees is counted, so "no model call while idle" is measured, not assumed.

const minute = 60_000;
const interval = 30 * minute;
const start = Date.UTC(2026, 0, 5, 0, 0);
const clock = createFakeClock(start);
let product: ProductFixture;
let beats = 0;

beforeAll(async () => {
  product = await startProductFixture({ clock, config: { heartbeat: { tz: 'UTC' } } });
});
afterAll(async () => {
  await product?.close();
});

const checklist = (text: string) => writeFile(join(product.host.paths.workspaceDir('main'), 'HEARTBEAT.md'), text);

/** Moves the clock one interval at a time and waits for each beat's `heartbeat` event. */
async function passIntervals(count: number): Promise<HeartbeatEvent[]> {
  const events: HeartbeatEvent[] = [];
  for (let i = 0; i < count; i++) {
    beats++;
    const at = start + beats * interval;
    clock.advance(interval);
    const frame = await product.socket.next(
      (f) => f.event === 'heartbeat' && (f.payload as HeartbeatEvent).atMs === at,
      30_000,
    );
    events.push(frame.payload as HeartbeatEvent);
  }
  return events;
}

async function heartbeatStatus(): Promise<StatusResult['heartbeat']> {
  const status = await product.socket.request('status', {});
  expect(status.error).toBeUndefined();
  return (status.payload as StatusResult).heartbeat;
}

describe('heartbeat in the product', () => {
  it('status reports the real heartbeat before any beat: on, every 30 minutes, next beat due', async () => {
    expect(await heartbeatStatus()).toMatchObject({
      enabled: true,
      intervalMs: interval,
      nextAt: start + interval,
      tz: 'UTC',
      turns: 0,
      problems: [],
    });
  });

  it('a simulated idle day (48 intervals, nothing due) makes 0 model calls', async () => {
    await checklist('# Heartbeat\n- Look over the inbox when something arrives\n- Weekly review @ 0 17 * * 5\n');
    product.llm.reset();
    const events = await passIntervals(48);
    expect(product.llm.requests).toHaveLength(0);
    expect(events.every((event) => event.status === 'quiet')).toBe(true);
    expect(await heartbeatStatus()).toMatchObject({
      enabled: true,
      lastAt: start + 48 * interval,
      nextAt: start + 49 * interval,
      turns: 0,
      lastResult: { status: 'quiet', reasons: [] },
    });
  });

  it('a day with one due item makes exactly one model call, a heartbeat turn with HEARTBEAT.md only', async () => {
    await checklist('# Heartbeat\n- Check the calendar for tomorrow @ 0 18 * * *\n');
    product.llm.reset();
    product.llm.script([{ type: 'text', text: 'HEARTBEAT_OK' }]);
    const events = await passIntervals(48);
    expect(product.llm.requests).toHaveLength(1);
    const request = product.llm.requests[0]!;
    expect(request.lastUserText).toContain('due: Check the calendar for tomorrow');
    const messages = request.body.messages as { role: string; content: unknown }[];
    const system = JSON.stringify(messages.filter((message) => message.role === 'system'));
    expect(system).toContain('Check the calendar for tomorrow @ 0 18');
    // The heartbeat bootstrap: none of a person's turn's workspace files (SOUL.md, AGENTS.md).
    expect(system).not.toContain('Be genuinely helpful');
    expect(system).not.toContain('Each session starts fresh');
    const turns = events.filter((event) => event.status !== 'quiet');
    // Nothing to report: the beat is recorded, nothing is delivered.
    expect(turns).toEqual([
      expect.objectContaining({ status: 'ok', atMs: Date.UTC(2026, 0, 6, 18, 0), sessionKey: 'agent:main:heartbeat' }),
    ]);
    expect(turns[0]?.summary).toBeUndefined();
    expect(await heartbeatStatus()).toMatchObject({ turns: 1 });
  });

  it('a reply with something to say is delivered, and status shows it as the last result', async () => {
    product.llm.reset();
    product.llm.script([{ type: 'text', text: 'Two meetings tomorrow, the first at 9.' }]);
    const events = await passIntervals(48);
    expect(product.llm.requests).toHaveLength(1);
    const delivered = events.find((event) => event.status === 'delivered');
    expect(delivered).toMatchObject({ agentId: 'main', summary: 'Two meetings tomorrow, the first at 9.' });
    // Quiet beats after it do not hide it: status keeps the last beat, its result says what happened since.
    const status = await heartbeatStatus();
    expect(status.turns).toBe(2);
    expect(status.lastResult).toMatchObject({ status: 'quiet' });
  });

  it('a failed cron job wakes the next beat once; a checklist line it cannot read is named in status', async () => {
    await checklist('- Water the plants @ every fortnight\n');
    const added = await product.socket.request('cron.add', {
      name: 'inbox digest',
      schedule: 'every 1h',
      message: 'summarise my inbox',
      enabled: false,
    });
    const id = (added.payload as { job: { id: string } }).job.id;
    product.llm.reset();
    product.llm.script([{ type: 'error', error: 'model_not_found' }]);
    const started = await product.socket.request('cron.run', { id });
    const { runId } = started.payload as { runId: string };
    await product.socket.next(
      (f) => f.event === 'cron.changed' && (f.payload as { runId?: string }).runId === runId,
      30_000,
    );
    product.llm.script([{ type: 'text', text: 'HEARTBEAT_OK' }]);
    const before = product.llm.requests.length;
    const [first, second] = await passIntervals(2);
    expect(first).toMatchObject({ status: 'ok', reasons: ['failed jobs: inbox digest'] });
    expect(second).toMatchObject({ status: 'quiet' });
    expect(product.llm.requests.length - before).toBe(1);
    expect((await heartbeatStatus()).problems).toEqual([
      expect.stringMatching(/^HEARTBEAT\.md line 1: schedule "every fortnight"/),
    ]);
    await product.socket.request('cron.remove', { id });
  });

  it('a config change applies at once: off means no beats at all, on again restarts the timer', async () => {
    const off = await product.socket.request('config.patch', { patch: { heartbeat: { enabled: false } } });
    expect(off.error).toBeUndefined();
    // config.patch answers once the change is applied (ConfigService fires its listeners first).
    const status = await heartbeatStatus();
    expect(status).toMatchObject({ enabled: false });
    expect(status.nextAt).toBeUndefined();
    const before = product.llm.requests.length;
    await checklist('- Stretch @ every 1h\n');
    clock.advance(4 * interval);
    beats += 4;
    expect(product.llm.requests.length).toBe(before);
    const on = await product.socket.request('config.patch', {
      patch: { heartbeat: { intervalMinutes: 60, enabled: true } },
    });
    expect(on.error).toBeUndefined();
    expect(await heartbeatStatus()).toMatchObject({
      enabled: true,
      intervalMs: 60 * minute,
      nextAt: clock.now() + 60 * minute,
    });
  });

  it("a person's turn still gets the whole workspace (what the heartbeat turn leaves out)", async () => {
    product.llm.reset();
    product.llm.script([{ type: 'text', text: 'Hello.' }]);
    expect(await product.turn('heartbeat-contrast', 'hi')).toMatchObject({ state: 'final' });
    const messages = product.llm.requests[0]!.body.messages as { role: string; content: unknown }[];
    const system = JSON.stringify(messages.filter((message) => message.role === 'system'));
    expect(system).toContain('Be genuinely helpful');
    expect(system).toContain('Each session starts fresh');
  });
});
