import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { silentLogger } from '../../base/logger.js';
import { createFakeClock } from '../../testing/fake-clock.js';
import type { AgentMessage, ToolResultMessage } from '../messages.js';
import type { Summarizer } from './compaction.js';
import { ContextOverflowError, createCompactionPolicy } from './compaction-policy.js';
import { createContextEngineRegistry } from './context-engine-registry.js';
import { LinearContextEngine } from './linear-engine.js';
import { createRunContextHooks } from './run-context-hooks.js';
import { estimateMessagesTokens } from './token-estimate.js';

let dir: string;
let counter = 0;
const newId = () => `id${++counter}`;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'hearth-engine-'));
});
afterEach(() => rm(dir, { recursive: true, force: true, maxRetries: 5, retryDelay: 50 }));

function engine(summarizer: Summarizer = async () => 'Summary of earlier turns.') {
  return new LinearContextEngine({
    agentId: 'main',
    sessionKey: 'agent:main:main',
    workspaceDir: dir,
    summarizer,
    clock: createFakeClock(new Date(2026, 10, 30, 12, 0).getTime()),
    newId,
    log: silentLogger,
    keepRecentTurns: 2,
  });
}

function chat(turns: number, words = 40): AgentMessage[] {
  const out: AgentMessage[] = [];
  for (let t = 0; t < turns; t += 1) {
    out.push({ kind: 'user', id: newId(), ts: t, text: `question ${t} ${'lorem ipsum '.repeat(words)}` });
    out.push({ kind: 'assistant', id: newId(), ts: t, text: `answer ${t} ${'dolor sit '.repeat(words)}` });
  }
  return out;
}

function toolTurn(outputChars: number): AgentMessage[] {
  return [
    { kind: 'user', id: newId(), ts: 0, text: 'list the logs' },
    { kind: 'tool_call', id: newId(), ts: 0, toolCallId: 'c1', toolName: 'exec', input: { command: 'cat big.log' } },
    {
      kind: 'tool_result',
      id: newId(),
      ts: 0,
      toolCallId: 'c1',
      toolName: 'exec',
      output: 'log line\n'.repeat(outputChars / 9),
    },
    { kind: 'assistant', id: newId(), ts: 0, text: 'done' },
  ];
}

describe('LinearContextEngine.assemble routes', () => {
  it('fits: sends the whole history untouched', async () => {
    const e = engine();
    const history = chat(3);
    await e.bootstrap({ messages: history });
    const out = await e.assemble({ promptTokens: 100_000, contextWindow: 128_000, fixedTokens: 1_000 });
    expect(out.route).toBe('fits');
    expect(out.messages).toEqual(history);
  });

  it('truncate_tool_results_only: cuts the big tool result, keeps every turn', async () => {
    const e = engine();
    await e.bootstrap({ messages: [...chat(1), ...toolTurn(60_000)] });
    const out = await e.assemble({ promptTokens: 12_000, contextWindow: 128_000, fixedTokens: 1_000 });
    expect(out.route).toBe('truncate_tool_results_only');
    expect(out.omittedCount).toBe(0);
    expect(out.truncatedToolResults).toBe(1);
    const result = out.messages.find((m) => m.kind === 'tool_result') as ToolResultMessage;
    expect(result.truncated?.originalChars).toBeGreaterThan(50_000);
  });

  it('compact_only: no tool results to cut; reports the route and still fits by leaving out old turns', async () => {
    const e = engine();
    await e.bootstrap({ messages: chat(40) });
    const out = await e.assemble({ promptTokens: 3_000, contextWindow: 128_000, fixedTokens: 500 });
    expect(out.route).toBe('compact_only');
    expect(out.historyTokens).toBeLessThanOrEqual(2_500);
    expect(out.messages.at(-1)?.id).toBe(e.history().at(-1)?.id);
  });

  it('compact_then_truncate: cutting helps but is not enough', async () => {
    const e = engine();
    await e.bootstrap({ messages: [...chat(40), ...toolTurn(40_000)] });
    const out = await e.assemble({ promptTokens: 6_000, contextWindow: 128_000, fixedTokens: 500 });
    expect(out.route).toBe('compact_then_truncate');
  });

  it('rejects a bad budget by field', async () => {
    await expect(engine().assemble({ promptTokens: -1, contextWindow: 1, fixedTokens: 0 })).rejects.toThrow(
      /budget.promptTokens/,
    );
  });
});

