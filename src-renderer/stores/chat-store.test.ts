import { afterEach, describe, expect, it } from 'vitest';
import { GatewayError } from '../../src-main/protocol/errors.js';
import { startTestApp, type TestApp } from '../testing/render-app.js';

let app: TestApp;
afterEach(() => app?.dispose());
const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

const key = 'agent:main:main';

describe('chat store', () => {
  it('loads history in either message shape and folds tool results into their call', async () => {
    app = startTestApp({
      'chat.history': () => ({
        messages: [
          { id: '1', kind: 'user', text: 'list files', ts: 1 },
          { id: '2', kind: 'tool_call', toolCallId: 't1', toolName: 'exec', input: { command: 'ls' }, ts: 2 },
          { id: '3', kind: 'tool_result', toolCallId: 't1', toolName: 'exec', output: 'a.txt', ts: 3 },
          { role: 'assistant', content: [{ type: 'text', text: 'There is **a.txt**.' }] },
        ],
        hasMore: false,
      }),
    });
    await app.client.waitForConnected();
    await app.stores.chat.getState().load(key);
    const messages = app.stores.chat.getState().transcripts[key]!.messages;
    expect(messages.map((m) => m.role)).toEqual(['user', 'tool', 'assistant']);
    expect(messages[1]).toMatchObject({ toolName: 'exec', toolInput: { command: 'ls' }, toolOutput: 'a.txt' });
    expect(messages[2]!.text).toBe('There is **a.txt**.');
  });

  it('sends with an idempotency key, then streams deltas into one assistant message until final', async () => {
    app = startTestApp({ 'chat.send': (p) => ({ runId: p.idempotencyKey, status: 'started' }) });
    await app.client.waitForConnected();
    await app.stores.chat.getState().send(key, '  hello  ');
    const [sent] = app.gateway.calls('chat.send');
    expect(sent).toMatchObject({ sessionKey: key, message: 'hello' });
    const runId = sent!.idempotencyKey as string;
    expect(runId).toBeTruthy();
    expect(app.stores.chat.getState().transcripts[key]!.runId).toBe(runId);

    const text = (t: string) => ({ role: 'assistant', content: [{ type: 'text', text: t }] });
    app.gateway.emit('chat', {
      runId,
      sessionKey: key,
      seq: 1,
      state: 'delta',
      deltaText: 'Hel',
      message: text('Hel'),
    });
    app.gateway.emit('chat', {
      runId,
      sessionKey: key,
      seq: 2,
      state: 'delta',
      deltaText: 'lo',
      message: text('Hello'),
    });
    let messages = app.stores.chat.getState().transcripts[key]!.messages;
    expect(messages.at(-1)).toMatchObject({ role: 'assistant', text: 'Hello', status: 'streaming' });
    app.gateway.emit('chat', { runId, sessionKey: key, seq: 3, state: 'final', message: text('Hello there') });
    messages = app.stores.chat.getState().transcripts[key]!.messages;
    expect(messages).toHaveLength(2);
    expect(messages[1]).toMatchObject({ text: 'Hello there', status: 'done' });
    expect(app.stores.chat.getState().transcripts[key]!.runId).toBeUndefined();
  });

  it('ignores an empty message instead of sending it', async () => {
    app = startTestApp({ 'chat.send': () => ({ runId: 'r', status: 'started' }) });
    await app.client.waitForConnected();
    await app.stores.chat.getState().send(key, '   ');
    expect(app.gateway.calls('chat.send')).toHaveLength(0);
  });

  it('shows a refused send as a failed answer naming the reason, and retry resends the last question', async () => {
    let refuse = true;
    app = startTestApp({
      'chat.send': () => {
        if (refuse) throw new GatewayError('UNAVAILABLE', 'no provider is configured');
        return { runId: 'r2', status: 'started' };
      },
    });
    await app.client.waitForConnected();
    await app.stores.chat.getState().send(key, 'hi');
    expect(app.stores.chat.getState().transcripts[key]!.messages.at(-1)).toMatchObject({
      status: 'error',
      error: 'no provider is configured',
    });
    refuse = false;
    await app.stores.chat.getState().retry(key);
    const messages = app.stores.chat.getState().transcripts[key]!.messages;
    expect(messages.filter((m) => m.status === 'error')).toHaveLength(0);
    expect(app.gateway.calls('chat.send').map((p) => p.message)).toEqual(['hi', 'hi']);
    expect(messages.filter((m) => m.role === 'user').map((m) => m.text)).toEqual(['hi']);
  });

  it('retry and regenerate after a run ended ask the server to answer the last message again, shown once', async () => {
    app = startTestApp({ 'chat.send': (p) => ({ runId: p.idempotencyKey, status: 'started' }) });
    await app.client.waitForConnected();
    await app.stores.chat.getState().send(key, 'tell me a joke');
    const runId = app.gateway.calls('chat.send')[0]!.idempotencyKey as string;
    app.gateway.emit('chat', {
      runId,
      sessionKey: key,
      seq: 1,
      state: 'final',
      message: { role: 'assistant', content: [{ type: 'text', text: 'a bad joke' }] },
      usage: { inputTokens: 1, outputTokens: 1, cachedInputTokens: 0 },
      stopReason: 'stop',
      model: 'openai/gpt-4o',
    });
    await settle();
    expect(app.stores.chat.getState().transcripts[key]!.messages.at(-1)).toMatchObject({ model: 'openai/gpt-4o' });
    await app.stores.chat.getState().retry(key);
    expect(app.gateway.calls('chat.send').at(-1)).toMatchObject({ message: '', replace: 'last-answer' });
    const messages = app.stores.chat.getState().transcripts[key]!.messages;
    expect(messages.map((m) => [m.role, m.text])).toEqual([['user', 'tell me a joke']]);
  });

  it('edit and resend replaces the last message and drops its answer', async () => {
    app = startTestApp({ 'chat.send': (p) => ({ runId: p.idempotencyKey, status: 'started' }) });
    await app.client.waitForConnected();
    await app.stores.chat.getState().send(key, 'capital of Frnace');
    await app.stores.chat.getState().editLast(key, 'capital of France');
    expect(app.gateway.calls('chat.send').at(-1)).toMatchObject({
      message: 'capital of France',
      replace: 'last-message',
    });
    const messages = app.stores.chat.getState().transcripts[key]!.messages;
    expect(messages.map((m) => m.text)).toEqual(['capital of France']);
  });

  it('aborts the running run of the session and marks the answer stopped', async () => {
    app = startTestApp({
      'chat.send': () => ({ runId: 'r1', status: 'started' }),
      'chat.abort': () => ({ ok: true, aborted: true, runIds: ['r1'] }),
    });
    await app.client.waitForConnected();
    await app.stores.chat.getState().send(key, 'long story');
    app.gateway.emit('chat', {
      runId: 'r1',
      sessionKey: key,
      state: 'delta',
      deltaText: 'Once',
      message: { role: 'assistant', content: [{ type: 'text', text: 'Once' }] },
    });
    await app.stores.chat.getState().abort(key);
    expect(app.gateway.calls('chat.abort')).toEqual([{ sessionKey: key, runId: 'r1' }]);
    app.gateway.emit('chat', { runId: 'r1', sessionKey: key, state: 'aborted', stopReason: 'rpc' });
    expect(app.stores.chat.getState().transcripts[key]!.messages.at(-1)).toMatchObject({
      text: 'Once',
      status: 'aborted',
    });
  });

  it('shows tool calls from agent events, with the exec approval they wait on', async () => {
    app = startTestApp();
    await app.client.waitForConnected();
    const tool = (data: Record<string, unknown>) =>
      app.gateway.emit('agent', { runId: 'r1', sessionKey: key, seq: 1, stream: 'tool', ts: 1, data });
    tool({ phase: 'call', toolCallId: 't9', name: 'exec', input: { command: 'rm -rf build' } });
    app.gateway.emit('exec.approval.requested', {
      id: 'ap9',
      sessionKey: key,
      command: 'rm -rf build',
      createdAtMs: 0,
      expiresAtMs: 1,
    });
    const first = () => app.stores.chat.getState().transcripts[key]!.messages[0];
    expect(first()).toMatchObject({
      role: 'tool',
      toolName: 'exec',
      toolInput: { command: 'rm -rf build' },
      approval: 'pending',
    });
    app.gateway.emit('exec.approval.resolved', { id: 'ap9', decision: 'deny', resolvedBy: 'operator:ui', ts: 2 });
    expect(first()!.approval).toBe('denied');
    tool({ phase: 'result', toolCallId: 't9', name: 'exec', isError: true });
    expect(first()).toMatchObject({ status: 'done', error: 'the tool reported an error' });
  });

  it('sends attachments with their kind and sets the default model through config.patch', async () => {
    app = startTestApp({
      'chat.send': () => ({ runId: 'r', status: 'started' }),
      'config.patch': () => ({ ok: true, path: 'x', hash: 'h', changedPrefixes: ['agents'] }),
      'models.list': () => ({ models: [], primary: 'openai/gpt-4.1-mini', fallbacks: [] }),
    });
    await app.client.waitForConnected();
    await settle();
    expect(app.stores.chat.getState().model).toBe('openai/gpt-4.1-mini');
    await app.stores.chat.getState().send(key, 'look', [{ name: 'a.png', mediaType: 'image/png', data: 'AAAA' }]);
    expect(app.gateway.calls('chat.send')[0]!.attachments).toEqual([
      { kind: 'image', mediaType: 'image/png', name: 'a.png', data: 'AAAA' },
    ]);
    await app.stores.chat.getState().setModel('anthropic/claude-sonnet-4');
    expect(app.gateway.calls('config.patch')).toEqual([
      { patch: { agents: { defaults: { model: { primary: 'anthropic/claude-sonnet-4' } } } } },
    ]);
  });

  it('keeps a message sent while the history was still loading, without showing it twice', async () => {
    let answerHistory: (value: unknown) => void = () => {};
    app = startTestApp({
      'chat.history': () => new Promise((resolve) => (answerHistory = resolve)),
      'chat.send': (p) => ({ runId: p.idempotencyKey, status: 'started' }),
    });
    await app.client.waitForConnected();
    const loading = app.stores.chat.getState().load(key);
    await app.stores.chat.getState().send(key, 'sent before the history arrived');
    answerHistory({ messages: [{ id: '1', kind: 'user', text: 'from yesterday', ts: 1 }], hasMore: false });
    await loading;
    expect(app.stores.chat.getState().transcripts[key]!.messages.map((m) => m.text)).toEqual([
      'from yesterday',
      'sent before the history arrived',
    ]);

    // Another session: the server had already stored the message when it read the history: shown once.
    const other = 'agent:main:other';
    const again = app.stores.chat.getState().load(other);
    await app.stores.chat.getState().send(other, 'stored before the read');
    answerHistory({ messages: [{ id: '2', kind: 'user', text: 'stored before the read', ts: 2 }], hasMore: false });
    await again;
    expect(app.stores.chat.getState().transcripts[other]!.messages.map((m) => m.text)).toEqual([
      'stored before the read',
    ]);
  });

  it('reloads open transcripts after a reconnect', async () => {
    let history = [{ id: '1', kind: 'user', text: 'before', ts: 1 }];
    app = startTestApp({ 'chat.history': () => ({ messages: history, hasMore: false }) });
    await app.client.waitForConnected();
    await app.stores.chat.getState().load(key);
    history = [...history, { id: '2', kind: 'assistant', text: 'answered while away', ts: 2 } as never];
    const reconnected = new Promise<void>((resolve) =>
      app.client.onDidConnect(({ reconnected }) => reconnected && resolve()),
    );
    app.gateway.drop();
    await reconnected;
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(app.stores.chat.getState().transcripts[key]!.messages.map((m) => m.text)).toEqual([
      'before',
      'answered while away',
    ]);
  });
});

