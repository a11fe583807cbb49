import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runProcess } from './process-runner.js';
import { createBubblewrapSandbox, createDockerSandbox, createLocalSandbox, type Sandbox } from './sandbox.js';

let workspace: string;
beforeEach(async () => {
  workspace = await mkdtemp(join(tmpdir(), 'hearth-sandbox-'));
});
afterEach(async () => {
  await rm(workspace, { recursive: true, force: true, maxRetries: 5, retryDelay: 50 });
});

const env = { PATH: '/usr/local/bin:/usr/bin:/bin', HOME: '/nonexistent' };

async function runIn(sandbox: Sandbox, command: string) {
  const launch = sandbox.wrap({ command, cwd: workspace, env, workspaceDir: workspace, network: false });
  return runProcess({ ...launch, timeoutMs: 60_000, maxOutputBytes: 100_000 }, { spawn });
}

describe('sandboxes behind one interface', () => {
  it('local runs the command string with the shell in the working folder', async () => {
    const result = await runIn(createLocalSandbox({ shell: '/bin/bash' }), 'pwd; echo x > f.txt');
    expect(result.output).toBe(`${workspace}\n`);
    expect(await readFile(join(workspace, 'f.txt'), 'utf8')).toBe('x\n');
  });

  it('bubblewrap mounts the root read-only and the workspace writable', async (ctx) => {
    const sandbox = createBubblewrapSandbox({ shell: '/bin/bash', spawn });
    const probe = await sandbox.probe();
    if (!probe.ok) {
      console.log(`skipped: ${probe.reason}`);
      ctx.skip();
    }
    const result = await runIn(sandbox, 'touch /usr/hearth-probe 2>&1 || echo root-ro; echo ok > w.txt && cat w.txt');
    expect(result.output).toContain('Read-only file system');
    expect(result.output).toContain('root-ro');
    expect(result.output).toContain('ok');
    expect(await readFile(join(workspace, 'w.txt'), 'utf8')).toBe('ok\n');
  });

  it('docker builds a locked-down docker run', () => {
    const sandbox = createDockerSandbox({ shell: '/bin/bash', spawn, image: 'debian:bookworm-slim' });
    const launch = sandbox.wrap({
      command: 'ls',
      cwd: workspace,
      env: { ...env, LANG: 'C' },
      workspaceDir: workspace,
      network: false,
    });
    expect(launch.file).toBe('docker');
    expect(launch.args).toEqual([
      'run',
      '--rm',
      '-i',
      '--network',
      'none',
      '--read-only',
      '--tmpfs',
      '/tmp',
      '-v',
      `${workspace}:${workspace}`,
      '-w',
      workspace,
      '-e',
      'LANG=C',
      'debian:bookworm-slim',
      'sh',
      '-c',
      'ls',
    ]);
  });

  it('docker runs a command where an engine exists', async (ctx) => {
    const sandbox = createDockerSandbox({ shell: '/bin/bash', spawn, image: 'debian:bookworm-slim' });
    const probe = await sandbox.probe();
    if (!probe.ok) {
      console.log(`skipped: ${probe.reason}`);
      ctx.skip();
    }
    const result = await runIn(sandbox, 'echo in-docker > d.txt; cat d.txt');
    expect(result.output).toContain('in-docker');
  });
});
