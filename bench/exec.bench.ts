// Exec host benchmarks (issue 5): `hearth exec check --batch`-equivalent analysis of 10 000
// mixed commands (parse + analysis + policy, one JSON line out per case), and PTY
// spawn-to-first-output latency.
import { accessSync, statSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import * as pty from 'node-pty';
import {
  createCommandChecker,
  createFsExecutableCheck,
  createPathResolver,
  execPolicySchema,
  loadBashParser,
  PtySession,
} from '../src-main/exec/index.js';
import { type BenchResult, percentile } from './bench-result.js';
import { generateExecCases } from './fixtures/exec-command-generator.js';

const policy = execPolicySchema.parse({
  allowlist: [
    'ls',
    'cat',
    'grep',
    'git',
    'find',
    'sed',
    'awk',
    'sort',
    'uniq',
    'wc',
    'head',
    'npm',
    'node',
    'python3',
  ].map((pattern) => ({ pattern })),
});

async function batchThroughput(cached: boolean): Promise<BenchResult[]> {
  const parser = await loadBashParser();
  const resolver = createPathResolver({
    path: process.env.PATH ?? '/usr/bin:/bin',
    isExecutable: createFsExecutableCheck({ accessSync, statSync }),
  });
  const checker = createCommandChecker(parser, resolver, cached ? {} : { cacheSize: 0 });
  const cases = generateExecCases(10_000);
  const distinct = new Set(cases.map((testCase) => testCase.command)).size;
  const where = { cwd: '/work/project', home: '/home/me' };
  // Warm-up: JIT and the PATH cache, as a long-lived gateway would be.
  for (const testCase of cases.slice(0, 500)) checker.check(testCase.command, policy, where);
  const runs: number[] = [];
  const tally = { allow: 0, ask: 0, deny: 0 };
  let bytes = 0;
  for (let run = 0; run < 3; run++) {
    const started = performance.now();
    for (const testCase of cases) {
      const result = checker.check(testCase.command, policy, where);
      bytes += JSON.stringify({ id: testCase.id, decision: result.decision, reasons: result.reasons }).length;
      if (run === 0) tally[result.decision]++;
    }
    runs.push(performance.now() - started);
  }
  const best = Math.min(...runs);
  return [
    {
      name: `exec check --batch: 10 000 mixed commands, ${cached ? 'analysis cache on' : 'no cache'}`,
      value: Math.round(10_000 / (best / 1000)),
      unit: 'cmd/s',
      budget: '≥ 5000 cmd/s',
      note: `${distinct} distinct; best of 3 (${runs.map((ms) => ms.toFixed(0)).join('/')} ms); allow ${tally.allow}, ask ${tally.ask}, deny ${tally.deny}; ${bytes} bytes out`,
    },
  ];
}

async function ptyFirstOutput(): Promise<BenchResult[]> {
  const samples: number[] = [];
  for (let index = 0; index < 30; index++) {
    const started = performance.now();
    const session = new PtySession(pty.spawn, {
      file: '/bin/sh',
      args: ['-c', 'echo ready'],
      cwd: '/tmp',
      env: { PATH: '/usr/bin:/bin', TERM: 'xterm-256color' },
    });
    await new Promise<void>((resolve) => {
      const listener = session.onData(() => {
        samples.push(performance.now() - started);
        listener.dispose();
        resolve();
      });
    });
    await session.exited;
    session.dispose();
  }
  samples.sort((a, b) => a - b);
  return [
    {
      name: 'PTY spawn to first output p50',
      value: percentile(samples, 50),
      unit: 'ms',
      note: `30 spawns of sh -c 'echo ready'`,
    },
    { name: 'PTY spawn to first output p95', value: percentile(samples, 95), unit: 'ms' },
  ];
}

export async function run(): Promise<BenchResult[]> {
  return [...(await batchThroughput(false)), ...(await batchThroughput(true)), ...(await ptyFirstOutput())];
}
