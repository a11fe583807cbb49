import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chatTurn } from '../src-main/testing/chat-turn.js';
import { startFakeLlmServer } from '../src-main/testing/fake-llm/index.js';
import { connectRaw, type RawGatewaySocket } from '../src-main/testing/raw-gateway-socket.js';
import { type BenchResult, percentile } from './bench-result.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
/** The bundled CLI (scripts/bundle-main.mjs), what bin/hearth.js runs when built. */
const builtCli = join(root, 'dist', 'bundle', 'hearth.js');
/** The tsc output it is compared with, start by start (the machine is shared: A/B back to back). */
const tscCli = join(root, 'dist', 'src-main', 'cli', 'main.js');

/** Always rebuilds: a stale dist/ would measure old code. */
function ensureBuilt(): void {
  const result = spawnSync('npm', ['run', '--silent', 'build:main'], { cwd: root, stdio: 'inherit' });
  if (result.status !== 0) throw new Error('build:main failed');
}

interface Started {
  child: ChildProcess;
  port: number;
  ms: number;
  /** Spawn to the first HTTP answer (issue 23 times this, not the log line). */
  httpMs: number;
  /** CPU time (user + system) the gateway process had used by its first HTTP answer. */
  httpCpuMs: number;
  /** Spawn to the "Ready:" line: every capability (agent, exec, memory, sessions) up. */
  ready: Promise<number>;
  /** CPU time the gateway process had used when it printed Ready (less load-bound than wall time). */
  readyCpuMs: Promise<number>;
}

/** Clock ticks per second of /proc/<pid>/stat's utime and stime (100 on Linux). */
const CLOCK_TICKS = 100;

/** The process's CPU time so far (user + system), from /proc; NaN where there is no /proc. */
function cpuMsOf(pid: number): number {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS;
  } catch {
    return Number.NaN;
  }
}

/** Asks the gateway over HTTP until it answers; any status counts (a socket that answers at all). */
async function firstHttpAnswer(port: number): Promise<void> {
  for (;;) {
    try {
      await (await fetch(`http://127.0.0.1:${port}/health`)).arrayBuffer();
      return;
    } catch {
      await new Promise((resolve) => setImmediate(resolve));
    }
  }
}

/** Spawns `hearth gateway run` and resolves when it prints that it is listening. */
function startGateway(home: string, args: string[] = [builtCli], env: Record<string, string> = {}): Promise<Started> {
  const began = process.hrtime.bigint();
  const child = spawn(process.execPath, [...args, 'gateway', 'run', '--port', '0'], {
    env: { ...process.env, HEARTH_HOME: home, HEARTH_SECRET_STORE: 'file', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let readyCpu: (ms: number) => void = () => {};
  const readyCpuMs = new Promise<number>((resolveCpu) => {
    readyCpu = resolveCpu;
  });
  return new Promise((resolve, reject) => {
    let out = '';
    let listened = false;
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const match = /listening on https?:\/\/[^:]+:(\d+)/.exec(out);
      if (!match || listened) return;
      listened = true;
      const port = Number(match[1]);
      const ms = Number(process.hrtime.bigint() - began) / 1e6;
      void firstHttpAnswer(port).then(() =>
        resolve({
          child,
          port,
          ms,
          httpMs: Number(process.hrtime.bigint() - began) / 1e6,
          httpCpuMs: cpuMsOf(child.pid!),
          ready,
          readyCpuMs,
        }),
      );
    });
    const ready = new Promise<number>((resolveReady) => {
      const onData = () => {
        if (!/\n(Ready|Some capabilities)/.test(out)) return;
        child.stdout!.off('data', onData);
        readyCpu(cpuMsOf(child.pid!));
        resolveReady(Number(process.hrtime.bigint() - began) / 1e6);
      };
      child.stdout!.on('data', onData);
    });
    child.once('exit', (code) => reject(new Error(`gateway exited with ${code}: ${out}`)));
  });
}

async function stop(child: ChildProcess): Promise<void> {
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await exited;
}

/**
 * The first chat turn of a fresh start, sent once the gateway says Ready: client wall time of
 * `chat.send` to the run's final event, the fake model (this process, loopback) answering at once.
 */
async function firstTurnMs(port: number, token: string, key: string): Promise<number> {
  const { socket } = await connectRaw(`ws://127.0.0.1:${port}`, { token, scopes: ['operator.admin'] });
  try {
    const began = process.hrtime.bigint();
    const end = await chatTurn(socket, { key, message: 'hi' });
    if (end.state !== 'final') throw new Error(`first turn ended ${String(end.state)}: ${JSON.stringify(end)}`);
    return Number(process.hrtime.bigint() - began) / 1e6;
  } finally {
    socket.close();
  }
}

function rssMb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? Number.NaN);
  return kb / 1024;
}

