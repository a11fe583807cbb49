import { describe, expect, it } from 'vitest';
import type { AgentMessage } from '../messages.js';
import { toModelMessages } from './to-model-messages.js';

const at = (kind: string, extra: Record<string, unknown>) =>
  ({ id: `${kind}-${Math.random()}`, ts: 1, kind, ...extra }) as AgentMessage;

describe('toModelMessages', () => {
  it('merges assistant text with the tool calls that follow, and consecutive tool results', () => {
    const out = toModelMessages([
      at('user', { text: 'weather?' }),
      at('assistant', { text: 'checking' }),
      at('tool_call', { toolCallId: 'c1', toolName: 'w', input: { city: 'a' } }),
      at('tool_call', { toolCallId: 'c2', toolName: 'w', input: { city: 'b' } }),
      at('tool_result', { toolCallId: 'c1', toolName: 'w', output: 'sun' }),
      at('tool_result', { toolCallId: 'c2', toolName: 'w', output: 'boom', isError: true }),
      at('assistant', { text: 'done' }),
    ]);
    expect(out.map((m) => m.role)).toEqual(['user', 'assistant', 'tool', 'assistant']);
    expect(out[1]?.content).toHaveLength(3);
    expect(out[2]?.content).toEqual([
      { type: 'tool-result', toolCallId: 'c1', toolName: 'w', output: { type: 'text', value: 'sun' } },
      { type: 'tool-result', toolCallId: 'c2', toolName: 'w', output: { type: 'error-text', value: 'boom' } },
    ]);
  });

  it('drops tool calls that never got a result (a turn cut mid-tool), keeping the text', () => {
    const out = toModelMessages([
      at('user', { text: 'go' }),
      at('assistant', { text: 'starting' }),
      at('tool_call', { toolCallId: 'c1', toolName: 'w', input: {} }),
      at('user', { text: 'hello?' }),
    ]);
    expect(out).toEqual([
      { role: 'user', content: 'go' },
      { role: 'assistant', content: [{ type: 'text', text: 'starting' }] },
      { role: 'user', content: 'hello?' },
    ]);
  });

  it('labels non-LLM kinds and puts hidden context before the user text', () => {
    const out = toModelMessages([
      at('compaction_summary', { summary: 'we talked', replaces: [], identifiers: [] }),
      at('notification', { text: 'cron ran' }),
      at('steering', { text: 'be brief' }),
      at('user', { text: 'hi', hiddenPrefix: 'recall: likes teal' }),
      at('user', { text: 'look', attachments: [{ kind: 'image', mediaType: 'image/png', data: 'AAAA' }] }),
    ]);
    expect(out.map((m) => m.content)).toEqual([
      '[Summary of the earlier conversation]\nwe talked',
      '[Notification] cron ran',
      '[Steering from the user] be brief',
      'recall: likes teal\n\nhi',
      [
        { type: 'text', text: 'look' },
        { type: 'image', image: 'AAAA', mediaType: 'image/png' },
      ],
    ]);
  });
});
