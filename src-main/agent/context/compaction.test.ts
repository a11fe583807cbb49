import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createFakeClock } from '../../testing/fake-clock.js';
import type { AgentMessage } from '../messages.js';
import { compactHistory, type Summarizer } from './compaction.js';
import { dailyMemoryPath, flushDurableFacts } from './memory-flush.js';

let ids = 0;
const newId = () => `m${++ids}`;

/** 50 identifiers of the kinds users complain get lost: paths, URLs, symbols, constants, numbers. */
function plantedIdentifier(i: number): string {
  switch (i % 5) {
    case 0:
      return `/srv/app/config-${i}.yaml`;
    case 1:
      return `https://wiki.example.org/page/${i}`;
    case 2:
      return `parseInvoice${i}`;
    case 3:
      return `TICKET_${i}_ID`;
    default:
      return `9${i}731`;
  }
}

/** A 200-turn conversation with the 50 identifiers planted in the first 150 turns. */
function longConversation(turns = 200, planted = 50): AgentMessage[] {
  const messages: AgentMessage[] = [];
  for (let t = 0; t < turns; t += 1) {
    const plant = t % 3 === 0 && t / 3 < planted ? ` Note ${plantedIdentifier(t / 3)} for later.` : '';
    messages.push({ kind: 'user', id: newId(), ts: t, text: `Turn ${t}: can you look at this?${plant}` });
    messages.push({ kind: 'assistant', id: newId(), ts: t, text: `Sure, looked at turn ${t}. Nothing unusual.` });
  }
  return messages;
}

/** A summarizer that is lazy on purpose: keeps only every other required identifier. */
const droppingSummarizer: Summarizer = async ({ requiredIdentifiers }) =>
  `- Long chat about many items.\n- Kept: ${requiredIdentifiers.filter((_, i) => i % 2 === 0).join(', ')}`;

describe('compactHistory', () => {
  it('keeps all 50 planted identifiers after a 200-turn compaction, re-inserting what the model dropped', async () => {
    const messages = longConversation();
    const outcome = await compactHistory({
      messages,
      summarizer: droppingSummarizer,
      reason: 'preemptive',
      keepRecentTurns: 4,
      now: () => 1,
      newId,
    });
    expect(outcome.status).toBe('compacted');
    if (outcome.status !== 'compacted') return;
    expect(outcome.reinserted.length).toBeGreaterThan(0);
    const visible = outcome.messages
      .map((m) => (m.kind === 'compaction_summary' ? m.summary : 'text' in m ? m.text : ''))
      .join('\n');
    for (let i = 0; i < 50; i += 1) expect(visible).toContain(plantedIdentifier(i));
    // Recent turns verbatim, summary first, and the history got much smaller.
    expect(outcome.messages[0]?.kind).toBe('compaction_summary');
    expect(outcome.messages.slice(1)).toEqual(messages.slice(-8));
    expect(outcome.tokensAfter).toBeLessThan(outcome.tokensBefore / 2);
  });

  it('carries identifiers through a second compaction', async () => {
    const first = await compactHistory({
      messages: longConversation(),
      summarizer: droppingSummarizer,
      reason: 'overflow',
      now: () => 1,
      newId,
    });
    if (first.status !== 'compacted') throw new Error('first compaction failed');
    const more = [...first.messages, ...longConversation(20, 0)];
    const second = await compactHistory({
      messages: more,
      summarizer: async () => 'brief',
      reason: 'overflow',
      now: () => 2,
      newId,
    });
    if (second.status !== 'compacted') throw new Error('second compaction failed');
    for (let i = 0; i < 50; i += 1) expect(second.summary.summary).toContain(plantedIdentifier(i));
    expect(second.summary.replaces).toContain(first.summary.id);
  });

  it('keeps decisions verbatim', async () => {
    const messages: AgentMessage[] = [
      { kind: 'user', id: newId(), ts: 0, text: 'Which database? We decided to use SQLite for the cache.' },
      { kind: 'assistant', id: newId(), ts: 0, text: 'Noted.' },
      ...longConversation(4, 0),
    ];
    const outcome = await compactHistory({
      messages,
      summarizer: async () => 'Talked about storage.',
      reason: 'manual',
      now: () => 1,
      newId,
    });
    expect(outcome.status === 'compacted' && outcome.summary.summary).toContain(
      'We decided to use SQLite for the cache.',
    );
  });

  it('keeps the original messages when the summary call fails, so the turn goes on', async () => {
    const messages = longConversation(10, 3);
    const outcome = await compactHistory({
      messages,
      summarizer: async () => {
        throw new Error('503 overloaded');
      },
      reason: 'overflow',
      now: () => 1,
      newId,
    });
    expect(outcome).toMatchObject({ status: 'failed', retryLater: true, error: '503 overloaded' });
    expect(outcome.messages).toEqual(messages);
  });

  it('treats an empty summary as a failure', async () => {
    const outcome = await compactHistory({
      messages: longConversation(10, 0),
      summarizer: async () => '  ',
      reason: 'timeout',
      now: () => 1,
      newId,
    });
    expect(outcome).toMatchObject({ status: 'failed', error: 'summarizer returned an empty summary' });
  });

  it('skips when there is nothing older than the kept turns', async () => {
    const outcome = await compactHistory({
      messages: longConversation(3, 0),
      summarizer: droppingSummarizer,
      reason: 'preemptive',
      now: () => 1,
      newId,
    });
    expect(outcome.status).toBe('skipped');
  });

  it('rejects a bad keepRecentTurns by name', async () => {
    await expect(
      compactHistory({
        messages: [],
        summarizer: droppingSummarizer,
        reason: 'manual',
        keepRecentTurns: 0,
        now: () => 1,
        newId,
      }),
    ).rejects.toThrow(/keepRecentTurns/);
  });
});

