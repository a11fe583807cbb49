// A chat turn through the whole product: WebSocket → gateway → composed runtime (bootstrap
// files, context engine, memory recall, exec + memory tools, cache trace, usage meter) → real
// AI SDK → fake LLM on loopback answering at once. Hearth's own time is the client's wall time
// minus the fake's own time (it runs in its own process and reports it). Issue 23's figures:
// the warm turn with recall on and off (p50 of BENCH_TURNS, default 50, each), with the turn's
// timeline and CPU time, and the first turn after a cold start.
import { spawn } from 'node:child_process';
import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import { writeFile } from 'node:fs/promises';
import { Session } from 'node:inspector';
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

function push(into: Map<string, number[]>, key: string, value: number): void {
  const list = into.get(key);
  if (list) list.push(value);
  else into.set(key, [value]);
}

function sorted(values: readonly number[]): number[] {
  return [...values].sort((a, b) => a - b);
}

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
        agents: {
          defaults: { model: 'openai/gpt-4o' },
          list: [
            { id: 'main', default: true },
            { id: 'norecall', memory: { recall: { enabled: false } } },
          ],
        },
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
    results.push({
      name: 'first turn after a cold start',
      value: firstTurnMs,
      unit: 'ms',
      budget: '≤ 100 ms (issue 23)',
    });
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
    // Two agents in one loop, so both figures are taken under the same load: `main` with active
    // recall (and capture, the cache trace and the transcript's fsync), `norecall` with
    // `agents.list[].memory.recall.enabled: false`. Their turns alternate, one each per round.
    const variants = [
      { label: 'recall on', sessionKey: 'main' },
      { label: 'recall off', sessionKey: 'agent:norecall:main' },
    ] as const;
    const warmUp = 10;
    const measured = Number(process.env.BENCH_TURNS ?? 50);
    const timingsBefore = ((await (await fetch(new URL('/_fake/timings', childUrl))).json()) as number[]).length;
    // The turn profile: the phases each warm turn passes (base/turn-phases.ts); the client's send
    // opens the timeline and its receipt of the final event closes it.
    let marks: TurnPhaseMark[] = [];
    const onMark = (mark: unknown) => marks.push(mark as TurnPhaseMark);
    subscribe(TURN_PHASE_CHANNEL, onMark);
    const samples = variants.map(() => ({
      wall: [] as number[],
      cpu: [] as number[],
      offsets: new Map<string, number[]>(),
      spans: new Map<string, number[]>(),
    }));
    // BENCH_CPU_PROFILE=<file.cpuprofile>: a V8 CPU profile of the measured turns (open it in
    // Chrome's DevTools or speedscope), to find which functions own the phases' time.
    const profilePath = process.env.BENCH_CPU_PROFILE;
    const inspector = profilePath ? new Session() : undefined;
    const post = (method: string, params?: object) =>
      new Promise<unknown>((resolve, reject) =>
        inspector!.post(method, params ?? {}, (error, result) => (error ? reject(error) : resolve(result))),
      );
    for (let round = 0; round < warmUp + measured; round++) {
      if (inspector && round === warmUp) {
        inspector.connect();
        await post('Profiler.enable');
        await post('Profiler.setSamplingInterval', { interval: 100 });
        await post('Profiler.start');
      }
      for (const [v, variant] of variants.entries()) {
        marks = [];
        const cpuBefore = process.cpuUsage();
        const sent = performance.now();
        await chatTurn(socket, {
          key: `w-${round}-${v}`,
          message: `warm turn ${round}`,
          sessionKey: variant.sessionKey,
        });
        const received = performance.now();
        const cpu = process.cpuUsage(cpuBefore);
        if (round < warmUp) continue;
        const sample = samples[v]!;
        sample.wall.push(received - sent);
        // CPU of this process (host and client; the fake model runs in its own): what the turn
        // costs regardless of how busy the machine is, unlike wall time.
        sample.cpu.push((cpu.user + cpu.system) / 1000);
        const points = [{ phase: 'client send', at: sent }, ...marks, { phase: 'client has final', at: received }];
        for (const point of points.slice(1)) push(sample.offsets, point.phase, point.at - sent);
        for (let p = 1; p < points.length; p++) {
          push(sample.spans, `${points[p - 1]!.phase} → ${points[p]!.phase}`, points[p]!.at - points[p - 1]!.at);
        }
      }
    }
    if (inspector) {
      const { profile } = (await post('Profiler.stop')) as { profile: unknown };
      await writeFile(profilePath!, JSON.stringify(profile));
      inspector.disconnect();
    }
    unsubscribe(TURN_PHASE_CHANNEL, onMark);
    // The fake's own time of each request, in order: the warm loop's requests alternate like its turns.
    const allTimings = (await (await fetch(new URL('/_fake/timings', childUrl))).json()) as number[];
    const loopTimings = allTimings.slice(timingsBefore + warmUp * variants.length);
    if (loopTimings.length !== measured * variants.length) {
      throw new Error(
        `expected one model request per warm turn, got ${loopTimings.length} for ${measured * variants.length} turns`,
      );
    }
    for (const [v, variant] of variants.entries()) {
      const sample = samples[v]!;
      const fake = sorted(loopTimings.filter((_, index) => index % variants.length === v));
      const wall = sorted(sample.wall);
      const budget = v === 0 ? '≤ 12 ms (issue 23)' : '≤ 8 ms (issue 23)';
      results.push({
        name: `warm turn, ${variant.label}: Hearth's own time p50 (turn p50 − fake's p50)`,
        value: percentile(wall, 50) - percentile(fake, 50),
        unit: 'ms',
        budget,
      });
      results.push({
        name: `warm turn, ${variant.label}: turn p50 through the gateway (client wall)`,
        value: percentile(wall, 50),
        unit: 'ms',
      });
      results.push({ name: `warm turn, ${variant.label}: turn p99`, value: percentile(wall, 99), unit: 'ms' });
      results.push({
        name: `warm turn, ${variant.label}: the fake model's own time p50 (its process)`,
        value: percentile(fake, 50),
        unit: 'ms',
      });
      results.push({
        name: `warm turn, ${variant.label}: CPU of host + client per turn p50`,
        value: percentile(sorted(sample.cpu), 50),
        unit: 'ms',
        note: `${measured} turns`,
      });
      // The timeline: when each phase is reached, from the client's send (p50 of each offset).
      // Recall runs alongside the prompt's assembly, so the two may come in either order.
      const timeline = [...sample.offsets].map(([phase, values]) => ({ phase, at: percentile(sorted(values), 50) }));
      timeline.sort((a, b) => a.at - b.at);
      for (const { phase, at } of timeline) {
        results.push({ name: `turn timeline, ${variant.label}: at ${phase}`, value: at, unit: 'ms' });
      }
      for (const [label, values] of sample.spans) {
        results.push({
          name: `turn profile, ${variant.label}: ${label}`,
          value: percentile(sorted(values), 50),
          unit: 'ms',
          note: values.length < measured ? `${values.length} of ${measured} turns` : undefined,
        });
      }
    }
    child.kill('SIGTERM');
    socket.close();
    await host.dispose();
  } finally {
    await llm.close();
    await temp.cleanup();
  }
  return results;
}
