import { createOpenAI } from '@ai-sdk/openai';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { streamCompletion } from '../providers/index.js';
import { type FakeLlmServer, startFakeLlmServer } from '../testing/fake-llm/index.js';
import { createMemoryFixture, type MemoryFixture } from '../testing/memory-test-fixture.js';
import { createActiveRecall } from './active-recall.js';
import { type MemoryRecallConfig, memoryRecallConfigSchema } from './memory-config.js';
import { userScope } from './memory-scope.js';
import { createModelRecall } from './model-recall.js';

// Active recall on a real engine (LanceDB in a temp folder, the built-in hashed embedder) and,
// for model recall, a real provider call to the fake LLM on loopback: what reaches the turn as
// its hidden prefix. The host only wires this in (host/memory-in-host.test.ts: one turn).

let llm: FakeLlmServer;
let fixture: MemoryFixture | undefined;
beforeAll(async () => {
  llm = await startFakeLlmServer();
});
afterAll(() => llm.close());
afterEach(async () => {
  await fixture?.engine.close();
  fixture = undefined;
  llm.reset();
});

/** A memory folder holding `note`, indexed before the test goes on (the engine's own sync, awaited). */
async function engineWith(note: string): Promise<MemoryFixture> {
  fixture = await createMemoryFixture();
  await fixture.write('memory/2026-11-28.md', note);
  await fixture.engine.open();
  expect((await fixture.engine.sync()).indexed).toBe(1);
  return fixture;
}

const settings = (input: Partial<MemoryRecallConfig> = {}) => memoryRecallConfigSchema.parse(input);

/** One short completion as the host makes it (providers' streamCompletion), against the fake. */
const complete = (ref: string, prompt: string, signal: AbortSignal, maxOutputTokens: number) =>
  streamCompletion({
    model: createOpenAI({ baseURL: llm.baseUrlFor('openai'), apiKey: 'sk-test-recall' }).chat(ref.split('/')[1]!),
    prompt,
    maxOutputTokens,
    signal,
  });

describe('active recall with the session’s history (mode "recent")', () => {
  const followUp = 'And where did I leave it?';

  it('finds nothing for a follow-up that says nothing on its own', async () => {
    const { engine, clock } = await engineWith('- My sailing boat Seabird is moored at pier 7 in Cascais.\n');
    const recall = createActiveRecall({ engine, clock, config: settings({ mode: 'recent' }) });
    expect(await recall.recall({ scope: engine.defaultScope(), message: followUp, history: [] })).toBeUndefined();
  });

  it('recalls what the previous message was about for the follow-up', async () => {
    const { engine, clock } = await engineWith('- My sailing boat Seabird is moored at pier 7 in Cascais.\n');
    const recall = createActiveRecall({ engine, clock, config: settings({ mode: 'recent' }) });
    const prefix = await recall.recall({
      scope: engine.defaultScope(),
      message: followUp,
      history: ['Tell me about my sailing boat Seabird.'],
    });
    expect(prefix).toMatch(/^Memory: .*pier 7/);
    // Mode "message" reads the message alone: the same follow-up brings nothing back.
    const alone = createActiveRecall({ engine, clock, config: settings({ mode: 'message' }) });
    expect(
      await alone.recall({
        scope: engine.defaultScope(),
        message: followUp,
        history: ['Tell me about my sailing boat Seabird.'],
      }),
    ).toBeUndefined();
  });
});

describe('active recall with per-user memory', () => {
  it('recalls each person’s own facts and never the other’s', async () => {
    fixture = await createMemoryFixture({ config: { scope: 'per-user' } });
    await fixture.write('users/alice/memory/2026-11-29.md', '- My locker code is 4417.\n');
    await fixture.write('users/bob/memory/2026-11-29.md', '- My locker code is 9031.\n');
    await fixture.engine.open();
    expect((await fixture.engine.sync()).indexed).toBe(2);
    const recall = createActiveRecall({ engine: fixture.engine, clock: fixture.clock, config: settings() });
    const message = 'what is my locker code?';
    const alice = await recall.recall({ scope: userScope('alice'), message });
    expect(alice).toContain('4417');
    expect(alice).not.toContain('9031');
    const bob = await recall.recall({ scope: userScope('bob'), message });
    expect(bob).toContain('9031');
    expect(bob).not.toContain('4417');
  });
});

describe('model recall (opt-in)', () => {
  const NOTE = '- Moored the sailing boat at pier 7 in Cascais.\n';
  // Related to the note only weakly (a score near 0.3, under strict's 0.6): the model path's case.
  const QUESTION = 'where did I leave the boat last weekend?';

  const recallWith = (engine: MemoryFixture, model: boolean | string) =>
    createActiveRecall({
      engine: engine.engine,
      clock: engine.clock,
      config: settings({ style: 'strict', model }),
      modelRecall: createModelRecall({ model, primaryModel: () => 'openai/gpt-4o', complete }),
    });

  it('summarises weak hits for the turn when nothing strong was found, with the agent’s own model', async () => {
    const memory = await engineWith(NOTE);
    llm.script([{ type: 'text', text: 'RECALL-MARKER: the boat is at pier 7 in Cascais.' }]);
    const prefix = await recallWith(memory, true).recall({ scope: memory.engine.defaultScope(), message: QUESTION });
    expect(prefix).toBe('RECALL-MARKER: the boat is at pier 7 in Cascais.');
    expect(llm.requests).toHaveLength(1);
    expect(llm.requests[0]!.model).toBe('gpt-4o');
    const prompt = JSON.stringify(llm.requests[0]!.body);
    expect(prompt).toContain('Memory notes:');
    expect(prompt).toContain('pier 7 in Cascais');
    expect(prompt).toContain(QUESTION);
  });

  it('asks the model named in the settings; its NONE, or its failure, means no prefix and a turn that goes on', async () => {
    const memory = await engineWith(NOTE);
    const scope = memory.engine.defaultScope();
    llm.script([{ type: 'text', text: 'NONE' }]);
    expect(await recallWith(memory, 'openai/gpt-4o-mini').recall({ scope, message: QUESTION })).toBeUndefined();
    expect(llm.requests.at(-1)!.model).toBe('gpt-4o-mini');
    llm.script([{ type: 'error', error: 'server_error' }]);
    expect(await recallWith(memory, true).recall({ scope, message: QUESTION })).toBeUndefined();
    expect(llm.requests).toHaveLength(2);
  });

  it('makes no model call when it is off, or when a strong hit answers already', async () => {
    const memory = await engineWith(NOTE);
    const scope = memory.engine.defaultScope();
    expect(await recallWith(memory, false).recall({ scope, message: QUESTION })).toBeUndefined();
    const strong = await recallWith(memory, true).recall({ scope, message: 'sailing boat moored at pier 7 Cascais' });
    expect(strong).toMatch(/^Memory: .*pier 7/);
    expect(llm.requests).toHaveLength(0);
  });
});
