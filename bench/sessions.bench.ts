import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { silentLogger, systemClock } from '../src-main/base/index.js';
import { createHearthPaths } from '../src-main/paths/index.js';
import { createLanes, createSessionStore } from '../src-main/sessions/index.js';
import type { AgentMessage } from '../src-main/transcript/index.js';
import { type BenchResult, percentile } from './bench-result.js';

/** Session store and lanes: the per-turn cost the runtime pays around every LLM call. */

const message = (i: number): AgentMessage =>
  i % 2 === 0
    ? { kind: 'user', id: `u${i}`, ts: i, text: `user message number ${i} with a little text` }
    : { kind: 'assistant', id: `a${i}`, ts: i, text: `assistant answer ${i} `.repeat(10) };

async function timeEach(count: number, job: (i: number) => Promise<unknown>): Promise<number[]> {
  const samples: number[] = [];
  for (let i = 0; i < count; i++) {
    const start = performance.now();
    await job(i);
    samples.push(performance.now() - start);
  }
  return samples.sort((a, b) => a - b);
}

export async function run(): Promise<BenchResult[]> {
  const home = await mkdtemp(join(tmpdir(), 'hearth-bench-sessions-'));
  try {
    const paths = createHearthPaths(home);
    const store = createSessionStore({ paths, clock: systemClock, log: silentLogger });
    const main = await store.resolve('main', 'main');

    // One turn: user + assistant appended, then fsync + index write at turn end.
    const turns = await timeEach(200, async (i) => {
      await store.append('main', main.sessionId, [message(2 * i), message(2 * i + 1)]);
      await store.sync('main', main.sessionId);
    });
    const resolves = await timeEach(2000, () => store.resolve('main', 'main'));

    const big = await store.resolve('main', 'agent:main:telegram:direct:big');
    for (let i = 0; i < 10_000; i += 500) {
      await store.append(
        'main',
        big.sessionId,
        Array.from({ length: 500 }, (_, j) => message(i + j)),
      );
    }
    await store.sync('main', big.sessionId);
    const coldStart = performance.now();
    await createSessionStore({ paths, clock: systemClock, log: silentLogger }).read('main', big.sessionId, {
      limit: 200,
    });
    const coldRead = performance.now() - coldStart;
    const warmReads = await timeEach(200, () => store.read('main', big.sessionId, { limit: 200 }));

    for (let i = 0; i < 1000; i++) await store.resolve('main', `agent:main:telegram:direct:peer${i}`);
    const lists = await timeEach(50, () => store.list({ limit: 50, search: 'peer9' }));

    const lanes = createLanes();
    const laneRuns = await timeEach(5000, (i) => lanes.run(`k${i % 10}`, 'default', async () => i));

    return [
      { name: 'sessions: append 2 messages + sync (turn end), p50', value: percentile(turns, 50), unit: 'ms' },
      { name: 'sessions: append 2 messages + sync (turn end), p99', value: percentile(turns, 99), unit: 'ms' },
      { name: 'sessions: resolve existing key, p50', value: percentile(resolves, 50) * 1000, unit: 'µs' },
      { name: 'sessions: cold read of last 200 of 10k messages', value: coldRead, unit: 'ms' },
      { name: 'sessions: warm read of last 200 of 10k messages, p50', value: percentile(warmReads, 50), unit: 'ms' },
      { name: 'sessions: list+search over 1k sessions, p50', value: percentile(lists, 50), unit: 'ms' },
      { name: 'lanes: run overhead per turn, p50', value: percentile(laneRuns, 50) * 1000, unit: 'µs' },
    ];
  } finally {
    await rm(home, { recursive: true, force: true });
  }
}
