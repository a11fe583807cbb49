import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chatTurn } from '../testing/chat-turn.js';
import { type FakeLlmServer, startFakeLlmServer } from '../testing/fake-llm/index.js';
import { fakeOpenAiConfig } from '../testing/product-fixture.js';
import { connectRaw, type RawGatewaySocket } from '../testing/raw-gateway-socket.js';
import { createTempHome } from '../testing/temp-home.js';
import { startTestHost, type TestHost } from '../testing/test-host.js';

// The usage meter in the composed product: a scripted session (a chat turn, its tool loop with
// the smart-approval judge, long turns that compact, a cron run) is metered to the token; a used-up cap
// stops the next turn before anything is sent; a restart keeps the month.

let llm: FakeLlmServer;
let temp: { home: string; cleanup(): Promise<void> };
let host: TestHost | undefined;

beforeAll(async () => {
  llm = await startFakeLlmServer();
  llm.setDefault({ type: 'text', text: 'SUMMARY: we planned the Lisbon trip; leave on 2026-12-12.' });
  temp = await createTempHome();
  await writeFile(
    join(temp.home, 'hearth.json'),
    JSON.stringify({
      ...fakeOpenAiConfig(llm, { contextWindow: 8_000 }),
      memory: { recall: { enabled: false } },
      tools: { exec: { approvals: { mode: 'smart', model: 'openai/gpt-4o-mini' } } },
      usage: { timeZone: 'UTC' },
    }),
  );
});
afterAll(async () => {
  await host?.close();
  await llm?.close();
  await temp?.cleanup();
});

async function start(): Promise<RawGatewaySocket> {
  host = await startTestHost({ home: temp.home, env: { HEARTH_SECRET_STORE: 'file' } });
  const { socket } = await connectRaw(host.wsUrl, { token: host.token, scopes: ['operator.admin'] });
  return socket;
}

async function summary(socket: RawGatewaySocket) {
  const response = await socket.request('usage.summary', {});
  expect(response.ok).toBe(true);
  return response.payload as {
    today: { calls: number; inputTokens: number; outputTokens: number; cachedInputTokens: number; costUsd: number };
    month: { calls: number; totalTokens: number };
    byPurpose: { purpose: string; calls: number }[];
    topSessions: { sessionKey: string }[];
    limits: { scope: string; period: string; state: string }[];
  };
}

function reported() {
  const calls = llm.requests.filter((request) => request.reportedUsage);
  return {
    calls: calls.length,
    inputTokens: calls.reduce((sum, r) => sum + r.reportedUsage!.input, 0),
    outputTokens: calls.reduce((sum, r) => sum + r.reportedUsage!.output, 0),
    cachedInputTokens: calls.reduce((sum, r) => sum + r.reportedUsage!.cached, 0),
  };
}

