// Runs a command for real in a throwaway bubblewrap sandbox and records what it executed and wrote.
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, realpathSync } from 'node:fs';
import { chmod, mkdir, mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { bubblewrapBaseArgs } from '../sandbox.js';

/** One program start a shim saw: its name, the folder it ran in, its arguments. */
export interface Execution {
  name: string;
  cwd: string;
  args: string[];
}

export interface RecordedRun {
  executions: Execution[];
  /** Files under the scratch home created, changed or removed (absolute paths inside the sandbox). */
  written: string[];
  exitCode: number | null;
  timedOut: boolean;
}

/** Inside the sandbox: the scratch home and the working folder (an agent workspace under home). */
export const sandboxHome = '/home/oracle';
export const sandboxWork = '/home/oracle/work';
const oracleRoot = '/tmp/.oracle';

/**
 * Programs that only record (they would delete, change rights, reach the network or
 * another machine): the shim logs and exits 0. Every other vocabulary program logs
 * and then runs for real, so wrappers (env, xargs, find -exec, timeout…) and
 * interpreters (python3 -c 'os.system(…)') show what *they* start.
 */
export const recordOnly = [
  'rm',
  'rmdir',
  'unlink',
  'shred',
  'chmod',
  'chown',
  'chgrp',
  'dd',
  'mkfs',
  'mkfs.ext4',
  'wipefs',
  'mv',
  'cp',
  'rsync',
  'curl',
  'wget',
  'ssh',
  'scp',
  'git',
  'npm',
  'npx',
  'sudo',
  'doas',
  'busybox',
  'at',
  'parallel',
  'screen',
  'tmux',
  'nc',
  'kill',
];

export const passThrough = [
  'cat',
  'ls',
  'echo',
  'printf',
  'grep',
  'sed',
  'awk',
  'head',
  'tail',
  'wc',
  'sort',
  'tr',
  'rev',
  'base64',
  'tee',
  'touch',
  'mkdir',
  'find',
  'xargs',
  'env',
  'nice',
  'nohup',
  'timeout',
  'stdbuf',
  'setsid',
  'perl',
  'python3',
  'script',
  'true',
  'false',
];

export interface RecordingSandbox {
  run(command: string, timeoutMs?: number): Promise<RecordedRun>;
  dispose(): Promise<void>;
}

/** Whether bubblewrap can start a sandbox here (with a reason when not, for skipped tests). */
export async function probeBubblewrap(bwrap = 'bwrap'): Promise<{ ok: true } | { ok: false; reason: string }> {
  const result = await runBwrap(bwrap, ['--ro-bind', '/', '/', '--unshare-all', '--', '/bin/true'], 15_000);
  if (result.error) return { ok: false, reason: `bubblewrap is not usable here: ${result.error}` };
  return result.exitCode === 0
    ? { ok: true }
    : { ok: false, reason: `bubblewrap is not usable here: ${result.stderr.trim() || `exit ${result.exitCode}`}` };
}

/**
 * A scratch folder on the host holds the sandbox's home (a few files, a `.ssh` key,
 * the work folder), the shims and the log. Every run starts from a fresh copy of
 * that home, so one command's damage never leaks into the next.
 */
export async function createRecordingSandbox(options: { bwrap?: string } = {}): Promise<RecordingSandbox> {
  const bwrap = options.bwrap ?? 'bwrap';
  const scratch = await mkdtemp(join(tmpdir(), 'hearth-oracle-'));
  const shims = join(scratch, 'bin');
  await mkdir(shims, { recursive: true });
  const realBinds: string[] = [];
  for (const name of [...recordOnly, ...passThrough]) {
    const real = passThrough.includes(name) ? whereIs(name) : undefined;
    if (real) realBinds.push('--ro-bind', real, `${oracleRoot}/real/${name}`);
    const tail = real ? `exec -a "\${0##*/}" ${oracleRoot}/real/${name} "$@"\n` : 'exit 0\n';
    // One printf: the record lands in one write, so records of parallel commands do not interleave.
    const body = `#!/bin/bash\nprintf '%s\\0' "\${0##*/}" "$PWD" "$#" "$@" >> ${oracleRoot}/log/calls 2>/dev/null\n${tail}`;
    await writeFile(join(shims, name), body);
    await chmod(join(shims, name), 0o755);
  }
  // Spelled paths (`/bin/rm`, `/usr/bin/rm`) hit the shim too: it is bound over the real binary.
  // (bound at the link's target: /usr/bin/awk is a link to mawk through /etc/alternatives).
  const overBinaries: string[] = [];
  const covered = new Set<string>();
  for (const name of [...recordOnly, ...passThrough]) {
    for (const folder of ['/usr/bin', '/usr/sbin']) {
      const path = join(folder, name);
      if (!existsSync(path)) continue;
      const target = realpathSync(path);
      if (covered.has(target)) continue;
      covered.add(target);
      overBinaries.push('--ro-bind', join(shims, name), target);
    }
  }
  let runs = 0;
  return {
    async run(command, timeoutMs = 5000) {
      const runDir = join(scratch, `run-${++runs}`);
      const home = join(runDir, 'home');
      const log = join(runDir, 'log');
      await seedHome(home);
      await mkdir(log, { recursive: true });
      await writeFile(join(log, 'calls'), '');
      const before = await snapshot(home);
      const args = [
        ...bubblewrapBaseArgs,
        '--tmpfs',
        '/home',
        '--bind',
        home,
        sandboxHome,
        '--ro-bind',
        shims,
        `${oracleRoot}/bin`,
        '--bind',
        log,
        `${oracleRoot}/log`,
        ...realBinds,
        ...overBinaries,
        '--unshare-all',
        '--die-with-parent',
        '--new-session',
        '--clearenv',
        '--setenv',
        'PATH',
        `${oracleRoot}/bin:/usr/local/bin:/usr/bin:/bin`,
        '--setenv',
        'HOME',
        sandboxHome,
        '--setenv',
        'LANG',
        'C.UTF-8',
        '--chdir',
        sandboxWork,
        '--',
        '/bin/bash',
        '-c',
        command,
      ];
      const result = await runBwrap(bwrap, args, timeoutMs);
      if (result.error) throw new Error(`bubblewrap failed to start: ${result.error}`);
      if (process.env.ORACLE_DEBUG) console.error(result.stderr);
      const executions = parseCalls(await readFile(join(log, 'calls')));
      const after = await snapshot(home);
      const written = [...new Set([...before.keys(), ...after.keys()])]
        .filter((path) => before.get(path) !== after.get(path))
        .map((path) => join(sandboxHome, path));
      await rm(runDir, { recursive: true, force: true });
      return { executions, written, exitCode: result.exitCode, timedOut: result.timedOut };
    },
    async dispose() {
      await rm(scratch, { recursive: true, force: true });
    },
  };
}

function whereIs(name: string): string | undefined {
  for (const folder of ['/usr/bin', '/bin', '/usr/sbin']) {
    const path = join(folder, name);
    if (existsSync(path)) return path;
  }
  return undefined;
}

async function seedHome(home: string): Promise<void> {
  await mkdir(join(home, 'work', 'build'), { recursive: true });
  // Enough visible entries that only a glob of all of them (`~/*`) empties the home.
  for (const folder of ['Documents', 'Downloads', 'Pictures', 'projects'])
    await mkdir(join(home, folder), { recursive: true });
  await writeFile(join(home, 'todo.txt'), 'todo\n');
  await mkdir(join(home, '.ssh'), { recursive: true });
  await writeFile(join(home, 'Documents', 'notes.txt'), 'notes\n');
  await writeFile(join(home, '.bashrc'), '# rc\n');
  await writeFile(join(home, '.ssh', 'id_rsa'), 'not a key\n');
  await writeFile(join(home, 'work', 'README.md'), '# work\n');
  await writeFile(join(home, 'work', 'build', 'x.o'), 'object\n');
}

/** Relative path → content hash (folders as `dir`), for the written-files diff. */
async function snapshot(root: string): Promise<Map<string, string>> {
  const entries = new Map<string, string>();
  const walk = async (folder: string): Promise<void> => {
    let names: string[];
    try {
      names = await readdir(folder);
    } catch {
      return;
    }
    for (const name of names) {
      const path = join(folder, name);
      const info = await stat(path).catch(() => undefined);
      if (!info) continue;
      const key = relative(root, path);
      if (info.isDirectory()) {
        entries.set(key, `dir:${info.mode}`);
        await walk(path);
      } else {
        const content = await readFile(path).catch(() => Buffer.alloc(0));
        entries.set(key, `${info.mode}:${createHash('sha256').update(content).digest('hex')}`);
      }
    }
  };
  await walk(root);
  return entries;
}

/** Records are `name\0cwd\0argc\0arg…\0`, appended one after another. */
export function parseCalls(buffer: Buffer): Execution[] {
  const fields = buffer.toString('utf8').split('\0');
  const executions: Execution[] = [];
  let at = 0;
  while (at + 2 < fields.length) {
    const name = fields[at] ?? '';
    const cwd = fields[at + 1] ?? '';
    const count = Number(fields[at + 2]);
    if (!Number.isInteger(count) || count < 0) break;
    executions.push({ name, cwd, args: fields.slice(at + 3, at + 3 + count) });
    at += 3 + count;
  }
  return executions;
}

async function runBwrap(
  bwrap: string,
  args: string[],
  timeoutMs: number,
): Promise<{ exitCode: number | null; stderr: string; timedOut: boolean; error?: string }> {
  return new Promise((resolve) => {
    const child = spawn(bwrap, args, { stdio: ['ignore', 'ignore', 'pipe'], detached: true });
    let stderr = '';
    let timedOut = false;
    child.stderr.on('data', (chunk: Buffer) => {
      if (stderr.length < 4000) stderr += chunk.toString();
    });
    const timer = setTimeout(() => {
      timedOut = true;
      if (child.pid) process.kill(-child.pid, 'SIGKILL');
    }, timeoutMs);
    child.on('error', (error) => {
      clearTimeout(timer);
      resolve({ exitCode: null, stderr, timedOut, error: error.message });
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ exitCode: code, stderr, timedOut });
    });
  });
}
