import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { HeartbeatEvent } from '../protocol/events.js';
import type { StatusResult } from '../protocol/methods/gateway.js';
import { createFakeClock } from '../testing/fake-clock.js';
import { type ProductFixture, startProductFixture } from '../testing/product-fixture.js';

// Events as heartbeat reasons (a watched workspace file that changed) and counters that survive a
// restart, in the composed product on a fake clock with the fake LLM counting every model call.

const minute = 60_000;
const interval = 30 * minute;
const start = Date.UTC(2026, 0, 5, 0, 0);
const clock = createFakeClock(start);
let product: ProductFixture;
let beats = 0;

beforeAll(async () => {
  product = await startProductFixture({
    clock,
    config: { heartbeat: { tz: 'UTC', watch: ['inbox.md'] } },
    // What a previous run of the gateway left: the counters continue from it.
    before: async (home) => {
      await mkdir(join(home, 'state'), { recursive: true });
      await writeFile(
        join(home, 'state', 'heartbeat.json'),
        JSON.stringify({ version: 1, turns: 3, quietBeats: 40, lastBeatAtMs: start - interval }),
      );
    },
  });
});
afterAll(async () => {
  await product?.close();
});

async function heartbeatStatus(): Promise<StatusResult['heartbeat']> {
  const status = await product.socket.request('status', {});
  expect(status.error).toBeUndefined();
  return (status.payload as StatusResult).heartbeat;
}

async function passInterval(): Promise<HeartbeatEvent> {
  beats++;
  const at = start + beats * interval;
  clock.advance(interval);
  const frame = await product.socket.next(
    (f) => f.event === 'heartbeat' && (f.payload as HeartbeatEvent).atMs === at,
    30_000,
  );
  return frame.payload as HeartbeatEvent;
}

describe('heartbeat reasons and counters in the product', () => {
  it('continues the counters a previous run kept', async () => {
    expect(await heartbeatStatus()).toMatchObject({ turns: 3, quietBeats: 40, watch: ['inbox.md'], pendingEvents: 0 });
  });

  it('an idle beat makes no model call; a change to a watched file makes the next beat call the model once', async () => {
    const before = product.llm.requests.length;
    await passInterval();
    expect(product.llm.requests.length).toBe(before);

    await writeFile(join(product.host.paths.workspaceDir('main'), 'inbox.md'), '- call the plumber\n');
    // The watcher's event waits for the next beat; status shows it waiting.
    await vi.waitFor(async () => expect((await heartbeatStatus())?.pendingEvents).toBeGreaterThan(0), {
      timeout: 15_000,
    });
    await passInterval();
    expect(product.llm.requests.length).toBe(before + 1);
    expect(JSON.stringify(product.llm.requests.at(-1)?.body)).toContain('inbox.md');

    await passInterval();
    expect(product.llm.requests.length).toBe(before + 1);
    expect(await heartbeatStatus()).toMatchObject({ turns: 4, quietBeats: 42, pendingEvents: 0 });
  });

  it('keeps the counters on disk after each beat, for the next start', async () => {
    await vi.waitFor(
      async () =>
        expect(JSON.parse(await readFile(join(product.home, 'state', 'heartbeat.json'), 'utf8'))).toMatchObject({
          turns: 4,
          quietBeats: 42,
        }),
      { timeout: 10_000 },
    );
  });
});
