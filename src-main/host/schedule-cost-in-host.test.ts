import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { HeartbeatEvent } from '../protocol/events.js';
import type { UsageSummaryResult } from '../protocol/methods/usage.js';
import { createFakeClock } from '../testing/fake-clock.js';
import { type ProductFixture, startProductFixture } from '../testing/product-fixture.js';
import type { AnyFrame } from '../testing/raw-gateway-socket.js';

// What a cron run and a heartbeat cost, as the Schedule view reads it: each run has its own
// session, and the usage meter's per-session totals answer for exactly that run's calls.

const start = Date.UTC(2026, 0, 5, 12, 0);
const clock = createFakeClock(start);
let product: ProductFixture;

beforeAll(async () => {
  product = await startProductFixture({ clock, config: { heartbeat: { tz: 'UTC' } } });
});
afterAll(async () => {
  await product?.close();
});

async function sessionUsage(sessionKey: string) {
  const summary = await product.socket.request('usage.summary', { topSessions: 100 });
  expect(summary.error).toBeUndefined();
  return (summary.payload as UsageSummaryResult).topSessions.find((row) => row.sessionKey === sessionKey);
}

describe('the cost of scheduled work, per run', () => {
  it("a cron run's session carries exactly that run's model call in the usage meter", async () => {
    const added = await product.socket.request('cron.add', { name: 'digest', schedule: 'every 1h', message: 'go' });
    const id = (added.payload as { job: { id: string } }).job.id;
    product.llm.reset();
    product.llm.script([{ type: 'text', text: 'Done.' }]);
    const started = await product.socket.request('cron.run', { id });
    const { runId, sessionKey } = started.payload as { runId: string; sessionKey: string };
    await product.socket.next(
      (f: AnyFrame) => f.event === 'cron.changed' && (f.payload as { runId?: string }).runId === runId,
      30_000,
    );
    expect(product.llm.requests).toHaveLength(1);
    const row = await sessionUsage(sessionKey);
    expect(row).toMatchObject({ calls: 1, agentId: 'main' });
    expect(row!.totalTokens).toBeGreaterThan(0);
    await product.socket.request('cron.remove', { id });
  });

  it('a heartbeat turn is metered under the heartbeat session and purpose; quiet beats add nothing', async () => {
    await writeFile(join(product.host.paths.workspaceDir('main'), 'HEARTBEAT.md'), '- Calendar @ 0 13 * * *\n');
    product.llm.reset();
    product.llm.script([{ type: 'text', text: 'HEARTBEAT_OK' }]);
    // 12:00 → 14:00 in four beats: the 13:00 item is due once.
    for (let beat = 1; beat <= 4; beat++) {
      clock.advance(30 * 60_000);
      const at = clock.now();
      await product.socket.next(
        (f: AnyFrame) => f.event === 'heartbeat' && (f.payload as HeartbeatEvent).atMs === at,
        30_000,
      );
    }
    expect(product.llm.requests).toHaveLength(1);
    expect(await sessionUsage('agent:main:heartbeat')).toMatchObject({ calls: 1 });
    const summary = (await product.socket.request('usage.summary', {})).payload as UsageSummaryResult;
    expect(summary.byPurpose.find((row) => row.purpose === 'heartbeat')).toMatchObject({ calls: 1 });
  });
});
