import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';

export interface CliProcessOptions {
  command: string;
  args: readonly string[];
  cwd: string;
  env: NodeJS.ProcessEnv;
  /** Written to stdin, which is then closed (a CLI waiting for more input would hang). */
  stdin?: string;
  signal: AbortSignal;
  /** Each stdout line, as it arrives. */
  onLine(line: string): void;
  /** The child started (tests and logs see its pid). */
  onSpawn?(pid: number): void;
}

export interface CliExit {
  code: number | null;
  signal: NodeJS.Signals | null;
  /** The process tree was killed because the turn was aborted. */
  aborted: boolean;
  /** The program could not be started (ENOENT, EACCES…). */
  spawnError?: NodeJS.ErrnoException;
  /** The end of stderr, for the error message of a failed run. */
  stderr: string;
}

const stderrKept = 2000;
/** How long a tree that was asked to stop (SIGTERM) has before it is killed outright. */
const killGraceMs = 3000;

/**
 * Runs one CLI turn and resolves once the process has exited and its output is read. The child
 * leads its own process group (`detached`), so an abort ends the CLI and everything it started
 * (shells, language servers, MCP servers) with one signal to the group; on Windows `taskkill /T`.
 */
export function runCliProcess(options: CliProcessOptions): Promise<CliExit> {
  return new Promise((resolve) => {
    let aborted = false;
    let stderr = '';
    let settled = false;
    const finish = (exit: Omit<CliExit, 'aborted' | 'stderr'>) => {
      if (settled) return;
      settled = true;
      options.signal.removeEventListener('abort', onAbort);
      clearTimeout(escalation);
      // The leader is gone; anything of its group that outlived SIGTERM goes now.
      if (aborted) killTree(child.pid, 'SIGKILL');
      resolve({ ...exit, aborted, stderr: stderr.trim() });
    };
    let escalation: NodeJS.Timeout | undefined;
    const child = spawn(options.command, options.args, {
      cwd: options.cwd,
      env: options.env,
      stdio: ['pipe', 'pipe', 'pipe'],
      detached: process.platform !== 'win32',
      windowsHide: true,
    });
    const onAbort = () => {
      aborted = true;
      killTree(child.pid, 'SIGTERM');
      // A CLI that ignores SIGTERM still ends; unref'd so it never holds the process open.
      escalation = setTimeout(() => killTree(child.pid, 'SIGKILL'), killGraceMs);
      escalation.unref();
    };
    child.once('error', (error: NodeJS.ErrnoException) => {
      if (child.pid === undefined) finish({ code: null, signal: null, spawnError: error });
    });
    if (child.pid !== undefined) options.onSpawn?.(child.pid);
    if (options.signal.aborted) onAbort();
    else options.signal.addEventListener('abort', onAbort, { once: true });
    child.stdin.on('error', () => {}); // a CLI that exits without reading stdin is reported by its exit, not EPIPE
    child.stdin.end(options.stdin ?? '');
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (chunk: string) => {
      stderr = (stderr + chunk).slice(-stderrKept);
    });
    createInterface({ input: child.stdout, crlfDelay: Number.POSITIVE_INFINITY }).on('line', (line) =>
      options.onLine(line),
    );
    child.once('close', (code, signal) => finish({ code, signal }));
  });
}

function killTree(pid: number | undefined, signal: NodeJS.Signals): void {
  if (pid === undefined) return;
  if (process.platform === 'win32') {
    spawn('taskkill', ['/pid', String(pid), '/T', '/F'], { stdio: 'ignore', windowsHide: true }).on('error', () => {});
    return;
  }
  try {
    process.kill(-pid, signal);
  } catch {
    // The group is already gone.
  }
}
