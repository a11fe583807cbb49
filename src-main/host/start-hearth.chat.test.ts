import { writeFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ProductFixture, startProductFixture } from '../testing/product-fixture.js';

// The whole product path: a client sends chat.send over the WebSocket, the composed
// runtime calls the (fake) provider through the real AI SDK, chat events stream back.

let product: ProductFixture;
let llm: ProductFixture['llm'];
let host: ProductFixture['host'];
let socket: ProductFixture['socket'];

beforeAll(async () => {
  product = await startProductFixture({ env: (fake) => ({ OLLAMA_HOST: fake.baseUrlFor('ollama-host') }) });
  ({ llm, host, socket } = product);
});
afterAll(async () => {
  await product?.close();
});

describe('a chat turn through the composed gateway', () => {
  it('streams deltas and a final message, and keeps the transcript', async () => {
    llm.script([{ type: 'text', text: 'Hello from the fake model.' }]);
    const sent = await socket.request('chat.send', { sessionKey: 'main', message: 'hi', idempotencyKey: 'turn-1' });
    expect(sent).toMatchObject({ ok: true, payload: { runId: 'turn-1' } });
    const final = await socket.next(
      (f) => f.type === 'event' && f.event === 'chat' && (f.payload as { state: string }).state === 'final',
      20_000,
    );
    expect(JSON.stringify(final.payload)).toContain('Hello from the fake model.');
    const deltas = socket.frames.filter(
      (f) => f.event === 'chat' && (f.payload as { state: string }).state === 'delta',
    );
    expect(deltas.length).toBeGreaterThan(0);
    const history = await socket.request('chat.history', { sessionKey: 'main' });
    const text = JSON.stringify(history.payload);
    expect(text).toContain('hi');
    expect(text).toContain('Hello from the fake model.');
    // The system prompt carried the workspace files, and the exec tool was offered.
    const request = llm.requests.at(-1)!;
    expect(JSON.stringify(request.body)).toContain('SOUL.md');
    expect(JSON.stringify(request.body)).toMatch(/"exec"|"bash"/);
  });

  it('records the cache trace of each LLM call at seven stages', async () => {
    llm.script([{ type: 'text', text: 'Second answer.' }]);
    await socket.request('chat.send', { sessionKey: 'main', message: 'and again', idempotencyKey: 'turn-2' });
    await socket.next(
      (f) =>
        f.event === 'chat' &&
        (f.payload as { runId: string; state: string }).runId === 'turn-2' &&
        (f.payload as { state: string }).state === 'final',
      20_000,
    );
    const trace = await socket.request('trace.show', { sessionKey: 'main' });
    expect(trace.ok).toBe(true);
    const text = JSON.stringify(trace.payload);
    for (const stage of [
      'session_loaded',
      'sanitized',
      'limited',
      'prompt_before',
      'images',
      'stream_context',
      'session_after',
    ])
      expect(text).toContain(stage);
    expect(text).not.toContain('sk-test-1234');
  });

  it('routes a message by channel and peer to its own session', async () => {
    llm.script([{ type: 'text', text: 'Routed reply.' }]);
    const sent = await socket.request('chat.send', {
      route: { channel: 'telegram', peerKind: 'direct', peerId: '42' },
      message: 'hello from telegram',
      idempotencyKey: 'route-1',
    });
    expect(sent).toMatchObject({ ok: true, payload: { runId: 'route-1' } });
    const final = await socket.next(
      (f) =>
        f.event === 'chat' &&
        (f.payload as { runId: string; state: string }).runId === 'route-1' &&
        (f.payload as { state: string }).state === 'final',
      20_000,
    );
    expect((final.payload as { sessionKey: string }).sessionKey).toMatch(/^agent:main:telegram:/);
    const bad = await socket.request('chat.send', { message: 'nowhere', idempotencyKey: 'route-2' });
    expect(bad.error?.message).toMatch(/sessionKey/);
  });

  it('asks before running a command, runs it once allowed, and streams its output', async () => {
    llm.script([
      { type: 'tool_calls', calls: [{ name: 'exec', input: { command: 'cat greeting.txt' } }] },
      { type: 'text', text: 'The command printed its greeting.' },
    ]);
    await writeFile(`${host.paths.workspaceDir('main')}/greeting.txt`, 'hello-from-exec');
    const mark = socket.frames.length;
    await socket.request('chat.send', { sessionKey: 'main', message: 'run the greeting', idempotencyKey: 'exec-1' });
    const requested = await socket.next(
      (f) => socket.frames.indexOf(f) >= mark && f.event === 'exec.approval.requested',
      20_000,
    );
    const approval = requested.payload as { id: string; request?: { command?: string }; command?: string };
    expect(JSON.stringify(approval)).toContain('cat greeting.txt');
    // What "Always allow" would add is shown before anyone chooses: the resolved binary.
    expect((approval as { allowAlways?: { pattern: string }[] }).allowAlways?.[0]?.pattern).toMatch(/\/cat$/);
    const resolved = await socket.request('exec.approval.resolve', { id: approval.id, decision: 'allow-once' });
    expect(resolved).toMatchObject({ ok: true });
    const final = await socket.next(
      (f) =>
        f.event === 'chat' &&
        (f.payload as { runId: string }).runId === 'exec-1' &&
        (f.payload as { state: string }).state === 'final',
      20_000,
    );
    expect(JSON.stringify(final.payload)).toContain('The command printed its greeting.');
    const streamed = socket.frames.filter(
      (f) => f.event === 'agent' && (f.payload as { stream: string }).stream === 'tool_output',
    );
    expect(JSON.stringify(streamed)).toContain('hello-from-exec');
    // The model saw the real output as the tool result.
    expect(JSON.stringify(llm.requests.at(-1)!.body)).toContain('hello-from-exec');
  });

  it('finds a local Ollama server for onboarding', async () => {
    const listed = await socket.request('models.list', { provider: 'ollama' });
    expect(listed.payload).toMatchObject({ local: { ollama: { available: true, models: ['llama3.2:latest'] } } });
  });

  it('does not run the turn twice for a retried idempotency key', async () => {
    const before = llm.requests.length;
    const again = await socket.request('chat.send', { sessionKey: 'main', message: 'hi', idempotencyKey: 'turn-1' });
    expect(again.ok).toBe(true);
    expect(llm.requests.length).toBe(before);
  });
});
