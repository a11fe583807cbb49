import { describe, expect, it } from 'vitest';
import { readHistoryMessage } from './read-history-message.js';

describe('readHistoryMessage', () => {
  it("reads this gateway's shape: kind, role and text parts", () => {
    expect(
      readHistoryMessage({
        id: 'm1',
        ts: 5,
        kind: 'assistant',
        role: 'assistant',
        content: [{ type: 'text', text: 'Hel' }, { type: 'image' }, { type: 'text', text: 'lo' }],
        model: 'openai/gpt-5',
      }),
    ).toEqual({
      id: 'm1',
      ts: 5,
      kind: 'assistant',
      text: 'Hello',
      output: 'Hello',
      attachments: [],
      model: 'openai/gpt-5',
    });
  });

  it("reads an older Hearth's transcript entry and OpenClaw's role-only message", () => {
    expect(
      readHistoryMessage({ id: 7, kind: 'tool_result', toolCallId: 't', output: 'a.txt', timestamp: 3 }),
    ).toMatchObject({ id: '7', ts: 3, kind: 'tool_result', toolCallId: 't', output: 'a.txt' });
    expect(
      readHistoryMessage({ kind: 'user', text: 'hi', attachments: [{ mediaType: 'image/png' }, 'junk'] }),
    ).toMatchObject({
      kind: 'user',
      text: 'hi',
      attachments: [
        { name: 'attachment', mediaType: 'image/png' },
        { name: 'attachment', mediaType: '' },
      ],
    });
    expect(readHistoryMessage({ role: 'tool', content: 'done' })).toMatchObject({ kind: 'tool', output: 'done' });
  });

  it('reads nothing from a message without kind or role', () => {
    expect(readHistoryMessage({ text: 'who said this' })).toBeUndefined();
    expect(readHistoryMessage(null)).toBeUndefined();
  });
});