/**
 * The files one cold start of the bundle has loaded by the time it says Ready (ES modules and
 * CommonJS files, each once), through bench/loaded-files-hook.mjs.
 */
async function filesLoadedByReady(home: string): Promise<number> {
  const list = join(home, `loaded-files-${process.pid}.txt`);
  const started = await startGateway(home, ['--import', join(root, 'bench', 'loaded-files-hook.mjs'), builtCli], {
    HEARTH_BENCH_LOADED_FILES: list,
  });
  await started.ready;
  const files = existsSync(list) ? new Set(readFileSync(list, 'utf8').split('\n').filter(Boolean)).size : Number.NaN;
  await stop(started.child);
  await rm(list, { force: true });
  return files;
}

/** Cold starts per build (20 for the recorded p50; BENCH_COLD_STARTS=2 for a quick check). */
const coldStarts = Number(process.env.BENCH_COLD_STARTS ?? 20);

export async function run(): Promise<BenchResult[]> {
  ensureBuilt();
  const results: BenchResult[] = [];
  const home = await mkdtemp(join(tmpdir(), 'hearth-bench-'));
  const llm = await startFakeLlmServer();
  llm.setDefault({ type: 'text', text: 'Sure.', chunkSize: 64 });
  try {
    await writeFile(
      join(home, 'hearth.json'),
      JSON.stringify({
        providers: { openai: { kind: 'openai', baseURL: llm.baseUrlFor('openai') } },
        agents: { defaults: { model: 'openai/gpt-4o' } },
      }),
    );
    // Cold start: first run creates the token and stores the key; later runs are a user's restart.
    const first = await startGateway(home);
    await first.ready;
    const token = readFileSync(join(home, 'identity', 'gateway-token'), 'utf8').trim();
    {
      const { socket } = await connectRaw(`ws://127.0.0.1:${first.port}`, { token, scopes: ['operator.admin'] });
      await socket.request('auth.profiles.set', { id: 'k', provider: 'openai', type: 'api_key', secret: 'sk-bench' });
      socket.close();
    }
    await stop(first.child);
    const starts: number[] = [];
    const answers: number[] = [];
    const readies: number[] = [];
    const httpCpus: number[] = [];
    const readyCpus: number[] = [];
    const tscAnswers: number[] = [];
    const tscReadies: number[] = [];
    const firstTurns: number[] = [];
    for (let i = 0; i < coldStarts; i++) {
      const started = await startGateway(home);
      starts.push(started.ms);
      answers.push(started.httpMs);
      httpCpus.push(started.httpCpuMs);
      readies.push(await started.ready);
      readyCpus.push(await started.readyCpuMs);
      firstTurns.push(await firstTurnMs(started.port, token, `cold-${i}`));
      await stop(started.child);
      const tsc = await startGateway(home, [tscCli]);
      tscAnswers.push(tsc.httpMs);
      tscReadies.push(await tsc.ready);
      await stop(tsc.child);
    }
    for (const list of [starts, answers, readies, httpCpus, readyCpus, tscAnswers, tscReadies, firstTurns])
      list.sort((a, b) => a - b);
    results.push({
      name: `cold start to an HTTP answer (bundle, p50 of ${coldStarts})`,
      value: percentile(answers, 50),
      unit: 'ms',
      budget: '≤ 150 ms (issue 23)',
    });
    results.push({
      name: `cold start to every capability ready (bundle, p50 of ${coldStarts})`,
      value: percentile(readies, 50),
      unit: 'ms',
      budget: '≤ 500 ms (issue 23)',
    });
    results.push({
      name: `first turn after a cold start (bundle, sent at Ready, p50 of ${coldStarts})`,
      value: percentile(firstTurns, 50),
      unit: 'ms',
      budget: '≤ 100 ms (issue 23)',
    });
    results.push({
      name: `CPU time of the start by its HTTP answer (bundle, p50 of ${coldStarts})`,
      value: percentile(httpCpus, 50),
      unit: 'ms',
      note: 'user + system, /proc; 10 ms steps',
    });
    results.push({
      name: `CPU time of the start by Ready (bundle, p50 of ${coldStarts})`,
      value: percentile(readyCpus, 50),
      unit: 'ms',
    });
    results.push({
      name: 'files loaded by Ready (bundle, one start)',
      value: await filesLoadedByReady(home),
      unit: 'files',
    });
    results.push({
      name: `cold start to listening (bundle, p50 of ${coldStarts})`,
      value: percentile(starts, 50),
      unit: 'ms',
      budget: '≤ 500 ms',
    });
    results.push({
      name: `cold start to listening (bundle, max of ${coldStarts})`,
      value: starts[starts.length - 1]!,
      unit: 'ms',
    });
    results.push({ name: 'same, tsc build: HTTP answer p50', value: percentile(tscAnswers, 50), unit: 'ms' });
    results.push({
      name: 'same, tsc build: every capability ready p50',
      value: percentile(tscReadies, 50),
      unit: 'ms',
    });

    const viaBin = await startGateway(home, [join(root, 'bin', 'hearth.js')]);
    results.push({ name: 'cold start via bin/hearth.js (runs the bundle when built)', value: viaBin.ms, unit: 'ms' });
    await stop(viaBin.child);

    const gateway = await startGateway(home);
    const url = `ws://127.0.0.1:${gateway.port}`;
    await new Promise((resolve) => setTimeout(resolve, 2000));
    results.push({
      name: 'idle RSS after 2 s',
      value: rssMb(gateway.child.pid!),
      unit: 'MB',
      budget: '≤ 100 MB (issue 23)',
    });

    // health round trips, sequential, one client.
    const { socket } = await connectRaw(url, { token, scopes: ['operator.read'] });
    for (let i = 0; i < 500; i++) await socket.request('health', {});
    const rtts: number[] = [];
    for (let i = 0; i < 10_000; i++) {
      const t0 = process.hrtime.bigint();
      await socket.request('health', {});
      rtts.push(Number(process.hrtime.bigint() - t0) / 1e6);
    }
    socket.close();
    rtts.sort((a, b) => a - b);
    results.push({
      name: 'health round trip p50 (10 000 sequential)',
      value: percentile(rtts, 50),
      unit: 'ms',
      budget: '≤ 1 ms',
    });
    results.push({ name: 'health round trip p99', value: percentile(rtts, 99), unit: 'ms', budget: '≤ 5 ms' });

    // 500 authenticated clients held; a presence broadcast must reach all of them.
    const clients: RawGatewaySocket[] = [];
    for (let i = 0; i < 500; i++) clients.push((await connectRaw(url, { token, scopes: ['operator.read'] })).socket);
    const arrivals: number[] = [];
    for (let round = 0; round < 20; round++) {
      const marks = clients.map((c) => c.frames.length);
      const waits = clients.map((c, index) =>
        c
          .next((f) => c.frames.indexOf(f) >= marks[index]! && f.type === 'event' && f.event === 'presence', 10_000)
          .then(() => process.hrtime.bigint()),
      );
      const trigger = await connectRaw(url, {
        token,
        clientId: 'hearth-control-ui',
        clientMode: 'ui',
        scopes: ['operator.read'],
      });
      const helloAt = process.hrtime.bigint();
      for (const at of await Promise.all(waits)) arrivals.push(Math.max(0, Number(at - helloAt) / 1e6));
      trigger.socket.close();
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    results.push({ name: 'clients held', value: clients.length, unit: 'clients', budget: '500' });
    results.push({ name: 'RSS with 500 clients', value: rssMb(gateway.child.pid!), unit: 'MB' });
    arrivals.sort((a, b) => a - b);
    results.push({ name: 'broadcast to 500 clients: p50 arrival', value: percentile(arrivals, 50), unit: 'ms' });
    results.push({
      name: 'broadcast to 500 clients: p99 arrival',
      value: percentile(arrivals, 99),
      unit: 'ms',
      budget: '≤ 50 ms',
    });
    for (const c of clients) c.close();
    await stop(gateway.child);
  } finally {
    await llm.close();
    await rm(home, { recursive: true, force: true });
  }
  return results;
}
