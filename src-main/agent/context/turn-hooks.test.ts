import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { silentLogger } from '../../base/logger.js';
import { createFakeClock } from '../../testing/fake-clock.js';
import { ensureNoDisposablesAreLeakedInTestSuite } from '../../testing/leak-check.js';
import type { AgentMessage, ToolCallMessage, ToolResultMessage } from '../messages.js';
import type { CacheTraceWriter } from './cache-trace.js';
import type { ContextBudget } from './context-engine.js';
import { LinearContextEngine } from './linear-engine.js';
import { createTurnHooks, type TurnHooksDeps } from './turn-hooks.js';

let dir: string;
let ids = 0;
const newId = () => `m${++ids}`;
const roomy: ContextBudget = { promptTokens: 50_000, contextWindow: 100_000, fixedTokens: 0 };

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'hearth-turn-hooks-'));
});
afterEach(() => rm(dir, { recursive: true, force: true, maxRetries: 5, retryDelay: 50 }));

function engine() {
  return new LinearContextEngine({
    agentId: 'main',
    sessionKey: 'agent:main:main',
    workspaceDir: dir,
    summarizer: async () => 'Earlier: the user asked about logs.',
    clock: createFakeClock(0),
    newId,
    log: silentLogger,
    keepRecentTurns: 1,
    flushMemory: false,
  });
}

interface Recorded {
  appended: AgentMessage[][];
  prefixCalls: { message: string; history: string[] }[];
  traces: { callId: string; stage: string }[];
}

function hooksWith(overrides: Partial<TurnHooksDeps> = {}) {
  const prefix = 'recalled: likes tea';
  const recorded: Recorded = { appended: [], prefixCalls: [], traces: [] };
  const traceWriter: CacheTraceWriter = {
    record: async ({ callId, stage }) => void recorded.traces.push({ callId, stage }),
  };
  const hooks = createTurnHooks({
    engine: engine(),
    contextWindow: 100_000,
    sessionKey: 'agent:main:main',
    log: silentLogger,
    persistedSummaries: new Set(),
    appendToTranscript: async (messages) => void recorded.appended.push(messages),
    turnPrefix: async (input) => {
      recorded.prefixCalls.push(input);
      return prefix;
    },
    traceWriter,
    turnId: 't1',
    ...overrides,
  });
  return { hooks, recorded };
}

const user = (text: string): AgentMessage => ({ kind: 'user', id: newId(), ts: 0, text });
const assistant = (text: string): AgentMessage => ({ kind: 'assistant', id: newId(), ts: 0, text });

describe('turn hooks', () => {
  ensureNoDisposablesAreLeakedInTestSuite();

  it('puts the turn prefix on the new user message only, computed once per turn with the earlier questions', async () => {
    const { hooks, recorded } = hooksWith();
    const history = [user('what is in the logs?'), assistant('errors'), user('and tea?')];
    const first = await hooks.transformContext!(history, roomy);
    const second = await hooks.transformContext!([...history, assistant('thinking')], roomy);
    expect(recorded.prefixCalls).toEqual([{ message: 'and tea?', history: ['what is in the logs?'] }]);
    for (const assembled of [first, second]) {
      const users = assembled.filter((m) => m.kind === 'user');
      expect(users.map((m) => (m.kind === 'user' ? m.hiddenPrefix : 'x'))).toEqual([undefined, 'recalled: likes tea']);
    }
  });

  it('starts the prefix when the user message is durable, before the context, and uses that answer', async () => {
    let answer: (text: string) => void = () => {};
    const asked: { message: string; history: string[] }[] = [];
    const { hooks } = hooksWith({
      turnPrefix: (input) => {
        asked.push(input);
        return new Promise((resolve) => {
          answer = resolve;
        });
      },
    });
    const question = user('and tea?');
    hooks.userDurable({ id: question.id, text: 'and tea?' }, ['what is in the logs?']);
    // Asked already, before the context is assembled.
    expect(asked).toEqual([{ message: 'and tea?', history: ['what is in the logs?'] }]);
    const assembling = hooks.transformContext!([user('what is in the logs?'), assistant('errors'), question], roomy);
    answer('recalled early');
    const assembled = await assembling;
    expect(asked).toHaveLength(1);
    expect(assembled.at(-1)).toMatchObject({ id: question.id, hiddenPrefix: 'recalled early' });
  });

  it('leaves the messages alone when there is nothing to prefix', async () => {
    const { hooks } = hooksWith({ turnPrefix: async () => undefined });
    const assembled = await hooks.transformContext!([user('hello')], roomy);
    expect(assembled).toHaveLength(1);
    expect(assembled[0]).not.toHaveProperty('hiddenPrefix');
  });

  it('writes a compaction summary to the transcript once, and never one that came from it', async () => {
    const persisted = new Set<string>();
    const { hooks, recorded } = hooksWith({ persistedSummaries: persisted });
    const long = 'lorem ipsum '.repeat(200);
    const history: AgentMessage[] = [];
    for (let turn = 0; turn < 4; turn++) history.push(user(`question ${turn} ${long}`), assistant(`answer ${long}`));
    await hooks.transformContext!(history, roomy);
    const outcome = await hooks.compact!('overflow');
    expect(outcome.status).toBe('compacted');
    expect(recorded.appended).toHaveLength(1);
    const [summary] = recorded.appended[0]!;
    expect(summary?.kind).toBe('compaction_summary');
    expect(persisted.has(summary!.id)).toBe(true);

    // The next turn loads the transcript, summary included: it is not appended again.
    const { hooks: next, recorded: nextRecorded } = hooksWith({ persistedSummaries: persisted });
    await next.transformContext!([...history, summary!, user('more')], roomy);
    expect(nextRecorded.appended).toEqual([]);
  });

  it('cuts an oversized tool result as it arrives and keeps a small one whole', async () => {
    const { hooks } = hooksWith({ contextWindow: 8_000 });
    const call: ToolCallMessage = { kind: 'tool_call', id: 'c', ts: 0, toolCallId: 'c1', toolName: 'exec', input: {} };
    const result = (output: string): ToolResultMessage => ({
      kind: 'tool_result',
      id: 'r',
      ts: 0,
      toolCallId: 'c1',
      toolName: 'exec',
      output,
    });
    const small = result('ok');
    expect(await hooks.afterToolCall!(call, small)).toBe(small);
    const cut = await hooks.afterToolCall!(call, result(`${'x'.repeat(40_000)}\nError: disk full`));
    expect(cut.output.length).toBeLessThan(40_000);
    expect(cut.output).toContain('Error: disk full');
    expect(cut.truncated).toMatchObject({ originalChars: 40_017 });
  });

  it('traces each model call of the turn under its own call id', async () => {
    const { hooks, recorded } = hooksWith();
    hooks.traceContext!({ step: 0, stage: 'session_loaded', messages: [] });
    hooks.traceContext!({ step: 0, stage: 'sanitized', messages: [] });
    hooks.traceContext!({ step: 1, stage: 'session_loaded', messages: () => [] });
    // Recorded once the turn's end event is out, not while the model is being called.
    expect(recorded.traces).toEqual([]);
    hooks.afterTurn();
    expect(recorded.traces).toEqual([
      { callId: 't1-0', stage: 'session_loaded' },
      { callId: 't1-0', stage: 'sanitized' },
      { callId: 't1-1', stage: 'session_loaded' },
    ]);
  });
});
