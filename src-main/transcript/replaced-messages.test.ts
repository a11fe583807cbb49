import { describe, expect, it } from 'vitest';
import { withoutReplaced } from './replaced-messages.js';
import type { AgentMessage } from './transcript-message.js';

const user = (id: string, text: string, supersedes?: string): AgentMessage => ({
  kind: 'user',
  id,
  ts: 1,
  text,
  ...(supersedes ? { supersedes } : {}),
});
const answer = (id: string, text: string, supersedes?: string): AgentMessage => ({
  kind: 'assistant',
  id,
  ts: 1,
  text,
  ...(supersedes ? { supersedes } : {}),
});
const ids = (messages: AgentMessage[]) => messages.map((m) => m.id);

describe('withoutReplaced', () => {
  it('keeps a transcript without replacements as it is', () => {
    const messages = [user('u1', 'hi'), answer('a1', 'hello')];
    expect(withoutReplaced(messages)).toBe(messages);
  });

  it('a regenerated answer replaces the old answer and its tool calls, the question stays once', () => {
    const messages: AgentMessage[] = [
      user('u1', 'hi'),
      { kind: 'tool_call', id: 't1', ts: 1, toolCallId: 'c1', toolName: 'ls', input: {} },
      { kind: 'tool_result', id: 'r1', ts: 1, toolCallId: 'c1', toolName: 'ls', output: '' },
      answer('a1', 'first'),
      answer('a2', 'second', 't1'),
    ];
    expect(ids(withoutReplaced(messages))).toEqual(['u1', 'a2']);
  });

  it('an edited message replaces the old message and everything after it', () => {
    const messages = [user('u1', 'hi'), answer('a1', 'hello'), user('u2', 'hi there', 'u1'), answer('a2', 'hey')];
    expect(ids(withoutReplaced(messages))).toEqual(['u2', 'a2']);
  });

  it('replacements chain, and one naming a message no longer shown (or on an older page) drops nothing', () => {
    const messages = [
      user('u0', 'before'),
      user('u1', 'hi'),
      answer('a1', 'one'),
      answer('a2', 'two', 'a1'),
      answer('a3', 'three', 'a2'),
      answer('a4', 'stray', 'a1'),
      answer('a5', 'older page', 'gone'),
    ];
    expect(ids(withoutReplaced(messages))).toEqual(['u0', 'u1', 'a3', 'a4', 'a5']);
  });
});
