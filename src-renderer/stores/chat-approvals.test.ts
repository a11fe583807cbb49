import { afterEach, describe, expect, it } from 'vitest';
import { formatApprovalMarker, readApprovalMarker } from '../../src-main/protocol/approval-marker.js';
import { startTestApp, type TestApp } from '../testing/render-app.js';

let app: TestApp;
afterEach(() => app?.dispose());
const key = 'agent:main:main';
const messages = () => app.stores.chat.getState().transcripts[key]!.messages;

describe('approval decisions in the transcript', () => {
  it('reads the marker back exactly as the exec tool writes it, and leaves other output alone', () => {
    for (const decision of ['allow-once', 'allow-session', 'allow-always', 'deny'] as const) {
      const line = formatApprovalMarker({ decision, by: 'operator:Control UI(c1)' });
      expect(readApprovalMarker(`${line}\nhello\n[exit code 0]`)).toEqual({
        marker: { decision, by: 'operator:Control UI(c1)' },
        output: 'hello\n[exit code 0]',
      });
    }
    expect(readApprovalMarker('[approval: maybe by x]\nout')).toEqual({ output: '[approval: maybe by x]\nout' });
    expect(readApprovalMarker('plain')).toEqual({ output: 'plain' });
  });

  it('shows the decision after a reload: the result marker becomes the "Allowed"/"Denied" state', async () => {
    app = startTestApp({
      'chat.history': () => ({
        messages: [
          { id: '1', kind: 'tool_call', toolCallId: 't1', toolName: 'exec', input: { command: 'rm -rf build' }, ts: 1 },
          {
            id: '2',
            kind: 'tool_result',
            toolCallId: 't1',
            toolName: 'exec',
            output: '[approval: deny by operator:Control UI(c1)]\nNot run: denied (operator:Control UI(c1)).',
            ts: 2,
          },
          { id: '3', kind: 'tool_call', toolCallId: 't2', toolName: 'exec', input: { command: 'ls' }, ts: 3 },
          {
            id: '4',
            kind: 'tool_result',
            toolCallId: 't2',
            toolName: 'exec',
            output: '[approval: allow-session by operator:phone(c2)]\na.txt\n[exit code 0]',
            ts: 4,
          },
        ],
        hasMore: false,
      }),
    });
    await app.client.waitForConnected();
    await app.stores.chat.getState().load(key);
    expect(messages()).toMatchObject([
      { approval: 'denied', decision: { decision: 'deny' }, toolOutput: 'Not run: denied (operator:Control UI(c1)).' },
      {
        approval: 'allowed',
        decision: { decision: 'allow-session', by: 'operator:phone(c2)' },
        toolOutput: 'a.txt\n[exit code 0]',
      },
    ]);
  });

  it('shows tool output live from the result event, and a message another device sent', async () => {
    app = startTestApp({ 'chat.history': () => ({ messages: [], hasMore: false }) });
    await app.client.waitForConnected();
    await app.stores.chat.getState().load(key);
    app.gateway.emit('chat', {
      runId: 'r1',
      sessionKey: key,
      seq: 1,
      state: 'delta',
      deltaText: 'Listing',
      message: { role: 'assistant', content: [{ type: 'text', text: 'Listing' }] },
    });
    const tool = (data: Record<string, unknown>) =>
      app.gateway.emit('agent', { runId: 'r1', sessionKey: key, seq: 2, stream: 'tool', ts: 1, data });
    tool({ phase: 'call', toolCallId: 't1', name: 'exec', input: { command: 'ls' } });
    tool({
      phase: 'result',
      toolCallId: 't1',
      name: 'exec',
      isError: false,
      output: '[approval: allow-once by operator:ui]\na.txt\n[exit code 0]',
    });
    expect(messages().find((m) => m.role === 'tool')).toMatchObject({
      toolOutput: 'a.txt\n[exit code 0]',
      approval: 'allowed',
      decision: { decision: 'allow-once', by: 'operator:ui' },
    });
    // The phone's message lands in the transcript: it shows in front of the answer it started.
    app.gateway.emit('session.message', {
      sessionKey: key,
      agentId: 'main',
      sessionId: 's1',
      messageId: 'm1',
      messageSeq: 1,
      message: {
        id: 'm1',
        ts: 1,
        timestamp: 1,
        kind: 'user',
        role: 'user',
        content: [{ type: 'text', text: 'list my files' }],
        idempotencyKey: 'r1:user',
      },
    });
    expect(messages().map((m) => m.role)).toEqual(['user', 'assistant', 'tool']);
    expect(messages()[0]).toMatchObject({ text: 'list my files', stored: true });
  });
});
