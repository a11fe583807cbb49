import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createOpenAI } from '@ai-sdk/openai';
import { type LanguageModel, type ModelMessage, streamText } from 'ai';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { silentLogger } from '../../base/logger.js';
import { createFakeClock } from '../../testing/fake-clock.js';
import { type FakeLlmServer, startFakeLlmServer } from '../../testing/fake-llm/index.js';
import type { AgentMessage } from '../messages.js';
import { createCompactionPolicy } from './compaction-policy.js';
import { LinearContextEngine } from './linear-engine.js';
import { createRunContextHooks } from './run-context-hooks.js';
import { createSdkSummarizer } from './sdk-summarizer.js';
import { estimateMessagesTokens } from './token-estimate.js';

let server: FakeLlmServer;
let dir: string;
let n = 0;
const newId = () => `f${++n}`;
beforeAll(async () => {
  server = await startFakeLlmServer();
});
afterAll(() => server.close());
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'hearth-fake-llm-ctx-'));
  server.reset();
});
afterEach(() => rm(dir, { recursive: true, force: true, maxRetries: 5, retryDelay: 50 }));

const model = (): LanguageModel =>
  createOpenAI({ baseURL: server.baseUrlFor('openai'), apiKey: 'sk-test-fake' }).chat('gpt-4o');

function history(turns: number): AgentMessage[] {
  const out: AgentMessage[] = [];
  for (let t = 0; t < turns; t += 1) {
    out.push({
      kind: 'user',
      id: newId(),
      ts: t,
      text: `Step ${t}: edit src/module-${t}/index.ts ${'please '.repeat(30)}`,
    });
    out.push({ kind: 'assistant', id: newId(), ts: t, text: `Edited src/module-${t}/index.ts ${'done '.repeat(30)}` });
  }
  return out;
}

const toModelMessages = (messages: readonly AgentMessage[]): ModelMessage[] =>
  messages.map((m) =>
    m.kind === 'assistant'
      ? { role: 'assistant', content: m.text }
      : { role: 'user', content: m.kind === 'compaction_summary' ? m.summary : 'text' in m ? m.text : '' },
  );

/** One streamed call as the runner makes it; rejects with the provider's error. */
async function complete(messages: ModelMessage[], abortSignal?: AbortSignal): Promise<{ text: string }> {
  const result = streamText({ model: model(), messages, maxRetries: 0, abortSignal, onError: () => {} });
  let text = '';
  for await (const part of result.fullStream) {
    if (part.type === 'text-delta') text += part.text;
    else if (part.type === 'error') throw part.error;
    else if (part.type === 'abort') throw new Error('aborted: first token too slow');
  }
  return { text };
}

function setup() {
  const engine = new LinearContextEngine({
    agentId: 'main',
    sessionKey: 'agent:main:main',
    workspaceDir: dir,
    summarizer: createSdkSummarizer({ model: model() }),
    clock: createFakeClock(),
    newId,
    log: silentLogger,
    keepRecentTurns: 2,
  });
  const hooks = createRunContextHooks({
    engine,
    policy: createCompactionPolicy(),
    log: silentLogger,
    contextWindow: 8_000,
  });
  return { engine, hooks };
}

describe('compaction against the fake LLM through the real AI SDK', () => {
  it('overflow: the provider refuses, we compact with the model, the retry is smaller and succeeds', async () => {
    const { engine, hooks } = setup();
    await engine.bootstrap({ messages: history(20) });
    // Call 1 overflows; call 2 is the summary (which forgets everything); call 3 is the retry.
    server.script([
      { type: 'error', error: 'context_length' },
      { type: 'text', text: '- Edited many modules.' },
      { type: 'text', text: 'All done.' },
    ]);
    const send = () => complete(toModelMessages(engine.history()));

    const failure = await send().then(
      () => undefined,
      (error: Error) => error,
    );
    expect(failure?.message).toMatch(/maximum context length/);
    const outcome = await hooks.compact('overflow');
    expect(outcome.status === 'failed' ? outcome.error : outcome.status).toBe('compacted');
    const retry = await send();
    expect(retry.text).toBe('All done.');

    const [first, summaryCall, second] = server.requests;
    expect(summaryCall?.body.messages).toBeDefined();
    expect(second?.promptTokens).toBeLessThan((first?.promptTokens ?? 0) / 2);
    // The model's summary dropped every path; verification put them all back.
    const summary = engine.history()[0];
    expect(summary?.kind).toBe('compaction_summary');
    for (let t = 0; t < 18; t += 1)
      expect(summary?.kind === 'compaction_summary' && summary.summary).toContain(`src/module-${t}/index.ts`);
  });

  it('summary call fails: history is kept and the turn can still go on', async () => {
    const { engine, hooks } = setup();
    const before = history(10);
    await engine.bootstrap({ messages: before });
    server.script([{ type: 'error', error: 'overloaded' }]);
    const outcome = await hooks.compact('overflow');
    expect(outcome).toMatchObject({ status: 'failed', retryLater: true });
    expect(engine.history()).toEqual(before);
  });

  it('slow first token: a timed-out call compacts only when the context is ≥ 65% full', async () => {
    const { engine, hooks } = setup();
    await engine.bootstrap({ messages: history(2) });
    await hooks.transformContext(engine.history(), { promptTokens: 8_000, contextWindow: 8_000, fixedTokens: 0 });
    server.script([{ type: 'text', text: 'late', firstTokenDelayMs: 5_000 }]);
    const timedOut = await complete(toModelMessages(engine.history()), AbortSignal.timeout(200)).then(
      () => undefined,
      (error: Error) => error,
    );
    expect(timedOut).toBeDefined();
    expect((await hooks.compact('timeout')).status).toBe('skipped');

    // Grow to between 65% and 100% of the window: it fits, but a slow call is now likely about size.
    while (estimateMessagesTokens(engine.history()) < 5_600) await engine.ingestBatch(history(1));
    await hooks.transformContext(engine.history(), { promptTokens: 8_000, contextWindow: 8_000, fixedTokens: 0 });
    expect(hooks.lastAssembled()?.route).toBe('fits');
    server.script([{ type: 'text', text: '- Summary of the edits.' }]);
    expect(await hooks.compact('timeout')).toMatchObject({ status: 'compacted' });
  });
});
