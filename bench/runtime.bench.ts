import { performance } from 'node:perf_hooks';
import { startFakeLlmServer } from '../src-main/testing/fake-llm/index.js';
import { createRuntimeFixture, type RuntimeFixture } from '../src-main/testing/fake-llm/runtime-fixture.js';
import { type BenchResult, percentile } from './bench-result.js';

/**
 * Agent runtime overhead per turn (issue 3): chat.send through a real MethodRegistry and
 * GatewayEventBus until the `final` chat event, with the fake LLM answering at once over
 * loopback through the real AI SDK; and prompt tokens per turn of the fixed 5-turn
 * conversation as the fake server counts them (o200k over JSON of messages + tools).
 * No system prompt or tools here: this measures the runtime, not the prompt (see context.bench.ts).
 */

const conversation = [
  'hi',
  "what's 2+2?",
  'remember that my favourite colour is teal',
  "what's my favourite colour?",
  'thanks',
];

async function turn(fixture: RuntimeFixture, sessionKey: string, message: string, key: string): Promise<number> {
  const started = performance.now();
  const outcome = await fixture.call('chat.send', { sessionKey, message, idempotencyKey: key });
  if (!outcome.ok) throw new Error(outcome.error.message);
  const end = await fixture.chatEnd(key);
  if (end.state !== 'final') throw new Error(`turn ${key} ended ${String(end.state)}: ${String(end.errorMessage)}`);
  return performance.now() - started;
}

export async function run(): Promise<BenchResult[]> {
  const server = await startFakeLlmServer({
    defaultReply: (request) => ({ type: 'text', text: `ok: ${request.lastUserText}`, chunkSize: 64 }),
  });
  const profiles = [{ id: 'bench', provider: 'openai', secret: 'sk-bench-0000' }];
  try {
    // A freshly created runtime (modules loaded, process start not included): start-up warm-up, then the first turn.
    const coldStart = performance.now();
    const cold = await createRuntimeFixture({ server, profiles });
    const created = performance.now();
    await cold.runtime.warmUp();
    const warmedUp = performance.now();
    const firstTurn = await turn(cold, 'main', 'hi', 'cold-1');
    const coldTotal = performance.now() - coldStart;
    await cold.close();
    // A second fresh runtime: its own cold state (session store, auth file) without the process-wide SDK warm-up.
    const second = await createRuntimeFixture({ server, profiles });
    const secondFirstTurn = await turn(second, 'main', 'hi', 'cold-2');
    await second.close();

    const fixture = await createRuntimeFixture({ server, profiles });
    for (let i = 0; i < 10; i++) await turn(fixture, `agent:main:bench:direct:warm${i}`, 'warm up', `w-${i}`);
    const samples: number[] = [];
    for (let i = 0; i < 100; i++)
      samples.push(await turn(fixture, `agent:main:bench:direct:s${i % 10}`, `turn ${i}`, `t-${i}`));
    samples.sort((a, b) => a - b);

    server.reset();
    for (const [index, message] of conversation.entries()) {
      await turn(fixture, 'agent:main:bench:direct:tokens', message, `c-${index}`);
    }
    const tokens = server.requests.map((r) => r.promptTokens);
    await fixture.close();

    return [
      { name: 'runtime turn (warm) p50', value: percentile(samples, 50), unit: 'ms', budget: '≤ 20 ms' },
      { name: 'runtime turn (warm) p99', value: percentile(samples, 99), unit: 'ms' },
      { name: 'new runtime: create (incl. auth profile setup)', value: created - coldStart, unit: 'ms' },
      {
        name: 'new runtime: warmUp() (canned, no network)',
        value: warmedUp - created,
        unit: 'ms',
        note: 'off the turn path',
      },
      { name: 'first turn of a new runtime, after warmUp()', value: firstTurn, unit: 'ms', budget: '≤ 300 ms' },
      { name: 'new runtime + warm-up + first turn', value: coldTotal, unit: 'ms' },
      { name: 'first turn of a second new runtime', value: secondFirstTurn, unit: 'ms', note: 'SDK already warm' },
      ...tokens.map((value, i) => ({
        name: `prompt tokens turn ${i + 1} (${JSON.stringify(conversation[i])})`,
        value,
        unit: 'tokens',
      })),
      { name: 'prompt tokens, 5-turn total', value: tokens.reduce((a, b) => a + b, 0), unit: 'tokens' },
    ];
  } finally {
    await server.close();
  }
}
