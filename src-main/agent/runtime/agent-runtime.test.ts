import { afterAll, afterEach, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { z } from 'zod';
import { createFakeClock } from '../../testing/fake-clock.js';
import { type FakeLlmServer, startFakeLlmServer } from '../../testing/fake-llm/index.js';
import {
  createRuntimeFixture,
  type RuntimeFixture,
  type RuntimeFixtureOptions,
} from '../../testing/fake-llm/runtime-fixture.js';
import type { ToolDefinition } from '../../tools/tool.js';

let server: FakeLlmServer;
let fixtures: RuntimeFixture[] = [];

beforeAll(async () => {
  server = await startFakeLlmServer();
});
afterAll(() => server.close());
afterEach(async () => {
  for (const fixture of fixtures) await fixture.close();
  fixtures = [];
  server.reset();
});

async function fixture(options: Partial<RuntimeFixtureOptions> = {}): Promise<RuntimeFixture> {
  const created = await createRuntimeFixture({
    server,
    profiles: [{ id: 'openai-a', provider: 'openai', secret: 'sk-key-AAAA' }],
    ...options,
  });
  fixtures.push(created);
  return created;
}

async function send(f: RuntimeFixture, sessionKey: string, message: string, key: string) {
  return f.call('chat.send', { sessionKey, message, idempotencyKey: key });
}

async function history(f: RuntimeFixture, sessionKey = 'main') {
  const outcome = await f.call('chat.history', { sessionKey });
  if (!outcome.ok) throw new Error(outcome.error.message);
  return outcome.payload as { messages: { kind: string; content: { text: string }[]; stopReason?: string }[] };
}

describe('chat.send through the registry against the fake LLM', () => {
  it('streams deltas and a final message with usage, and writes the transcript', async () => {
    const f = await fixture();
    server.script({ type: 'text', text: 'Hello there, friend.', chunkSize: 4, cachedTokens: 2 });
    const outcome = await send(f, 'main', 'hi', 'run-1');
    expect(outcome).toEqual({ ok: true, payload: { runId: 'run-1', status: 'started' } });
    const end = await f.chatEnd('run-1');
    expect(end).toMatchObject({ state: 'final', sessionKey: 'agent:main:main', stopReason: 'stop' });
    expect(end.message).toEqual({ role: 'assistant', content: [{ type: 'text', text: 'Hello there, friend.' }] });
    expect((end.usage as { cachedInputTokens: number }).cachedInputTokens).toBe(2);
    const deltas = f.chatEvents('run-1').filter((e) => e.state === 'delta');
    expect(deltas.map((d) => d.deltaText).join('')).toBe('Hello there, friend.');
    expect(f.chatEvents('run-1').map((e) => e.seq)).toEqual(f.chatEvents('run-1').map((_, i) => i + 1));
    const { messages } = await history(f);
    expect(messages.map((m) => [m.kind, m.content[0]?.text])).toEqual([
      ['user', 'hi'],
      ['assistant', 'Hello there, friend.'],
    ]);
  });

  it('dedupes by idempotency key: in_flight while running, ok after, conflict on other input, no duplicate message', async () => {
    const f = await fixture();
    server.script({ type: 'text', text: 'slow answer', firstTokenDelayMs: 300 });
    await send(f, 'main', 'hello', 'dup-1');
    expect(await send(f, 'main', 'hello', 'dup-1')).toEqual({
      ok: true,
      payload: { runId: 'dup-1', status: 'in_flight' },
    });
    await f.chatEnd('dup-1');
    expect(await send(f, 'main', 'hello', 'dup-1')).toEqual({ ok: true, payload: { runId: 'dup-1', status: 'ok' } });
    const conflict = await send(f, 'main', 'something else', 'dup-1');
    expect(conflict.ok).toBe(false);
    if (!conflict.ok) {
      expect(conflict.error.code).toBe('INVALID_REQUEST');
      expect(conflict.error.details).toMatchObject({ reason: 'chat-request-conflict' });
    }
    expect((await history(f)).messages.filter((m) => m.kind === 'user')).toHaveLength(1);
    expect(server.requests).toHaveLength(1);
  });

  it('rejects missing idempotency keys and empty messages with clear errors', async () => {
    const f = await fixture();
    const missing = await f.call('chat.send', { sessionKey: 'main', message: 'hi' });
    expect(!missing.ok && missing.error.message).toMatch(/idempotencyKey/);
    const empty = await send(f, 'main', '   ', 'e-1');
    expect(!empty.ok && empty.error.message).toMatch(/message is empty/);
    const badKey = await send(f, 'not a key', 'hi', 'e-2');
    expect(!badKey.ok && badKey.error.message).toMatch(/malformed session key/);
  });
});

describe('failover', () => {
  it('429 on profile A: the turn completes on profile B with no user-visible error', async () => {
    const f = await fixture({
      profiles: [
        { id: 'openai-a', provider: 'openai', secret: 'sk-key-AAAA' },
        { id: 'openai-b', provider: 'openai', secret: 'sk-key-BBBB' },
      ],
    });
    server.script({ type: 'error', error: 'rate_limit', retryAfterSeconds: 20 }, { apiKey: 'sk-key-AAAA' });
    server.script({ type: 'text', text: 'answered by B' }, { apiKey: 'sk-key-BBBB' });
    await send(f, 'main', 'hi', 'fo-1');
    const end = await f.chatEnd('fo-1');
    expect(end).toMatchObject({ state: 'final', message: { content: [{ text: 'answered by B' }] } });
    expect(f.chatEvents('fo-1').some((e) => e.state === 'error')).toBe(false);
    expect(server.requests.map((r) => r.keyTail)).toEqual(['AAAA', 'BBBB']);
    const health = await f.call('auth.profiles.list', {});
    const rows = (health as { payload: { profiles: { id: string; status: string; lastErrorReason?: string }[] } })
      .payload.profiles;
    expect(rows.find((r) => r.id === 'openai-a')).toMatchObject({ status: 'cooldown', lastErrorReason: 'rate_limit' });
  });

  it('billing on A: A stays skipped after a restart until its disable period ends', async () => {
    const clock = createFakeClock();
    const profiles = [
      { id: 'openai-a', provider: 'openai', secret: 'sk-key-AAAA' },
      { id: 'openai-b', provider: 'openai', secret: 'sk-key-BBBB' },
    ];
    const config = (s: FakeLlmServer) => ({
      providers: { openai: { kind: 'openai', baseURL: s.baseUrlFor('openai') } },
      auth: { billingDisableMs: 3_600_000 },
      model: { primary: 'openai/gpt-4o' },
    });
    const first = await fixture({ clock, profiles, config });
    server.script({ type: 'error', error: 'billing' }, { apiKey: 'sk-key-AAAA' });
    await send(first, 'main', 'hi', 'b-1');
    expect(await first.chatEnd('b-1')).toMatchObject({ state: 'final' });
    await first.close(false);
    fixtures = fixtures.filter((x) => x !== first);

    // Restart: a new runtime over the same HEARTH_HOME and keychain.
    const second = await fixture({ clock, config, home: first.home, profiles: [] });
    fixtures.push(first);
    server.reset();
    await send(second, 'main', 'again', 'b-2');
    await second.chatEnd('b-2');
    await send(second, 'main', 'and again', 'b-3');
    await second.chatEnd('b-3');
    expect(server.requests.map((r) => r.keyTail)).toEqual(['BBBB', 'BBBB']);

    clock.advance(3_600_000);
    server.reset();
    await send(second, 'main', 'later', 'b-4');
    await second.chatEnd('b-4');
    expect(server.requests.map((r) => r.keyTail)).toEqual(['AAAA']);
  });

  it('every profile of the primary failing: the fallback model answers', async () => {
    const f = await fixture({
      config: (s) => ({
        providers: {
          openai: { kind: 'openai', baseURL: s.baseUrlFor('openai') },
          anthropic: { kind: 'anthropic', baseURL: s.baseUrlFor('anthropic') },
        },
        model: { primary: 'openai/gpt-4o', fallbacks: ['anthropic/claude-sonnet-4-5'] },
      }),
      profiles: [
        { id: 'openai-a', provider: 'openai', secret: 'sk-key-AAAA' },
        { id: 'anthropic-a', provider: 'anthropic', secret: 'sk-ant-CCCC' },
      ],
    });
    server.script({ type: 'error', error: 'rate_limit' }, { model: 'gpt-4o' });
    server.script({ type: 'text', text: 'claude here' }, { model: 'claude-sonnet-4-5' });
    await send(f, 'main', 'hi', 'fb-1');
    expect(await f.chatEnd('fb-1')).toMatchObject({ state: 'final', model: 'anthropic/claude-sonnet-4-5' });
    const lifecycle = f.events
      .filter((e) => e.event === 'agent')
      .map((e) => (e.payload as { data: { phase?: string } }).data.phase);
    expect(lifecycle).toContain('fallback');
    expect(server.requests.map((r) => r.provider)).toEqual(['openai-chat', 'anthropic']);
  });

  it('all models failing: one clear error, transcript keeps the user message', async () => {
    const f = await fixture();
    server.script({ type: 'error', error: 'model_not_found' });
    await send(f, 'main', 'hi', 'nf-1');
    const end = await f.chatEnd('nf-1');
    expect(end.state).toBe('error');
    expect(end.errorMessage).toMatch(/openai\/gpt-4o: the provider does not know this model/);
    expect((await history(f)).messages.map((m) => m.kind)).toEqual(['user']);
    const retry = await send(f, 'main', 'hi', 'nf-1');
    expect(!retry.ok && retry.error).toMatchObject({ code: 'PROVIDER_ERROR', details: { reason: 'model_not_found' } });
  });
});

describe('tools, abort and lanes', () => {
  it('runs a tool call round trip', async () => {
    const seen: unknown[] = [];
    const weather: ToolDefinition<{ city: string }> = {
      name: 'weather',
      description: 'Weather for a city',
      inputSchema: z.object({ city: z.string() }),
      async execute(input) {
        seen.push(input);
        return { output: `sunny in ${input.city}` };
      },
    };
    const f = await fixture({ tools: [weather as ToolDefinition] });
    server.script([
      { type: 'tool_calls', calls: [{ name: 'weather', input: { city: 'Oslo' } }], text: 'Let me check.' },
      { type: 'text', text: 'It is sunny in Oslo.' },
    ]);
    await send(f, 'main', 'weather in Oslo?', 't-1');
    const end = await f.chatEnd('t-1');
    expect(end).toMatchObject({ state: 'final' });
    expect((end.message as { content: { text: string }[] }).content[0]?.text).toBe(
      'Let me check.\n\nIt is sunny in Oslo.',
    );
    expect(seen).toEqual([{ city: 'Oslo' }]);
    expect((await history(f)).messages.map((m) => m.kind)).toEqual([
      'user',
      'assistant',
      'tool_call',
      'tool_result',
      'assistant',
    ]);
    const second = server.requests[1]?.body as { messages: { role: string; content: unknown }[] };
    expect(second.messages.find((m) => m.role === 'tool')?.content).toBe('sunny in Oslo');
  });

  it('lets beforeToolCall deny a call with a reason the model sees', async () => {
    const tool: ToolDefinition = {
      name: 'rm',
      description: 'remove',
      inputSchema: z.object({}),
      execute: async () => ({ output: 'removed' }),
    };
    const f = await fixture({
      tools: [tool],
      hooks: () => ({ beforeToolCall: () => ({ allow: false, reason: 'not approved by the user' }) }),
    });
    server.script([
      { type: 'tool_calls', calls: [{ name: 'rm', input: {} }] },
      { type: 'text', text: 'ok, I will not.' },
    ]);
    await send(f, 'main', 'delete it', 't-2');
    await f.chatEnd('t-2');
    const second = server.requests[1]?.body as { messages: { role: string; content: unknown }[] };
    expect(String(second.messages.find((m) => m.role === 'tool')?.content)).toContain('not approved by the user');
  });

  it('aborts mid-stream: aborted event, transcript stays valid', async () => {
    const f = await fixture();
    server.script({ type: 'text', text: 'never finished', firstTokenDelayMs: 5_000 });
    await send(f, 'main', 'tell me a story', 'ab-1');
    while (server.requests.length === 0) await new Promise((r) => setTimeout(r, 5));
    expect(await f.call('chat.abort', { sessionKey: 'main' })).toEqual({
      ok: true,
      payload: { ok: true, aborted: true, runIds: ['ab-1'] },
    });
    expect(await f.chatEnd('ab-1')).toMatchObject({ state: 'aborted', stopReason: 'rpc' });
    expect((await history(f)).messages.map((m) => m.kind)).toEqual(['user']);
    server.script({ type: 'text', text: 'fine' });
    await send(f, 'main', 'next', 'ab-2');
    expect(await f.chatEnd('ab-2')).toMatchObject({ state: 'final' });
  });

  it('aborts a turn stopped before its model call went out: aborted at once, no answer streams', async () => {
    const f = await fixture();
    server.script({ type: 'text', text: 'should never arrive', firstTokenDelayMs: 60_000 });
    await send(f, 'main', 'tell me a story', 'ab-early');
    // Stop as soon as the run says it started: the prompt and tools are still being assembled.
    const started = () =>
      f.events.some(
        (e) => e.event === 'agent' && (e.payload as { runId?: string; stream?: string }).runId === 'ab-early',
      );
    while (!started()) await new Promise((resolve) => setImmediate(resolve));
    expect(await f.call('chat.abort', { sessionKey: 'main' })).toMatchObject({ ok: true, payload: { aborted: true } });
    expect(await f.chatEnd('ab-early')).toMatchObject({ state: 'aborted' });
    expect(f.chatEvents('ab-early').some((e) => e.state === 'delta')).toBe(false);
  });

  it('two sessions run concurrently while one session serializes its turns', async () => {
    const f = await fixture();
    server.setDefault((request) => ({ type: 'text', text: `re: ${request.lastUserText}`, firstTokenDelayMs: 500 }));
    const order: string[] = [];
    const listening = f.bus.onDidPublish((event) => {
      const p = event.payload as { runId?: string; state?: string };
      if (event.event === 'chat' && p.state === 'final') order.push(`end:${p.runId}`);
    });
    onTestFinished(() => listening.dispose());
    const seenRequests = () =>
      server.requests.map((r) => (r.body as { messages: { content: string }[] }).messages.at(-1)?.content);
    await send(f, 'main', 'x1', 'x1');
    await send(f, 'main', 'x2', 'x2');
    await send(f, 'agent:main:telegram:direct:42', 'y1', 'y1');
    await Promise.all([f.chatEnd('x1'), f.chatEnd('x2'), f.chatEnd('y1')]);
    // y1 reached the provider before x1 finished; x2 only after x1 finished.
    expect(seenRequests().slice(0, 2).sort()).toEqual(['x1', 'y1']);
    expect(seenRequests()[2]).toBe('x2');
    expect(order.indexOf('end:x1')).toBeLessThan(order.indexOf('end:x2'));
    server.setDefault((request) => ({ type: 'text', text: `echo: ${request.lastUserText}` }));
  });
});

describe('bad input and faults give clear errors and a valid transcript', () => {
  it('unknown provider and malformed model references are refused at send', async () => {
    const unknown = await fixture({ config: () => ({ model: { primary: 'nope/some-model' } }) });
    const outcome = await send(unknown, 'main', 'hi', 'u-1');
    expect(!outcome.ok && outcome.error).toMatchObject({ code: 'INVALID_REQUEST' });
    expect(!outcome.ok && outcome.error.message).toMatch(/unknown provider "nope"/);
    const malformed = await fixture({ config: () => ({ model: { primary: 'gpt4o' } }) });
    const bad = await send(malformed, 'main', 'hi', 'u-2');
    expect(!bad.ok && bad.error.message).toMatch(/invalid model reference "gpt4o"/);
  });

  it('malformed provider config names the bad path', async () => {
    await expect(
      createRuntimeFixture({
        server,
        config: () => ({ providers: { x: { kind: 'telepathy' } }, model: { primary: 'x/y' } }),
      }),
    ).rejects.toThrow(/providers\.x\.kind/);
    await expect(
      createRuntimeFixture({
        server,
        config: () => ({ providers: { x: { kind: 'openai', baseURL: 'not a url' } }, model: { primary: 'x/y' } }),
      }),
    ).rejects.toThrow(/providers\.x\.baseURL/);
  });

  it('a profile whose secret is missing: error names the profile', async () => {
    const f = await fixture();
    await f.secrets.delete('auth-profile:openai-a');
    f.auth.forgetCachedSecrets();
    await send(f, 'main', 'hi', 'ms-1');
    const end = await f.chatEnd('ms-1');
    expect(end.state).toBe('error');
    expect(end.errorMessage).toMatch(/auth profile "openai-a" \(openai\) has no secret/);
    expect(server.requests).toHaveLength(0);
  });

  it('garbage from the provider: clear error after one retry, transcript valid', async () => {
    const f = await fixture();
    server.script([{ type: 'garbage' }, { type: 'garbage' }]);
    await send(f, 'main', 'hi', 'g-1');
    const end = await f.chatEnd('g-1');
    expect(end.state).toBe('error');
    expect(end.errorMessage).toMatch(/failed or returned a malformed response/);
    expect((await history(f)).messages.map((m) => m.kind)).toEqual(['user']);
  });

  it('a stream cut midway: clear error, the partial answer kept and marked, no retry', async () => {
    const f = await fixture();
    server.script({ type: 'die_midway', text: 'This answer will be cut off somewhere in the middle.' });
    await send(f, 'main', 'hi', 'd-1');
    const end = await f.chatEnd('d-1');
    expect(end.state).toBe('error');
    expect(end.errorMessage).toMatch(/did not answer in time or the connection dropped/);
    const { messages } = await history(f);
    expect(messages.map((m) => m.kind)).toEqual(['user', 'assistant']);
    expect(messages[1]?.stopReason).toBe('error');
    expect(server.requests).toHaveLength(1);
    const retry = await send(f, 'main', 'hi', 'd-1');
    expect(!retry.ok && retry.error.code).toBe('PROVIDER_ERROR');
    expect((await history(f)).messages).toHaveLength(2);
  });

  it('an empty response is retried once, then reported', async () => {
    const f = await fixture();
    server.script([{ type: 'empty' }, { type: 'empty' }]);
    await send(f, 'main', 'hi', 'em-1');
    expect(await f.chatEnd('em-1')).toMatchObject({
      state: 'error',
      errorMessage: expect.stringMatching(/empty response/),
    });
  });
});

describe('agent, models and auth profile methods', () => {
  it('agent acknowledges first, then answers; agent.wait reports the run', async () => {
    const f = await fixture();
    server.script({ type: 'text', text: 'done it' });
    const acks: unknown[] = [];
    const outcome = await f.call('agent', { message: 'do it', idempotencyKey: 'ag-1' }, (ack) => acks.push(ack));
    expect(acks).toEqual([{ runId: 'ag-1', status: 'accepted' }]);
    expect(outcome).toMatchObject({ ok: true, payload: { runId: 'ag-1', status: 'ok', summary: 'done it' } });
    expect(await f.call('agent.wait', { runId: 'ag-1' })).toMatchObject({ ok: true, payload: { status: 'ok' } });
    const unknown = await f.call('agent.wait', { runId: 'nope' });
    expect(!unknown.ok && unknown.error).toMatchObject({ code: 'NOT_FOUND' });
  });

  it('models.list shows configured models with limits and availability', async () => {
    const f = await fixture();
    const outcome = await f.call('models.list', {});
    const payload = (
      outcome as { payload: { models: { id: string; contextWindow: number; available: boolean }[]; primary: string } }
    ).payload;
    expect(payload.primary).toBe('openai/gpt-4o');
    expect(payload.models.find((m) => m.id === 'openai/gpt-4o')).toMatchObject({
      contextWindow: 128_000,
      available: true,
    });
  });

  it('auth.profiles.* never returns a secret and validates input', async () => {
    const f = await fixture();
    const set = await f.call('auth.profiles.set', {
      id: 'new',
      provider: 'openai',
      type: 'api_key',
      secret: 'sk-super-secret',
    });
    expect(set.ok).toBe(true);
    const list = await f.call('auth.profiles.list', {});
    expect(JSON.stringify(list)).not.toContain('sk-super-secret');
    expect(JSON.stringify(set)).not.toContain('sk-super-secret');
    const bad = await f.call('auth.profiles.set', { id: 'x', provider: 'openai', type: 'api_key' });
    expect(!bad.ok && bad.error.message).toMatch(/needs a secret/);
    const badType = await f.call('auth.profiles.set', { id: 'x', provider: 'openai', type: 'password', secret: 's' });
    expect(!badType.ok && badType.error.message).toMatch(/type/);
    const typo = await f.call('auth.profiles.set', { id: 'x', provider: 'opnai', type: 'api_key', secret: 's' });
    expect(!typo.ok && typo.error.message).toMatch(/unknown provider "opnai"/);
    expect(await f.call('auth.profiles.remove', { id: 'new' })).toEqual({
      ok: true,
      payload: { ok: true, removed: true },
    });
    expect(await f.secrets.get('auth-profile:new')).toBeUndefined();
  });
});