describe('chat history paging', () => {
  it('prepends the older page from the cursor and stops when there is no more', async () => {
    app = startTestApp({
      'chat.history': (p) =>
        p.cursor === 'c1'
          ? { messages: [{ id: 'old', kind: 'user', text: 'older', ts: 0 }], hasMore: false }
          : { messages: [{ id: 'new', kind: 'user', text: 'newer', ts: 1 }], hasMore: true, nextCursor: 'c1' },
    });
    await app.client.waitForConnected();
    await app.stores.chat.getState().load(key);
    await app.stores.chat.getState().loadOlder(key);
    const t = app.stores.chat.getState().transcripts[key]!;
    expect(t.messages.map((m) => m.text)).toEqual(['older', 'newer']);
    expect(t.hasMore).toBe(false);
    expect(app.gateway.calls('chat.history').at(-1)).toEqual({ sessionKey: key, limit: 500, cursor: 'c1' });
  });
});

describe('new conversation', () => {
  it('resets the session through sessions.reset and clears the transcript', async () => {
    app = startTestApp({
      'chat.history': () => ({ messages: [{ id: '1', kind: 'user', text: 'old', ts: 1 }], hasMore: false }),
      'sessions.reset': (p) => ({ ok: true, key: p.key, sessionId: 's2' }),
    });
    await app.client.waitForConnected();
    await app.stores.chat.getState().load(key);
    await app.stores.chat.getState().reset(key);
    // A side-effect method: the client adds an idempotency key, so a retried reset resets once.
    expect(app.gateway.calls('sessions.reset')).toEqual([
      { key, reason: 'new conversation from the Control UI', idempotencyKey: expect.any(String) },
    ]);
    expect(app.stores.chat.getState().transcripts[key]!.messages).toEqual([]);
  });
});