describe('usage meter in the host', () => {
  it('counts every call of a session, stops at the cap with budget_exhausted, and keeps the month over a restart', async () => {
    let socket = await start();
    await socket.request('auth.profiles.set', { id: 'k', provider: 'openai', type: 'api_key', secret: 'sk-usage' });
    await writeFile(join(temp.home, 'workspace', 'notes.txt'), 'metered-notes');

    // A chat turn with a tool loop; the judge (gpt-4o-mini) approves the command.
    llm.script([{ type: 'text', text: 'APPROVE', cachedTokens: 0 }], { model: 'gpt-4o-mini' });
    llm.script(
      [
        { type: 'tool_calls', calls: [{ name: 'exec', input: { command: 'cat notes.txt' } }], cachedTokens: 40 },
        { type: 'text', text: 'Read it.', cachedTokens: 60 },
      ],
      { model: 'gpt-4o' },
    );
    expect(await chatTurn(socket, { key: 'u-tool', message: 'read my notes' })).toMatchObject({ state: 'final' });
    // Long turns on a small window: the history is compacted (a summary call of its own).
    const filler = 'We talked about the itinerary in great detail. '.repeat(120);
    for (let i = 0; i < 8; i++)
      expect(await chatTurn(socket, { key: `u-long-${i}`, message: `LONG-${i} ${filler}` })).toMatchObject({
        state: 'final',
      });

    // A cron run (background work): its own purpose and session.
    const added = await socket.request('cron.add', {
      name: 'digest',
      schedule: 'every 1d',
      message: 'summarise the day',
      delivery: 'none',
    });
    expect(added.ok).toBe(true);
    const jobId = (added.payload as { job: { id: string } }).job.id;
    llm.script([{ type: 'text', text: 'A quiet day.' }], { model: 'gpt-4o' });
    const cronRun = await socket.request('cron.run', { id: jobId });
    expect(cronRun.ok).toBe(true);
    const cronSession = (cronRun.payload as { sessionKey: string }).sessionKey;
    await socket.next(
      (frame) => frame.event === 'cron.changed' && (frame.payload as { reason: string }).reason === 'run',
      30_000,
    );

    const metered = await summary(socket);
    const sent = reported();
    expect(sent.calls).toBeGreaterThan(9);
    expect(metered.today).toMatchObject(sent);
    expect(metered.today.cachedInputTokens).toBe(100);
    expect(metered.today.costUsd).toBeGreaterThan(0);
    const purposes = Object.fromEntries(metered.byPurpose.map((row) => [row.purpose, row.calls]));
    expect(purposes).toMatchObject({ approval: 1, tool_loop: 1, cron: 1 });
    expect(purposes.chat).toBeGreaterThanOrEqual(9);
    expect(purposes.compaction).toBeGreaterThanOrEqual(1);
    expect(metered.topSessions[0]?.sessionKey).toBe('agent:main:main');
    expect(metered.topSessions.map((row) => row.sessionKey)).toContain(cronSession);

    // Bad input is refused, naming what is wrong.
    const noAgent = await socket.request('usage.limits.set', { scope: 'agent', period: 'day', tokens: 5 });
    expect(noAgent.ok).toBe(false);
    expect(noAgent.error?.message).toMatch(/scope "agent" needs an agentId/);
    const negative = await socket.request('usage.limits.set', { scope: 'global', period: 'day', tokens: -5 });
    expect(negative.ok).toBe(false);
    expect(negative.error?.message).toMatch(/tokens/);

    // A cap below what was used: the person is told, and the next turn sends nothing.
    const set = await socket.request('usage.limits.set', { scope: 'global', period: 'month', tokens: 1000 });
    expect(set.ok).toBe(true);
    const announced = await socket.next((frame) => frame.event === 'usage.limit');
    expect(announced.payload).toMatchObject({ scope: 'global', period: 'month', state: 'exhausted' });
    const before = llm.requests.length;
    const refused = await chatTurn(socket, { key: 'u-refused', message: 'one more?' });
    expect(refused).toMatchObject({ state: 'error', reason: 'budget_exhausted' });
    expect(String(refused.errorMessage)).toMatch(
      /the spend limit is reached.*the monthly overall limit \(1,000 tokens\) is used up/,
    );
    expect(llm.requests.length).toBe(before);

    // Restart mid-month: the same totals, the cap still holds; raising it lets the next turn through.
    socket.close();
    await host!.close();
    host = undefined;
    socket = await start();
    const after = await summary(socket);
    expect(after.month).toEqual(metered.month);
    expect(after.limits).toContainEqual(expect.objectContaining({ scope: 'global', state: 'exhausted' }));
    const raised = await socket.request('usage.limits.set', { scope: 'global', period: 'month', tokens: null });
    expect(raised.ok).toBe(true);
    expect(await chatTurn(socket, { key: 'u-after', message: 'and now?' })).toMatchObject({ state: 'final' });
    expect((await summary(socket)).month.calls).toBe(metered.month.calls + 1);
    socket.close();
  }, 120_000);
  it('lets the call that crosses a cap finish, then stops the turn before its next call', async () => {
    const socket = (await connectRaw(host!.wsUrl, { token: host!.token, scopes: ['operator.admin'] })).socket;
    const used = (await summary(socket)).month.totalTokens;
    expect((await socket.request('usage.limits.set', { scope: 'global', period: 'month', tokens: used + 1 })).ok).toBe(
      true,
    );
    llm.script([{ type: 'tool_calls', calls: [{ name: 'not_a_tool', input: {} }] }], { model: 'gpt-4o' });
    const before = llm.requests.length;
    const ended = await chatTurn(socket, { key: 'u-mid-turn', message: 'use a tool' });
    expect(ended).toMatchObject({ state: 'error', reason: 'budget_exhausted' });
    // The first call ran to its end and was counted; the tool loop's call was never sent.
    expect(llm.requests.length).toBe(before + 1);
    const after = await summary(socket);
    expect(after.month.totalTokens).toBe(
      used + llm.requests.at(-1)!.reportedUsage!.input + llm.requests.at(-1)!.reportedUsage!.output,
    );
    expect((await socket.request('usage.limits.set', { scope: 'global', period: 'month', tokens: null })).ok).toBe(
      true,
    );
    socket.close();
  }, 60_000);
});
