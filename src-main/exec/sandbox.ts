import type { SpawnFn } from './process-runner.js';
import { runProcess } from './process-runner.js';

/** What to run, before a sandbox wraps it. */
export interface SandboxCommand {
  /** The shell command string. */
  command: string;
  cwd: string;
  env: Record<string, string>;
  /** The only folder the command may write (bubblewrap/docker). */
  workspaceDir: string;
  /** Let the command reach the network. */
  network: boolean;
}

/** The process to start: a sandbox turns a command into argv. */
export interface SandboxLaunch {
  file: string;
  args: string[];
  env: Record<string, string>;
  cwd: string;
}

export interface Sandbox {
  readonly name: 'local' | 'bubblewrap' | 'docker';
  wrap(command: SandboxCommand): SandboxLaunch;
  /** Whether this machine can run it; `reason` says why not (shown to the user, printed by skipped tests). */
  probe(): Promise<{ ok: true } | { ok: false; reason: string }>;
}

export interface SandboxDeps {
  /** The shell that runs command strings (`/bin/bash`). */
  shell: string;
  spawn: SpawnFn;
}

/** Runs on the host, as the user: the policy is the only guard. */
export function createLocalSandbox(deps: Pick<SandboxDeps, 'shell'>): Sandbox {
  return {
    name: 'local',
    wrap: ({ command, cwd, env }) => ({ file: deps.shell, args: ['-c', command], env, cwd }),
    probe: async () => ({ ok: true }),
  };
}

/** What every bubblewrap run here starts from: the root read-only, fresh /dev and /proc, a private /tmp. */
export const bubblewrapBaseArgs: readonly string[] = [
  '--ro-bind',
  '/',
  '/',
  '--dev',
  '/dev',
  '--proc',
  '/proc',
  '--tmpfs',
  '/tmp',
];

/**
 * bubblewrap: the whole root read-only, the workspace writable, a private /tmp,
 * fresh /dev and /proc, no network unless allowed, and killed with its parent.
 */
export function createBubblewrapSandbox(deps: SandboxDeps & { bwrap?: string }): Sandbox {
  const bwrap = deps.bwrap ?? 'bwrap';
  return {
    name: 'bubblewrap',
    wrap: ({ command, cwd, env, workspaceDir, network }) => ({
      file: bwrap,
      args: [
        ...bubblewrapBaseArgs,
        '--bind',
        workspaceDir,
        workspaceDir,
        '--unshare-all',
        ...(network ? ['--share-net'] : []),
        '--die-with-parent',
        '--new-session',
        '--chdir',
        cwd,
        deps.shell,
        '-c',
        command,
      ],
      env,
      cwd,
    }),
    probe: () => probeBySpawn(deps.spawn, bwrap, ['--ro-bind', '/', '/', '--unshare-all', 'true'], 'bubblewrap'),
  };
}

/** docker: a throwaway container of `image` with the workspace mounted at the same path. */
export function createDockerSandbox(deps: SandboxDeps & { docker?: string; image: string }): Sandbox {
  const docker = deps.docker ?? 'docker';
  return {
    name: 'docker',
    wrap: ({ command, cwd, env, workspaceDir, network }) => ({
      file: docker,
      args: [
        'run',
        '--rm',
        '-i',
        '--network',
        network ? 'bridge' : 'none',
        '--read-only',
        '--tmpfs',
        '/tmp',
        '-v',
        `${workspaceDir}:${workspaceDir}`,
        '-w',
        cwd,
        ...Object.entries(env)
          .filter(([name]) => name !== 'PATH' && name !== 'HOME')
          .flatMap(([name, value]) => ['-e', `${name}=${value}`]),
        deps.image,
        'sh',
        '-c',
        command,
      ],
      env: { PATH: env.PATH ?? '/usr/bin:/bin', ...(env.HOME ? { HOME: env.HOME } : {}) },
      cwd,
    }),
    probe: () => probeBySpawn(deps.spawn, docker, ['info'], 'docker'),
  };
}

async function probeBySpawn(
  spawn: SpawnFn,
  file: string,
  args: string[],
  label: string,
): Promise<{ ok: true } | { ok: false; reason: string }> {
  try {
    const result = await runProcess(
      { file, args, env: { PATH: '/usr/local/bin:/usr/bin:/bin' }, cwd: '/', timeoutMs: 15_000, maxOutputBytes: 4000 },
      { spawn },
    );
    if (result.exitCode === 0) return { ok: true };
    return {
      ok: false,
      reason: `${label} is not usable here: ${result.output.trim().split('\n').at(-1) ?? `exit ${result.exitCode}`}`,
    };
  } catch (error) {
    return {
      ok: false,
      reason: `${label} is not installed: ${error instanceof Error ? error.message : String(error)}`,
    };
  }
}
