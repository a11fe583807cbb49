import { act, cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { renderWithStores, startTestApp, type TestApp } from '../../testing/render-app.js';
import { ChatView } from './chat-view.js';

let app: TestApp;
afterEach(() => {
  cleanup();
  app?.dispose();
});

const viewport = { width: 900, height: 700 };
const key = 'agent:main:main';
const text = (t: string) => ({ role: 'assistant', content: [{ type: 'text', text: t }] });

describe('ChatView', () => {
  it('explains where the prompt cache broke for this conversation', async () => {
    app = startTestApp({
      'trace.show': () => ({
        sessionKey: key,
        calls: [
          { callId: 'a-0', ts: 1_700_000_000_000, verdict: 'first_call', stages: [] },
          {
            callId: 'b-0',
            ts: 1_700_000_060_000,
            verdict: 'cache_miss',
            missStage: 'prompt_before',
            reason: 'system prompt changed',
            stages: [],
          },
        ],
      }),
    });
    renderWithStores(app, <ChatView viewport={viewport} />);
    await act(() => app.client.waitForConnected());
    // The prompt cache lives in the chat's details menu, not in the header.
    expect(screen.queryByText('Prompt cache')).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Chat details' }));
    expect(screen.getByRole('dialog', { name: 'Chat details' })).toBeTruthy();
    await waitFor(() => expect(screen.getByText('cache miss')).toBeTruthy());
    expect(screen.getByText('first call')).toBeTruthy();
    expect(screen.getByText(/system prompt changed/)).toBeTruthy();
    expect(app.gateway.calls('trace.show')).toEqual([{ sessionKey: key, limit: 10 }]);
  });

  it('sends on Enter and renders the streamed answer as markdown with highlighted code', async () => {
    app = startTestApp({ 'chat.send': (p) => ({ runId: p.idempotencyKey, status: 'started' }) });
    renderWithStores(app, <ChatView viewport={viewport} />);
    await act(() => app.client.waitForConnected());
    const box = screen.getByRole('textbox', { name: 'Message Hearth…' });
    fireEvent.change(box, { target: { value: 'show me code' } });
    fireEvent.keyDown(box, { key: 'Enter' });
    await waitFor(() => expect(app.gateway.calls('chat.send')).toHaveLength(1));
    const runId = app.gateway.calls('chat.send')[0]!.idempotencyKey as string;
    expect(screen.getByText('show me code')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Stop' })).toBeTruthy();

    act(() => app.gateway.emit('chat', { runId, sessionKey: key, state: 'delta', message: text('Here is **bold**') }));
    expect(screen.getByText('bold').tagName).toBe('STRONG');
    act(() =>
      app.gateway.emit('chat', {
        runId,
        sessionKey: key,
        state: 'final',
        message: text('Here is **bold**\n\n```js\nconst x = "hi";\n```'),
      }),
    );
    expect(screen.getByText('const').className).toBe('tok-keyword');
    expect(screen.getByText('"hi"').className).toBe('tok-string');
    expect(screen.queryByRole('button', { name: 'Stop' })).toBeNull();
  });

  it('says how long a run waits before trying again and why, until the answer starts', async () => {
    app = startTestApp({ 'chat.send': () => ({ runId: 'r1', status: 'started' }) });
    renderWithStores(app, <ChatView viewport={viewport} />);
    await act(() => app.client.waitForConnected());
    await act(() => app.stores.chat.getState().send(key, 'What is the capital of Peru?'));
    const retry = { phase: 'retry', model: 'openai/gpt-4o', reason: 'overloaded', waitMs: 29_800 };
    act(() =>
      app.gateway.emit('agent', { runId: 'r1', sessionKey: key, seq: 1, ts: 1, stream: 'lifecycle', data: retry }),
    );
    expect(screen.getByText('Waiting 30 s before trying again: the provider is busy')).toBeTruthy();
    act(() => app.gateway.emit('chat', { runId: 'r1', sessionKey: key, state: 'delta', message: text('Lima.') }));
    expect(screen.queryByText(/Waiting 30 s/)).toBeNull();
    expect(screen.getByText('Lima.')).toBeTruthy();
  });

  it('stops a running answer with the Stop button', async () => {
    app = startTestApp({
      'chat.send': () => ({ runId: 'r1', status: 'started' }),
      'chat.abort': () => ({ ok: true, aborted: true, runIds: ['r1'] }),
    });
    renderWithStores(app, <ChatView viewport={viewport} />);
    await act(() => app.client.waitForConnected());
    await act(() => app.stores.chat.getState().send(key, 'tell me a long story'));
    fireEvent.click(screen.getByRole('button', { name: 'Stop' }));
    await waitFor(() => expect(app.gateway.calls('chat.abort')).toEqual([{ sessionKey: key, runId: 'r1' }]));
    act(() => app.gateway.emit('chat', { runId: 'r1', sessionKey: key, state: 'aborted', stopReason: 'rpc' }));
    // The stop says what was kept; Retry is offered on the answer and in the composer.
    expect(screen.getByText('Stopped before the answer began. Your message is kept.')).toBeTruthy();
    expect(screen.getAllByRole('button', { name: 'Retry' }).length).toBeGreaterThan(0);
  });

  it('keeps only a window of a 10 000-message transcript in the DOM', async () => {
    const messages = Array.from({ length: 10_000 }, (_, i) => ({
      id: `m${i}`,
      kind: i % 2 ? 'assistant' : 'user',
      text: `message ${i}`,
      ts: i,
    }));
    app = startTestApp({ 'chat.history': () => ({ messages, hasMore: false }) });
    const { container } = renderWithStores(app, <ChatView viewport={viewport} />);
    await waitFor(() => expect(app.stores.chat.getState().transcripts[key]?.messages).toHaveLength(10_000));
    const rows = container.querySelectorAll('.transcript-row');
    expect(rows.length).toBeGreaterThan(0);
    expect(rows.length).toBeLessThan(60);
  });

  it('shows a tool call collapsed with its approval state, open while it waits', async () => {
    app = startTestApp();
    renderWithStores(app, <ChatView viewport={viewport} />);
    await act(() => app.client.waitForConnected());
    act(() =>
      app.gateway.emit('agent', {
        runId: 'r',
        sessionKey: key,
        stream: 'tool',
        data: { phase: 'call', toolCallId: 't', name: 'exec', input: { command: 'make deploy' } },
      }),
    );
    act(() =>
      app.gateway.emit('exec.approval.requested', {
        id: 'ap',
        sessionKey: key,
        command: 'make deploy',
        createdAtMs: 0,
        expiresAtMs: 1,
      }),
    );
    expect(screen.getByText('Waiting for approval')).toBeTruthy();
    expect(screen.getByText('make deploy')).toBeTruthy();
    expect(screen.getByText('Tool: exec').closest('details')!.open).toBe(true);
  });

  it('lists sessions grouped by agent and channel and switches transcript on select', async () => {
    app = startTestApp({
      'sessions.list': () => ({
        sessions: [
          { key: 'agent:main:main', agentId: 'main', displayName: 'Main', updatedAt: 1 },
          { key: 'agent:main:telegram:dm:7', agentId: 'main', displayName: 'Alice on Telegram', updatedAt: 2 },
        ],
      }),
      'chat.history': (p) => ({
        messages: [{ id: 'x', kind: 'user', text: `history of ${String(p.sessionKey)}`, ts: 1 }],
        hasMore: false,
      }),
    });
    renderWithStores(app, <ChatView viewport={viewport} />);
    expect(await screen.findByText('main · telegram')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Alice on Telegram' }));
    expect(await screen.findByText('history of agent:main:telegram:dm:7')).toBeTruthy();
    fireEvent.change(screen.getByRole('searchbox', { name: 'Search sessions' }), { target: { value: 'zzz' } });
    expect(screen.getByText('No sessions match')).toBeTruthy();
  });

  it('guides a first run with no model to add a key or detect Ollama', async () => {
    app = startTestApp({
      'models.list': (p) =>
        p.provider === 'ollama'
          ? {
              models: [
                { id: 'ollama/llama3.2', name: 'llama3.2', provider: 'ollama', available: true },
                { id: 'ollama/qwen2.5', name: 'qwen2.5', provider: 'ollama', available: true },
              ],
              fallbacks: [],
            }
          : { models: [], fallbacks: [] },
    });
    renderWithStores(app, <ChatView viewport={viewport} />);
    expect(await screen.findByText('Welcome to Hearth')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Detect Ollama' }));
    expect(await screen.findByText('Ollama found with 2 models.')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Add an API key' }));
    expect(app.stores.ui.getState().view).toBe('auth');
  });
});
