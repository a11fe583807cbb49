import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type FakeLlmServer, startFakeLlmServer } from '../../testing/fake-llm/index.js';
import { createRuntimeFixture, type RuntimeFixture } from '../../testing/fake-llm/runtime-fixture.js';

// Retry, Regenerate and edit-and-resend through chat.send's `replace`, against the fake LLM.
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

async function fixture(): Promise<RuntimeFixture> {
  const created = await createRuntimeFixture({
    server,
    profiles: [{ id: 'openai-a', provider: 'openai', secret: 'sk-key-AAAA' }],
  });
  fixtures.push(created);
  return created;
}

async function shown(f: RuntimeFixture): Promise<[string, string][]> {
  const outcome = await f.call('chat.history', { sessionKey: 'main' });
  if (!outcome.ok) throw new Error(outcome.error.message);
  const { messages } = outcome.payload as { messages: { kind: string; content: { text: string }[] }[] };
  return messages.map((m) => [m.kind, m.content[0]?.text ?? '']);
}

/** The words of the last prompt the model got, user and assistant turns only. */
function lastPrompt(): string {
  const body = server.requests.at(-1)!.body as { messages?: { role: string; content: unknown }[] };
  return JSON.stringify((body.messages ?? []).filter((m) => m.role === 'user' || m.role === 'assistant'));
}

describe('chat.send replace', () => {
  it('regenerate (last-answer) replaces the answer, keeps the question once, and the model never saw the old answer', async () => {
    const f = await fixture();
    server.script({ type: 'text', text: 'first answer' });
    await f.call('chat.send', { sessionKey: 'main', message: 'what is 2+2?', idempotencyKey: 'r-1' });
    await f.chatEnd('r-1');
    server.script({ type: 'text', text: 'second answer' });
    const again = await f.call('chat.send', {
      sessionKey: 'main',
      message: '',
      idempotencyKey: 'r-2',
      replace: 'last-answer',
    });
    expect(again).toEqual({ ok: true, payload: { runId: 'r-2', status: 'started' } });
    expect(await f.chatEnd('r-2')).toMatchObject({ state: 'final' });
    expect(lastPrompt()).toContain('what is 2+2?');
    expect(lastPrompt()).not.toContain('first answer');
    expect(await shown(f)).toEqual([
      ['user', 'what is 2+2?'],
      ['assistant', 'second answer'],
    ]);
  });

  it('retry after an error answers the same message without storing it again', async () => {
    const f = await fixture();
    server.script({ type: 'error', error: 'model_not_found' });
    await f.call('chat.send', { sessionKey: 'main', message: 'hello', idempotencyKey: 'e-1' });
    expect(await f.chatEnd('e-1')).toMatchObject({ state: 'error' });
    server.script({ type: 'text', text: 'hi there' });
    await f.call('chat.send', { sessionKey: 'main', message: '', idempotencyKey: 'e-2', replace: 'last-answer' });
    expect(await f.chatEnd('e-2')).toMatchObject({ state: 'final' });
    expect(await shown(f)).toEqual([
      ['user', 'hello'],
      ['assistant', 'hi there'],
    ]);
  });

  it('edit and resend (last-message) replaces the question and its answer', async () => {
    const f = await fixture();
    server.script({ type: 'text', text: 'Paris' });
    await f.call('chat.send', { sessionKey: 'main', message: 'capital of Frnace?', idempotencyKey: 'x-1' });
    await f.chatEnd('x-1');
    server.script({ type: 'text', text: 'Berlin' });
    await f.call('chat.send', {
      sessionKey: 'main',
      message: 'capital of Germany?',
      idempotencyKey: 'x-2',
      replace: 'last-message',
    });
    await f.chatEnd('x-2');
    expect(lastPrompt()).not.toContain('Frnace');
    expect(await shown(f)).toEqual([
      ['user', 'capital of Germany?'],
      ['assistant', 'Berlin'],
    ]);
    // The next ordinary turn reads the edited conversation too.
    server.script({ type: 'text', text: 'ok' });
    await f.call('chat.send', { sessionKey: 'main', message: 'thanks', idempotencyKey: 'x-3' });
    await f.chatEnd('x-3');
    expect(lastPrompt()).toContain('Berlin');
    expect(lastPrompt()).not.toContain('Paris');
  });

  it('refuses a retry in a chat with nothing of the person in it, naming the chat', async () => {
    const f = await fixture();
    const outcome = await f.call('chat.send', {
      sessionKey: 'main',
      message: '',
      idempotencyKey: 'n-1',
      replace: 'last-answer',
    });
    expect(outcome.ok).toBe(false);
    if (!outcome.ok) expect(outcome.error.message).toMatch(/nothing to retry or regenerate: agent:main:main/);
  });
});
