import { describe, expect, it } from 'vitest';
import type { AgentMessage } from '../messages.js';
import { applyCompactionSummaries } from './apply-compactions.js';

const user = (id: string, text = id): AgentMessage => ({ kind: 'user', id, ts: 0, text });
const summary = (id: string, replaces: string[]): AgentMessage => ({
  kind: 'compaction_summary',
  id,
  ts: 0,
  summary: `summary of ${replaces.join(',')}`,
  replaces,
  identifiers: [],
});

describe('applyCompactionSummaries', () => {
  it('puts a summary where its span began and drops what it replaced', () => {
    const transcript = [user('a'), user('b'), user('c'), user('d'), summary('s1', ['a', 'b']), user('e')];
    expect(applyCompactionSummaries(transcript).map((m) => m.id)).toEqual(['s1', 'c', 'd', 'e']);
  });

  it('handles a second compaction that folds the first summary in', () => {
    const transcript = [
      user('a'),
      user('b'),
      user('c'),
      summary('s1', ['a', 'b']),
      user('d'),
      summary('s2', ['s1', 'a', 'b', 'c']),
    ];
    expect(applyCompactionSummaries(transcript).map((m) => m.id)).toEqual(['s2', 'd']);
  });

  it('keeps a summary whose replaced messages are outside the loaded window', () => {
    expect(applyCompactionSummaries([user('x'), summary('s1', ['old1', 'old2']), user('y')]).map((m) => m.id)).toEqual([
      's1',
      'x',
      'y',
    ]);
  });

  it('leaves a transcript without summaries untouched', () => {
    const transcript = [user('a'), user('b')];
    expect(applyCompactionSummaries(transcript)).toEqual(transcript);
  });
});