describe('run context hooks (the runner seam)', () => {
  it('preemptive: compacts before a call that would not fit, then the call fits', async () => {
    const e = engine();
    const hooks = createRunContextHooks({
      engine: e,
      policy: createCompactionPolicy(),
      log: silentLogger,
      contextWindow: 128_000,
    });
    const history: AgentMessage[] = [
      { kind: 'user', id: newId(), ts: 0, text: 'Please remember that my dentist is Dr. Lee.' },
      { kind: 'assistant', id: newId(), ts: 0, text: 'Noted.' },
      ...chat(40),
    ];
    const budget = { promptTokens: 3_000, contextWindow: 128_000, fixedTokens: 500 };
    expect(estimateMessagesTokens(history)).toBeGreaterThan(2_500);
    const sent = await hooks.transformContext(history, budget);
    expect(sent[0]?.kind).toBe('compaction_summary');
    expect(hooks.lastAssembled()?.route).toBe('fits');
    // The durable fact in the compacted span went to today's memory file first.
    expect(await readFile(join(dir, 'memory', '2026-11-30.md'), 'utf8')).toContain('my dentist is Dr. Lee.');
  });

  it('timeout: compacts only when the context is mostly full', async () => {
    const e = engine();
    const hooks = createRunContextHooks({
      engine: e,
      policy: createCompactionPolicy(),
      log: silentLogger,
      contextWindow: 10_000,
    });
    await hooks.transformContext(chat(2, 5), { promptTokens: 8_000, contextWindow: 10_000, fixedTokens: 100 });
    expect((await hooks.compact('timeout')).status).toBe('skipped');
    // Grow the history to between 65% and 100% of the window: it still fits, but a slow call is likely size-related.
    while (estimateMessagesTokens(e.history()) < 7_000) await e.ingestBatch(chat(1));
    expect(estimateMessagesTokens(e.history())).toBeLessThan(9_900);
    await hooks.transformContext(e.history(), { promptTokens: 10_000, contextWindow: 10_000, fixedTokens: 100 });
    expect(hooks.lastAssembled()?.route).toBe('fits');
    expect((await hooks.compact('timeout')).status).toBe('compacted');
  });

  it('overflow: compacts up to 3 times, truncates once, then fails with a clear error', async () => {
    const e = engine();
    const hooks = createRunContextHooks({
      engine: e,
      policy: createCompactionPolicy(),
      log: silentLogger,
      contextWindow: 8_000,
    });
    await e.bootstrap({ messages: [...toolTurn(60_000), ...chat(30)] });
    const statuses: string[] = [];
    for (let i = 0; i < 3; i += 1) {
      statuses.push((await hooks.compact('overflow')).status);
      await e.ingestBatch(chat(4));
    }
    expect(statuses).toEqual(['compacted', 'compacted', 'compacted']);
    const fourth = await hooks.compact('overflow');
    expect(fourth).toMatchObject({ status: 'skipped' });
    await expect(hooks.compact('overflow')).rejects.toBeInstanceOf(ContextOverflowError);
  });

  it('a failing summarizer keeps the history and does not throw', async () => {
    const e = engine(async () => {
      throw new Error('provider down');
    });
    const hooks = createRunContextHooks({
      engine: e,
      policy: createCompactionPolicy(),
      log: silentLogger,
      contextWindow: 128_000,
    });
    const history = chat(40);
    const sent = await hooks.transformContext(history, {
      promptTokens: 3_000,
      contextWindow: 128_000,
      fixedTokens: 500,
    });
    expect(sent.length).toBeGreaterThan(0);
    expect(e.history()).toEqual(history);
    expect(sent.at(-1)).toEqual(history.at(-1));
  });
});

describe('context engine registry', () => {
  it('has the linear engine by default, takes plugin engines, and names the choices for an unknown id', () => {
    const registry = createContextEngineRegistry();
    expect(registry.get(undefined).id).toBe('linear');
    const lexical = { id: 'lexical', createEngine: () => engine() };
    const registration = registry.register(lexical);
    expect(registry.get('lexical')).toBe(lexical);
    expect(() => registry.register(lexical)).toThrow(/already registered/);
    registration.dispose();
    expect(() => registry.get('lexical')).toThrow(
      'unknown context engine "lexical" (agents.<id>.contextEngine); available: linear',
    );
  });
});
