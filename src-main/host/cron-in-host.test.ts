import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CronJobView } from '../protocol/methods/cron.js';
import { chatTurn } from '../testing/chat-turn.js';
import { type ProductFixture, startProductFixture } from '../testing/product-fixture.js';
import type { AnyFrame } from '../testing/raw-gateway-socket.js';

// Cron in the composed product, with the fake LLM: a cron run goes through the agent runtime
// as a `cron` run; it cannot schedule jobs itself, and an approval nobody answers is denied.

let product: ProductFixture;

beforeAll(async () => {
  product = await startProductFixture({
    // A short approval wait so the unanswered request reaches askFallback within the test.
    config: { tools: { exec: { approvalTimeoutMs: 200 } } },
  });
});
afterAll(async () => {
  await product?.close();
});

const cronRunEnd = (runId: string) => (frame: AnyFrame) =>
  frame.event === 'cron.changed' &&
  (frame.payload as { reason: string; runId?: string }).reason === 'run' &&
  (frame.payload as { runId: string }).runId === runId;

async function addJob(name: string, message: string): Promise<string> {
  const added = await product.socket.request('cron.add', {
    name,
    schedule: '0 8 * * 1-5',
    tz: 'America/New_York',
    message,
  });
  expect(added.error).toBeUndefined();
  return (added.payload as { job: { id: string } }).job.id;
}

async function runJob(id: string): Promise<{ run: Record<string, unknown>; sessionKey: string }> {
  const started = await product.socket.request('cron.run', { id });
  expect(started.error).toBeUndefined();
  const { runId, sessionKey } = started.payload as { runId: string; sessionKey: string };
  const end = await product.socket.next(cronRunEnd(runId), 30_000);
  return { run: end.payload as Record<string, unknown>, sessionKey };
}

describe('cron through the gateway', () => {
  it('lists, runs and records a job; the run is a cron run in its own session', async () => {
    const id = await addJob('inbox', 'summarise my inbox');
    const listed = await product.socket.request('cron.list', {});
    expect(listed.payload).toMatchObject({ jobs: [{ id, name: 'inbox', session: 'isolated', enabled: true }] });
    product.llm.script([{ type: 'text', text: 'Three new mails, none urgent.' }]);
    const { run, sessionKey } = await runJob(id);
    expect(run).toMatchObject({ status: 'ok', summary: 'Three new mails, none urgent.', delivery: 'ui' });
    expect(sessionKey).toMatch(new RegExp(`^agent:main:cron:${id}\\.`));
    const runs = await product.socket.request('cron.runs', { jobId: id });
    expect(runs.payload).toMatchObject({ runs: [{ jobId: id, status: 'ok', trigger: 'manual', sessionKey }] });
    const status = await product.socket.request('cron.status', {});
    expect(status.payload).toMatchObject({ enabled: true, catchUp: 'once', jobs: 1 });
    await product.socket.request('cron.remove', { id });
  });

  it('a person can schedule a job from chat, but a cron-started run cannot', async () => {
    const addCall = {
      type: 'tool_calls' as const,
      calls: [{ name: 'cron_add', input: { name: 'spawned', schedule: 'every 1h', message: 'more' } }],
    };
    // A person's turn: the tool works (so the refusal below is about the run kind, nothing else).
    product.llm.script([addCall, { type: 'text', text: 'Scheduled.' }]);
    expect(await chatTurn(product.socket, { key: 'cron-chat-1', message: 'remind me hourly' }, 20_000)).toMatchObject({
      state: 'final',
    });
    const afterChat = (await product.socket.request('cron.list', {})).payload as {
      jobs: { id: string; name: string }[];
    };
    expect(afterChat.jobs.map((job) => job.name)).toEqual(['spawned']);

    const id = await addJob('sneaky', 'schedule yourself again');
    product.llm.script([addCall, { type: 'text', text: 'Tried.' }]);
    const { run } = await runJob(id);
    expect(run).toMatchObject({ status: 'ok' });
    const toolResult = JSON.stringify(product.llm.requests.at(-1)!.body);
    expect(toolResult).toContain('a run started by a cron job cannot create or edit cron jobs');
    const jobs = (await product.socket.request('cron.list', {})).payload as { jobs: { id: string; name: string }[] };
    expect(jobs.jobs.map((job) => job.name).sort()).toEqual(['sneaky', 'spawned']);
    for (const job of jobs.jobs) await product.socket.request('cron.remove', { id: job.id });
  });

  it('the model may send a job to the owner, but never to a chat it names', async () => {
    product.llm.script([
      {
        type: 'tool_calls',
        calls: [
          { name: 'cron_add', input: { name: 'to-owner', schedule: 'every 1h', message: 'ping', deliver: 'owner' } },
          {
            name: 'cron_add',
            input: { name: 'to-stranger', schedule: 'every 1h', message: 'ping', deliver: 'telegram:666' },
          },
          {
            name: 'cron_add',
            input: { name: 'sneaky-field', schedule: 'every 1h', message: 'ping', delivery: 'telegram:666' },
          },
        ],
      },
      { type: 'text', text: 'Done.' },
    ]);
    expect(await chatTurn(product.socket, { key: 'cron-chat-2', message: 'remind me' }, 20_000)).toMatchObject({
      state: 'final',
    });
    const jobs = (await product.socket.request('cron.list', {})).payload as { jobs: CronJobView[] };
    expect(jobs.jobs.map((job) => [job.name, job.delivery])).toEqual([['to-owner', 'owner']]);
    for (const job of jobs.jobs) await product.socket.request('cron.remove', { id: job.id });
  });

  it('an approval in a cron run that nobody answers falls back to deny (askFallback)', async () => {
    await writeFile(join(product.home, 'workspace', 'secret-plan.txt'), 'never-printed');
    const id = await addJob('reader', 'read the plan');
    product.llm.script([
      { type: 'tool_calls', calls: [{ name: 'exec', input: { command: 'cat secret-plan.txt' } }] },
      { type: 'text', text: 'Could not read it.' },
    ]);
    const mark = product.socket.frames.length;
    const { run } = await runJob(id);
    expect(run).toMatchObject({ status: 'ok' });
    const after = product.socket.frames.slice(mark);
    // Someone could have answered (this admin socket holds operator.approvals) but did not.
    expect(after.some((f) => f.event === 'exec.approval.requested')).toBe(true);
    const resolved = after.find((f) => f.event === 'exec.approval.resolved')?.payload;
    expect(resolved).toMatchObject({ decision: 'deny', resolvedBy: 'expiry' });
    const lastRequest = JSON.stringify(product.llm.requests.at(-1)!.body);
    expect(lastRequest).not.toContain('never-printed');
    expect(lastRequest).toMatch(/askFallback is deny/);
    await product.socket.request('cron.remove', { id });
  });

  it('refuses a bad schedule with a clear error', async () => {
    const bad = await product.socket.request('cron.add', { name: 'x', schedule: 'every fortnight', message: 'x' });
    expect(bad.error?.message).toMatch(/schedule "every fortnight"/);
  });
});
