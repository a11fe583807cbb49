import type { ChildProcess, SpawnOptions } from 'node:child_process';
import { type Clock, systemClock } from '../base/clock.js';
import { OutputBuffer } from './output-buffer.js';

/** `child_process.spawn`, injected so the composition root owns process creation. */
export type SpawnFn = (file: string, args: readonly string[], options: SpawnOptions) => ChildProcess;

export interface RunSpec {
  file: string;
  args: string[];
  env: Record<string, string>;
  cwd: string;
  timeoutMs: number;
  maxOutputBytes: number;
  signal?: AbortSignal;
  /** Each chunk as it arrives (stdout and stderr interleaved as the user would see them). */
  onOutput?(text: string): void;
}

export interface RunResult {
  exitCode: number | null;
  signal: string | null;
  output: string;
  truncated: boolean;
  timedOut: boolean;
  aborted: boolean;
}

export interface RunDeps {
  spawn: SpawnFn;
  /** Kills a whole process group (`process.kill(-pid, signal)`); injected for the same reason as spawn. */
  killGroup?: (pid: number, signal: NodeJS.Signals) => void;
  clock?: Clock;
}

const defaultKillGroup = (pid: number, signal: NodeJS.Signals) => process.kill(-pid, signal);

/**
 * Runs one non-interactive command. The child leads its own process group, so
 * timeout and abort kill everything it started (`sh -c 'sleep 100 & …'`), not
 * just the shell. stdin is closed: a command waiting for input fails fast
 * instead of hanging until the timeout (interactive ones belong in a PTY).
 */
export function runProcess(spec: RunSpec, deps: RunDeps): Promise<RunResult> {
  const killGroup = deps.killGroup ?? defaultKillGroup;
  return new Promise((resolve, reject) => {
    const output = new OutputBuffer(spec.maxOutputBytes);
    let timedOut = false;
    let aborted = false;
    let child: ChildProcess;
    try {
      child = deps.spawn(spec.file, spec.args, {
        cwd: spec.cwd,
        env: spec.env,
        detached: true,
        stdio: ['ignore', 'pipe', 'pipe'],
      });
    } catch (error) {
      reject(error);
      return;
    }
    const kill = () => {
      if (child.pid === undefined || child.exitCode !== null) return;
      try {
        killGroup(child.pid, 'SIGKILL');
      } catch {
        child.kill('SIGKILL');
      }
    };
    const timer = (deps.clock ?? systemClock).setTimeout(() => {
      timedOut = true;
      kill();
    }, spec.timeoutMs);
    const onAbort = () => {
      aborted = true;
      kill();
    };
    if (spec.signal?.aborted) onAbort();
    spec.signal?.addEventListener('abort', onAbort, { once: true });
    const onChunk = (chunk: Buffer) => {
      const text = chunk.toString('utf8');
      output.append(text);
      spec.onOutput?.(text);
    };
    child.stdout?.on('data', onChunk);
    child.stderr?.on('data', onChunk);
    child.once('error', (error) => {
      timer.dispose();
      spec.signal?.removeEventListener('abort', onAbort);
      reject(error);
    });
    child.once('close', (exitCode, signal) => {
      timer.dispose();
      spec.signal?.removeEventListener('abort', onAbort);
      // Background children may still hold the group; the command is over, so they go too.
      if (child.pid !== undefined)
        try {
          killGroup(child.pid, 'SIGKILL');
        } catch {
          // Already gone: the usual case.
        }
      resolve({ exitCode, signal, output: output.text(), truncated: output.truncated, timedOut, aborted });
    });
  });
}