describe('flushDurableFacts', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'hearth-flush-'));
  });
  afterEach(() => rm(dir, { recursive: true, force: true, maxRetries: 5, retryDelay: 50 }));

  const span: AgentMessage[] = [
    { kind: 'user', id: 'a', ts: 0, text: 'hi' },
    { kind: 'user', id: 'b', ts: 0, text: 'Please remember that my favourite colour is teal.' },
    { kind: 'assistant', id: 'c', ts: 0, text: 'Got it. We agreed to meet on Friday.' },
  ];

  it('appends to an existing daily file without touching what is there', async () => {
    const clock = createFakeClock(new Date(2026, 10, 30, 9, 0).getTime());
    const path = dailyMemoryPath(dir, clock.now());
    expect(path.endsWith(join('memory', '2026-11-30.md'))).toBe(true);
    await mkdir(join(dir, 'memory'), { recursive: true });
    await writeFile(path, '# 2026-11-30\n- user wrote this by hand');
    const result = await flushDurableFacts({ workspaceDir: dir, clock, messages: span });
    const text = await readFile(path, 'utf8');
    expect(text.startsWith('# 2026-11-30\n- user wrote this by hand\n')).toBe(true);
    expect(text).toContain('- User: Please remember that my favourite colour is teal.');
    expect(text).toContain('- Assistant: We agreed to meet on Friday.');
    expect(text).not.toContain('hi\n');
    expect(result.appended).toHaveLength(2);
    // Flushing the same span again adds nothing.
    expect((await flushDurableFacts({ workspaceDir: dir, clock, messages: span })).appended).toEqual([]);
    expect(await readFile(path, 'utf8')).toBe(text);
  });

  it('creates the file when missing', async () => {
    const clock = createFakeClock(new Date(2026, 0, 5, 23, 59).getTime());
    await flushDurableFacts({ workspaceDir: dir, clock, messages: span });
    const text = await readFile(join(dir, 'memory', '2026-01-05.md'), 'utf8');
    expect(text.startsWith('# 2026-01-05\n')).toBe(true);
  });
});
