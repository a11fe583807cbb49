import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCliCaptured } from '../../testing/cli-run.js';
import { type ProductFixture, startProductFixture } from '../../testing/product-fixture.js';

// `hearth cron …` through the CLI's own code path against a running product (fake LLM).

let product: ProductFixture;
beforeAll(async () => {
  product = await startProductFixture();
});
afterAll(async () => {
  await product?.close();
});

const cli = (args: string[]) =>
  runCliCaptured(args, { HEARTH_HOME: product.home, HEARTH_PORT: String(product.host.port) });

describe('hearth cron', () => {
  it('adds, lists, runs, shows the history and removes a job', async () => {
    const added = await cli([
      'cron',
      'add',
      'morning',
      '--schedule',
      '0 8 * * 1-5',
      '--tz',
      'America/New_York',
      '--message',
      'summarise my inbox',
      '--json',
    ]);
    expect(added.code).toBe(0);
    const job = JSON.parse(added.stdout) as { id: string; nextRunAtMs: number };
    expect(new Date(job.nextRunAtMs).getUTCMinutes()).toBe(0);

    const listed = await cli(['cron', 'list']);
    expect(listed.stdout).toContain(`${job.id}  morning  0 8 * * 1-5 (America/New_York)  main/isolated  next `);

    product.llm.script([{ type: 'text', text: 'Inbox is quiet.' }]);
    const started = await cli(['cron', 'run', job.id]);
    expect(started.stdout).toMatch(new RegExp(`^started cron-${job.id}-\\w+ in agent:main:cron:`));
    await product.socket.next(
      (frame) => frame.event === 'cron.changed' && (frame.payload as { reason: string }).reason === 'run',
      30_000,
    );
    const runs = await cli(['cron', 'runs', job.id]);
    expect(runs.stdout).toMatch(/ok \(manual\) {2}Inbox is quiet\./);

    const removed = await cli(['cron', 'remove', job.id]);
    expect(removed.stdout).toBe(`removed ${job.id} "morning"\n`);
    expect((await cli(['cron', 'list'])).stdout).toBe('no scheduled jobs\n');
  });

  it('says what is wrong with a bad schedule and adds nothing', async () => {
    const bad = await cli(['cron', 'add', 'x', '--schedule', 'at tomorrow', '--message', 'x']);
    expect(bad.code).not.toBe(0);
    expect(bad.stderr).toMatch(/schedule "at tomorrow": a one-shot time is an ISO time with its offset/);
    expect((await cli(['cron', 'list'])).stdout).toBe('no scheduled jobs\n');
  });
});
