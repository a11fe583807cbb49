import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CronChangedEvent, HeartbeatEvent } from '../protocol/events.js';
import type { CronJobView, CronRunsResult } from '../protocol/methods/cron.js';
import type { StatusResult } from '../protocol/methods/gateway.js';
import { waitForChannelConnected } from '../testing/channel-ready.js';
import { createFakeClock } from '../testing/fake-clock.js';
import { type FakeTelegramServer, startFakeTelegramServer } from '../testing/fake-telegram-server.js';
import { type ProductFixture, startProductFixture } from '../testing/product-fixture.js';
import { storeTestSecrets } from '../testing/test-secrets.js';

// Background work reaching the person where they are (issue 16): a cron job's result and a
// heartbeat's reply delivered to Telegram, as its user sees them in the chat, and the refusals
// a person would want (a stranger's chat, a channel that is not there) recorded with the run.

const OWNER = { id: 4242, first_name: 'Olive', username: 'olive' };
const STRANGER = 9191;
const minute = 60_000;
// 17:40 UTC: the first beat (18:10) finds the 18:00 checklist item due.
const start = Date.UTC(2026, 0, 5, 17, 40);
const clock = createFakeClock(start);
let telegram: FakeTelegramServer;
let product: ProductFixture;

beforeAll(async () => {
  telegram = await startFakeTelegramServer();
  product = await startProductFixture({
    clock,
    config: {
      memory: { recall: { enabled: false }, identityLinks: { owner: [`telegram:${OWNER.id}`] } },
      heartbeat: { tz: 'UTC', delivery: 'owner' },
      channels: {
        telegram: { apiBaseUrl: telegram.url, pollTimeoutSeconds: 1, allowFrom: [String(OWNER.id)] },
      },
    },
    before: async (home) => {
      await storeTestSecrets(home, { 'channels.telegram.token': telegram.token });
    },
  });
  await waitForChannelConnected(product.socket, 'telegram');
}, 60_000);

afterAll(async () => {
  await product?.close();
  await telegram?.close();
});

async function addJob(name: string, delivery: string): Promise<CronJobView> {
  const added = await product.socket.request('cron.add', { name, schedule: 'every 1d', message: 'go', delivery });
  expect(added.error).toBeUndefined();
  return (added.payload as { job: CronJobView }).job;
}

/** Runs a job now and resolves with its `cron.changed` run event. */
async function runJob(job: CronJobView): Promise<Extract<CronChangedEvent, { reason: 'run' }>> {
  const seen = product.socket.frames.length;
  const started = await product.socket.request('cron.run', { id: job.id });
  expect(started.error).toBeUndefined();
  const frame = await product.socket.next(
    (f) =>
      f.event === 'cron.changed' &&
      (f.payload as CronChangedEvent).reason === 'run' &&
      (f.payload as { jobId: string }).jobId === job.id &&
      product.socket.frames.indexOf(f) >= seen,
    30_000,
  );
  return frame.payload as Extract<CronChangedEvent, { reason: 'run' }>;
}

const plain = (text: string) => text.replaceAll('\\', '');

describe('cron results delivered to a channel', () => {
  it("a job delivering to the owner's Telegram chat sends the whole reply there, under the job's name", async () => {
    const job = await addJob('Morning summary', `telegram:${OWNER.id}`);
    expect(job.delivery).toBe(`telegram:${OWNER.id}`);
    product.llm.script([{ type: 'text', text: 'Three emails need you today.' }]);
    const ran = await runJob(job);
    expect(ran).toMatchObject({ status: 'ok', delivered: { to: `telegram:${OWNER.id}`, status: 'sent' } });
    const message = await telegram.waitForBotMessage(OWNER.id, (m) => plain(m.text).includes('Three emails'));
    expect(plain(message.text)).toContain('Morning summary');

    const runs = await product.socket.request('cron.runs', { jobId: job.id });
    expect((runs.payload as CronRunsResult).runs[0]?.delivery).toMatchObject({ status: 'sent' });
  });

  it('`owner` reaches the owner on every linked channel, and a failed run is reported there too', async () => {
    const job = await addJob('Backup check', 'owner');
    product.llm.script([{ type: 'error', error: 'model_not_found' }]);
    const ran = await runJob(job);
    expect(ran.status).toBe('error');
    expect(ran.delivered).toMatchObject({ to: 'owner', status: 'sent' });
    const message = await telegram.waitForBotMessage(OWNER.id, (m) => plain(m.text).includes('Backup check'));
    expect(plain(message.text)).toMatch(/did not run/);
  });

  it('a chat of someone who may not write to the agent is refused, and the run says why', async () => {
    const job = await addJob('Spam', `telegram:${STRANGER}`);
    product.llm.script([{ type: 'text', text: 'Hello stranger.' }]);
    const ran = await runJob(job);
    expect(ran.status).toBe('ok');
    expect(ran.delivered?.status).toBe('failed');
    expect(ran.delivered?.detail).toMatch(/not paired .* or on its allowFrom/);
    expect(telegram.botMessages(STRANGER)).toHaveLength(0);
  });

  it('a channel that is not installed is a failed delivery naming the channels there are', async () => {
    const job = await addJob('Elsewhere', 'matrix:@olive:example.org');
    product.llm.script([{ type: 'text', text: 'Hi.' }]);
    const ran = await runJob(job);
    expect(ran.delivered).toMatchObject({ status: 'failed' });
    expect(ran.delivered?.detail).toMatch(/no channel "matrix" \(channels: .*telegram/);
  });

  it('a malformed delivery is refused when the job is added, naming the field', async () => {
    for (const delivery of ['telegram', 'Telegram:42', 'telegram:', 'telegram:group:', 'slack:has space']) {
      const added = await product.socket.request('cron.add', {
        name: 'x',
        schedule: 'every 1d',
        message: 'go',
        delivery,
      });
      expect(added.error?.message, delivery).toMatch(/delivery/);
    }
    const listed = await product.socket.request('cron.list', {});
    expect((listed.payload as { jobs: CronJobView[] }).jobs.map((job) => job.name)).not.toContain('x');
  });
});

describe('heartbeat replies delivered to a channel', () => {
  it('a due checklist item makes one heartbeat turn whose reply reaches the owner on Telegram', async () => {
    await writeFile(
      join(product.host.paths.workspaceDir('main'), 'HEARTBEAT.md'),
      '# Heartbeat\n- Remind me to water the plants @ 0 18 * * *\n',
    );
    product.llm.reset();
    product.llm.script([{ type: 'text', text: 'Time to water the plants.' }]);
    clock.advance(30 * minute);
    const beat = await product.socket.next(
      (f) => f.event === 'heartbeat' && (f.payload as HeartbeatEvent).status !== 'quiet',
      30_000,
    );
    expect(beat.payload).toMatchObject({ status: 'delivered', delivery: { to: 'owner', status: 'sent' } });
    await telegram.waitForBotMessage(OWNER.id, (m) => plain(m.text).includes('water the plants'));
    expect(product.llm.requests).toHaveLength(1);
    const status = await product.socket.request('status', {});
    expect((status.payload as StatusResult).heartbeat).toMatchObject({
      delivery: 'owner',
      lastResult: { status: 'delivered', delivery: { status: 'sent' } },
    });
  });
});
