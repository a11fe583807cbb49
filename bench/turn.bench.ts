// A chat turn through the whole product: WebSocket → gateway → composed runtime (bootstrap
// files, context engine, memory recall, exec + memory tools) → real AI SDK → fake LLM on
// loopback answering at once. Overhead = turn time minus nothing (the fake answers instantly).
import { spawn } from 'node:child_process';
import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import { writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { silentLogger } from '../src-main/base/logger.js';
import { countO200kTokens as countTokens } from '../src-main/base/o200k-tokens.js';
import { TURN_PHASE_CHANNEL, type TurnPhaseMark } from '../src-main/base/turn-phases.js';
import { startHearth } from '../src-main/host/start-hearth.js';
import { chatTurn } from '../src-main/testing/chat-turn.js';
import { startFakeLlmServer } from '../src-main/testing/fake-llm/index.js';
import { connectRaw, type RawGatewaySocket } from '../src-main/testing/raw-gateway-socket.js';
import { createTempHome } from '../src-main/testing/temp-home.js';
import { type BenchResult, percentile } from './bench-result.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

async function turn(socket: RawGatewaySocket, key: string, message: string): Promise<number> {
  const t0 = process.hrtime.bigint();
  await chatTurn(socket, { key, message });
  return Number(process.hrtime.bigint() - t0) / 1e6;
}

export async function run(): Promise<BenchResult[]> {
  const results: BenchResult[] = [];
  const llm = await startFakeLlmServer();
  llm.setDefault({ type: 'text', text: 'Sure.', chunkSize: 64 });
  const temp = await createTempHome('hearth-bench-turn-');
  try {
    await writeFile(
      join(temp.home, 'hearth.json'),
      JSON.stringify({
        providers: { openai: { kind: 'openai', baseURL: llm.baseUrlFor('openai') } },
        agents: { defaults: { model: 'openai/gpt-4o' } },
        ...(process.env.BENCH_NO_RECALL ? { memory: { recall: { enabled: false }, capture: { enabled: false } } } : {}),
      }),
    );
    const started = process.hrtime.bigint();
    const host = await startHearth({
      home: temp.home,
      port: 0,
      log: silentLogger,
      env: { HEARTH_SECRET_STORE: 'file' },
    });
    await host.ready;
    const readyMs = Number(process.hrtime.bigint() - started) / 1e6;
    const { socket } = await connectRaw(host.url.replace(/^http/, 'ws'), {
      token: host.token,
      scopes: ['operator.admin'],
    });
    await socket.request('auth.profiles.set', { id: 'k', provider: 'openai', type: 'api_key', secret: 'sk-bench' });

    const conversation = [
      'hi',
      "what's 2+2?",
      'remember that my favourite colour is teal',
      "what's my favourite colour?",
      'thanks',
    ];
    // One conversation (the session `main`); the keys are the runs' idempotency keys.
    const firstTurnMs = await turn(socket, 'c-0', conversation[0]!);
    for (let i = 1; i < conversation.length; i++) await turn(socket, `c-${i}`, conversation[i]!);
    const requests = llm.requests.slice(-conversation.length);
    results.push({ name: 'host start to ready (all capabilities)', value: readyMs, unit: 'ms' });
    results.push({ name: 'first turn after a cold start', value: firstTurnMs, unit: 'ms', budget: '≤ 300 ms' });
    requests.forEach((request, index) => {
      results.push({
        name: `5-turn conversation: turn ${index + 1} prompt tokens (fake LLM, o200k)`,
        value: request.promptTokens,
        unit: 'tokens',
        budget: '≤ 5 000 (OpenClaw ~13 600)',
      });
    });
    // What a provider's prompt cache can reuse: the part of each request that repeats the
    // previous one from its first byte (tools, system prompt, earlier turns), in tokens.
    const wires = requests.map((request) =>
      JSON.stringify({ tools: request.body.tools, messages: request.body.messages }),
    );
    const shares = wires.slice(1).map((wire, index) => {
      const previous = wires[index]!;
      let same = 0;
      while (same < wire.length && wire[same] === previous[same]) same++;
      return countTokens(wire.slice(0, same)) / countTokens(wire);
    });
    results.push({
      name: '5-turn conversation: cacheable prefix, turns 2-5 (lowest)',
      value: Math.round(Math.min(...shares) * 100),
      unit: '%',
      budget: '≥ 95 % (issue 19)',
    });
    results.push({
      name: '5-turn conversation: mean prompt tokens per turn',
      value: requests.reduce((sum, r) => sum + r.promptTokens, 0) / requests.length,
      unit: 'tokens',
      budget: '≤ 5 000',
    });

    // Warm turns against a fake LLM in its own process, so the provider's side (parsing, token
    // counting) does not run on the same event loop as the runtime being measured. The switch is a
    // live config.patch: provider settings apply to the next turn without a restart.
    const child = spawn(process.execPath, ['--import', 'tsx', join(root, 'src-main/testing/fake-llm/serve.ts'), '0'], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    const childUrl = await new Promise<string>((resolve, reject) => {
      let out = '';
      child.stdout!.on('data', (chunk: Buffer) => {
        out += chunk.toString();
        const match = /openai:\s+(\S+)/.exec(out);
        if (match) resolve(match[1]!);
      });
      child.once('exit', (code) => reject(new Error(`fake LLM exited with ${code}`)));
    });
    await socket.request('config.patch', { patch: { providers: { openai: { kind: 'openai', baseURL: childUrl } } } });
    const times: number[] = [];
    // The turn profile: the phases each warm turn passes (base/turn-phases.ts), timed from one
    // to the next; the client's send opens the first span and its receipt of the final closes the last.
    let marks: TurnPhaseMark[] = [];
    const onMark = (mark: unknown) => marks.push(mark as TurnPhaseMark);
    subscribe(TURN_PHASE_CHANNEL, onMark);
    const spans = new Map<string, number[]>();
    for (let i = 0; i < 60; i++) {
      marks = [];
      const sent = performance.now();
      const ms = await turn(socket, `w-${i}`, `warm turn ${i}`);
      const received = performance.now();
      if (i < 10) continue;
      times.push(ms);
      const points = [{ phase: 'client send', at: sent }, ...marks, { phase: 'client has final', at: received }];
      for (let p = 1; p < points.length; p++) {
        const label = `${points[p - 1]!.phase} → ${points[p]!.phase}`;
        spans.set(label, [...(spans.get(label) ?? []), points[p]!.at - points[p - 1]!.at]);
      }
    }
    unsubscribe(TURN_PHASE_CHANNEL, onMark);
    times.sort((a, b) => a - b);
    const fakeTimes = ((await (await fetch(new URL('/_fake/timings', childUrl))).json()) as number[]).slice(-50);
    fakeTimes.sort((a, b) => a - b);
    results.push({
      name: "warm turn: the fake model's own time p50 (in its process)",
      value: percentile(fakeTimes, 50),
      unit: 'ms',
    });
    results.push({
      name: "warm turn: Hearth's own time p50 (turn p50 − fake's p50)",
      value: percentile(times, 50) - percentile(fakeTimes, 50),
      unit: 'ms',
      budget: '≤ 12 ms (issue 23)',
    });
    for (const [label, values] of spans) {
      values.sort((a, b) => a - b);
      results.push({ name: `turn profile p50: ${label}`, value: percentile(values, 50), unit: 'ms' });
    }
    results.push({
      name: 'warm turn through the gateway p50 (50 turns, fake LLM in its own process)',
      value: percentile(times, 50),
      unit: 'ms',
      budget: '≤ 20 ms',
    });
    results.push({ name: 'warm turn through the gateway p99', value: percentile(times, 99), unit: 'ms' });
    child.kill('SIGTERM');
    socket.close();
    await host.dispose();
  } finally {
    await llm.close();
    await temp.cleanup();
  }
  return results;
}
