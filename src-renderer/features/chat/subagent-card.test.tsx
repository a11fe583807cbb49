import { act, cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { SubagentEvent, SubagentView } from '../../../src-main/protocol/methods/subagents.js';
import { renderWithStores, startTestApp, type TestApp } from '../../testing/render-app.js';
import { ChatView } from './chat-view.js';

let app: TestApp;
afterEach(() => {
  cleanup();
  app?.dispose();
});

const viewport = { width: 900, height: 700 };
const parent = 'agent:main:main';

const view = (over: Partial<SubagentView> = {}): SubagentView => ({
  id: 'abc123',
  agentId: 'main',
  sessionKey: 'agent:main:subagent:abc123',
  runId: 'subagent-abc123',
  parentSessionKey: parent,
  rootSessionKey: parent,
  toolCallId: 'call-1',
  depth: 1,
  role: 'leaf',
  controlScope: 'none',
  mode: 'foreground',
  label: 'reader',
  task: 'read the persona file',
  status: 'running',
  startedAtMs: 1,
  steps: 0,
  cost: { calls: 0, inputTokens: 0, outputTokens: 0, costUsd: 0 },
  ...over,
});
const step = (value: Extract<SubagentEvent, { phase: 'step' }>['step']): SubagentEvent => ({
  phase: 'step',
  id: 'abc123',
  sessionKey: 'agent:main:subagent:abc123',
  parentSessionKey: parent,
  step: value,
});

describe('subagent cards in the chat', () => {
  it('streams a subagent live in its parent chat: text, tools, cost, then abort and open its chat', async () => {
    app = startTestApp({
      'subagents.list': () => ({ subagents: [] }),
      'subagents.abort': () => ({ aborted: ['abc123'] }),
    });
    renderWithStores(app, <ChatView viewport={viewport} />);
    await act(() => app.client.waitForConnected());
    act(() =>
      app.gateway.emit('agent', {
        runId: 'r',
        sessionKey: parent,
        stream: 'tool',
        data: {
          phase: 'call',
          toolCallId: 'call-1',
          name: 'sessions_spawn',
          input: { task: 'read the persona file', label: 'reader' },
        },
      }),
    );
    const card = screen.getByRole('region', { name: 'Subagent reader' });
    expect(within(card).getByText('Running')).toBeTruthy();
    act(() => app.gateway.emit('subagent', { phase: 'started', subagent: view() }));
    act(() => app.gateway.emit('subagent', step({ kind: 'tool_call', toolCallId: 't1', name: 'read' })));
    act(() =>
      app.gateway.emit('subagent', step({ kind: 'tool_result', toolCallId: 't1', name: 'read', isError: false })),
    );
    act(() => app.gateway.emit('subagent', step({ kind: 'text', delta: 'I read **SOUL.md**' })));
    act(() => app.gateway.emit('subagent', step({ kind: 'text', delta: '; still going' })));
    act(() =>
      app.gateway.emit(
        'subagent',
        step({ kind: 'cost', cost: { calls: 2, inputTokens: 100, outputTokens: 20, costUsd: 0.0012 } }),
      ),
    );
    // Open while it runs: the task, the tool it called, what it has said so far, and its cost.
    expect(within(card).getByText('read the persona file')).toBeTruthy();
    expect(within(within(card).getByRole('list', { name: 'Tools it called' })).getByText('read')).toBeTruthy();
    expect(within(card).getByText('SOUL.md').tagName).toBe('STRONG');
    expect(within(card).getByTestId('subagent-text').textContent).toContain('; still going');
    expect(within(card).getByText(/1 tool call\(s\) · 120 tokens, \$0\.0012/)).toBeTruthy();

    fireEvent.click(within(card).getByRole('button', { name: 'Abort' }));
    await waitFor(() => expect(app.gateway.calls('subagents.abort')).toEqual([{ id: 'abc123' }]));
    act(() =>
      app.gateway.emit('subagent', {
        phase: 'ended',
        subagent: view({
          status: 'aborted',
          steps: 1,
          endedAtMs: 2,
          cost: { calls: 2, inputTokens: 100, outputTokens: 20, costUsd: 0.0012 },
        }),
      }),
    );
    expect(within(card).getByText('Aborted')).toBeTruthy();
    expect(within(card).queryByRole('button', { name: 'Abort' })).toBeNull();

    fireEvent.click(within(card).getByRole('button', { name: 'Open its chat' }));
    expect(app.stores.sessions.getState().activeKey).toBe('agent:main:subagent:abc123');
  });

  it('rebuilds the card after a reload from the transcript, and reads its steps from its own chat', async () => {
    app = startTestApp({
      // The host restarted: it no longer knows the subagent.
      'subagents.list': () => ({ subagents: [] }),
      'chat.history': (p) =>
        p.sessionKey === parent
          ? {
              messages: [
                { id: 'u', kind: 'user', text: 'count the moons', ts: 1 },
                {
                  id: 'c',
                  kind: 'tool_call',
                  toolCallId: 'call-9',
                  toolName: 'sessions_spawn',
                  input: { task: 'count the moons of Mars', label: 'moons' },
                  ts: 2,
                },
                {
                  id: 'r',
                  kind: 'tool_result',
                  toolCallId: 'call-9',
                  toolName: 'sessions_spawn',
                  output: 'Subagent f00d42 finished (1 call(s), 30 tokens, $0.0010):\n\nMars has 2 moons.',
                  ts: 3,
                },
              ],
              hasMore: false,
            }
          : {
              messages: [
                { id: 'a', kind: 'user', text: '[Task from agent:main:main …]\n\ncount the moons of Mars', ts: 2 },
                { id: 'b', kind: 'tool_call', toolCallId: 'x', toolName: 'memory_search', input: {}, ts: 2 },
                { id: 'd', kind: 'tool_result', toolCallId: 'x', toolName: 'memory_search', output: 'none', ts: 2 },
                { id: 'e', kind: 'assistant', text: 'Mars has 2 moons.', ts: 3 },
              ],
              hasMore: false,
            },
    });
    renderWithStores(app, <ChatView viewport={viewport} />);
    const card = await screen.findByRole('region', { name: 'Subagent moons' });
    await waitFor(() => expect(within(card).getByText('Done')).toBeTruthy());
    // Ended, so it starts closed; opening it reads what it did from its own transcript.
    expect(within(card).queryByText('count the moons of Mars')).toBeNull();
    fireEvent.click(within(card).getByRole('button', { name: /Subagent “moons”/ }));
    await waitFor(() => expect(within(card).getByText('Mars has 2 moons.')).toBeTruthy());
    expect(within(card).getByText('memory_search')).toBeTruthy();
    expect(app.gateway.calls('chat.history').map((call) => call.sessionKey)).toContain('agent:main:subagent:f00d42');
  });

  it('after a reload shows a background subagent the host still runs as running, with its abort', async () => {
    app = startTestApp({
      'subagents.list': () => ({
        subagents: [
          view({
            id: 'bg1',
            toolCallId: 'call-2',
            mode: 'background',
            label: 'checker',
            sessionKey: 'agent:main:subagent:bg1',
            steps: 3,
          }),
        ],
      }),
      'chat.history': () => ({
        messages: [
          {
            id: 'c',
            kind: 'tool_call',
            toolCallId: 'call-2',
            toolName: 'sessions_spawn',
            input: { task: 'check files', mode: 'background', label: 'checker' },
            ts: 2,
          },
          {
            id: 'r',
            kind: 'tool_result',
            toolCallId: 'call-2',
            toolName: 'sessions_spawn',
            output:
              'Subagent bg1 started in the background (agent:main:subagent:bg1, depth 1, leaf). You will be told when it ends.',
            ts: 3,
          },
        ],
        hasMore: false,
      }),
    });
    renderWithStores(app, <ChatView viewport={viewport} />);
    const card = await screen.findByRole('region', { name: 'Subagent checker' });
    await waitFor(() => expect(within(card).getByText('Running')).toBeTruthy());
    expect(within(card).getByText(/3 tool call\(s\)/)).toBeTruthy();
    expect(within(card).getByRole('button', { name: 'Abort' })).toBeTruthy();
  });
});
