import { spawn } from 'node:child_process';
import { accessSync, statSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { type AddressInfo, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as pty from 'node-pty';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { systemClock } from '../base/clock.js';
import { DisposableStore } from '../base/disposable.js';
import { silentLogger } from '../base/logger.js';
import { openAllowlistStore } from './allowlist-store.js';
import { approvalsHistoryPath, createApprovalHistory } from './approval-history.js';
import { ApprovalService } from './approval-service.js';
import type { ApprovalDecision, ApprovalRequest } from './approval-types.js';
import { type BashParser, loadBashParser } from './bash-parser.js';
import { createCommandScreen } from './command-screen.js';
import { type ExecConfig, execConfigSchema } from './exec-config.js';
import { ExecHost } from './exec-host.js';
import { createExecTool } from './exec-tool.js';
import { createFsExecutableCheck, createPathResolver } from './path-resolver.js';
import { createBubblewrapSandbox, createLocalSandbox } from './sandbox.js';

const PATH = '/usr/local/bin:/usr/bin:/bin';
let parser: BashParser;
/** What a test's hosts own (the approval service and its prompter), released after it. */
let owned: DisposableStore;
let home: string;
let workspace: string;
let config: ExecConfig;
let answers: ApprovalDecision[];
let asked: ApprovalRequest[];

beforeAll(async () => {
  parser = await loadBashParser();
});
beforeEach(async () => {
  home = await mkdtemp(join(tmpdir(), 'hearth-exec-host-'));
  workspace = join(home, 'workspace');
  await mkdir(workspace, { recursive: true });
  config = execConfigSchema.parse({ allowlist: [{ pattern: 'echo' }, { pattern: 'cat' }, { pattern: 'sleep' }] });
  answers = [];
  asked = [];
  owned = new DisposableStore();
});
afterEach(async () => {
  owned.dispose();
  await rm(home, { recursive: true, force: true, maxRetries: 5, retryDelay: 50 });
});

async function createHost(overrides: { judge?: boolean } = {}) {
  const stateDir = join(home, 'state');
  const approvals = owned.add(
    new ApprovalService({
      clock: systemClock,
      events: { publish: () => undefined },
      history: createApprovalHistory(approvalsHistoryPath(stateDir)),
      logger: silentLogger,
      screen: createCommandScreen(parser, { home }),
    }),
  );
  // The "desktop": answers from the queue the test fills.
  approvals.registerPrompter({
    name: 'desktop',
    prompt: async (request) => {
      asked.push(request);
      return answers.shift() ?? 'deny';
    },
  });
  void overrides;
  const host = new ExecHost({
    parser,
    resolver: createPathResolver({ path: PATH, isExecutable: createFsExecutableCheck({ accessSync, statSync }) }),
    approvals,
    allowlist: await openAllowlistStore(stateDir),
    configFor: () => config,
    sandboxes: {
      local: createLocalSandbox({ shell: '/bin/bash' }),
      bubblewrap: createBubblewrapSandbox({ shell: '/bin/bash', spawn }),
    },
    spawn,
    spawnPty: pty.spawn,
    baseEnv: { PATH, HOME: home, LANG: 'C.UTF-8', OPENAI_API_KEY: 'sk-secret', GITHUB_TOKEN: 'ghp_secret' },
    home,
    readScript: (path) => readFile(path, 'utf8').catch(() => undefined),
    clock: systemClock,
    logger: silentLogger,
  });
  return { host, tool: createExecTool(host) };
}

const context = (signal = new AbortController().signal, progress: string[] = []) => ({
  agentId: 'main',
  sessionKey: 'agent:main:main',
  workspaceDir: workspace,
  signal,
  log: silentLogger,
  onProgress: (text: string) => progress.push(text),
});

describe('exec tool', () => {
  it('runs an allowlisted command in the workspace and streams its output', async () => {
    const { tool } = await createHost();
    const progress: string[] = [];
    const result = await tool.execute({ command: 'echo hello; pwd' }, context(undefined, progress));
    expect(result.output).toBe(`hello\n${workspace}\n[exit code 0]`);
    expect(result.isError).toBe(false);
    expect(progress.join('')).toContain('hello');
    expect(asked).toEqual([]);
  });

  it('does not pass secrets from the host environment', async () => {
    const { tool } = await createHost();
    config.security = 'full';
    const result = await tool.execute({ command: 'env' }, context());
    expect(result.output).toContain(`PATH=${PATH}`);
    expect(result.output).not.toContain('sk-secret');
    expect(result.output).not.toContain('GITHUB_TOKEN');
  });

  it('denies the hard floor without asking anyone', async () => {
    const { tool } = await createHost();
    config.security = 'full';
    const result = await tool.execute({ command: 'rm -rf ~' }, context());
    expect(result.isError).toBe(true);
    expect(result.output).toContain('recursive-delete-root');
    expect(asked).toEqual([]);
  });

  it('denies the floor in the keys a PTY run types into a shell, without asking', async () => {
    const { tool } = await createHost();
    config.security = 'full';
    const result = await tool.execute({ command: 'bash', pty: true, input: 'rm -rf ~\n' }, context());
    expect(result.isError).toBe(true);
    expect(result.output).toContain('recursive-delete-root');
    expect(asked).toEqual([]);
  });

  it('asks about a miss, and a denial stops the command', async () => {
    const { tool } = await createHost();
    answers.push('deny');
    const result = await tool.execute({ command: 'touch made.txt' }, context());
    expect(asked.map((request) => request.command)).toEqual(['touch made.txt']);
    expect(result.output).toMatch(/^\[approval: deny by prompter:desktop\]\nNot run: denied \(prompter:desktop\)/);
    await expect(readFile(join(workspace, 'made.txt'))).rejects.toThrow();
  });

  it('allow-always saves the resolved binary, so the same kind of command is not asked again, even after a restart', async () => {
    const first = await createHost();
    answers.push('allow-always');
    expect((await first.tool.execute({ command: 'touch a.txt' }, context())).output).toBe(
      '[approval: allow-always by prompter:desktop]\n[exit code 0]',
    );
    expect((await first.tool.execute({ command: 'touch b.txt' }, context())).output).toBe('[exit code 0]');
    expect(asked).toHaveLength(1);
    const saved = JSON.parse(await readFile(join(home, 'state', 'exec-approvals.json'), 'utf8'));
    expect(saved.agents.main.allowlist).toEqual([{ pattern: expect.stringMatching(/\/touch$/) }]);

    const restarted = await createHost();
    expect((await restarted.tool.execute({ command: 'touch c.txt' }, context())).output).toBe('[exit code 0]');
    expect(asked).toHaveLength(1);
    // Only that binary: something else still asks.
    answers.push('deny');
    await restarted.tool.execute({ command: 'mkdir d' }, context());
    expect(asked).toHaveLength(2);
  });

  it('kills a command at its timeout, including what it started in the background', async () => {
    const { tool } = await createHost();
    config.security = 'full';
    const marker = join(workspace, 'survived');
    const result = await tool.execute({ command: `(sleep 2; touch ${marker}) & sleep 30`, timeoutMs: 300 }, context());
    expect(result.output).toContain('[killed: timed out]');
    await new Promise((resolve) => setTimeout(resolve, 2500));
    await expect(readFile(marker)).rejects.toThrow();
  });

  it('kills the command when the run is aborted', async () => {
    const { tool } = await createHost();
    const controller = new AbortController();
    const running = tool.execute({ command: 'sleep 30' }, context(controller.signal));
    setTimeout(() => controller.abort(), 100);
    expect((await running).output).toContain('[killed: aborted]');
  });

  it('caps the output, keeping the start and the end', async () => {
    const { tool } = await createHost();
    config.security = 'full';
    config.maxOutputBytes = 1000;
    const result = await tool.execute({ command: 'echo START; seq 1 100000; echo END' }, context());
    expect(result.output.startsWith('START\n')).toBe(true);
    expect(result.output).toMatch(/\[… \d+ bytes of output cut; to see them, send the output to a file/);
    expect(result.output).toContain('END\n[exit code 0]');
    expect(Buffer.byteLength(result.output)).toBeLessThan(1200);
  });

  it('reports script mistakes instead of running', async () => {
    const { tool } = await createHost();
    config.security = 'full';
    await writeFile(join(workspace, 'app.js'), 'console.log("hi")\n');
    // biome-ignore lint/suspicious/noTemplateCurlyInString: shell syntax, not a JS template
    await writeFile(join(workspace, 'tool.py'), 'import os\nprint("$HOME")\nprint(open("${TARGET}").read())\n');
    const wrong = await tool.execute({ command: 'python3 app.js' }, context());
    expect(wrong.output).toContain('wrong-interpreter: app.js looks like a node script but is run with python3');
    const leaked = await tool.execute({ command: 'python3 tool.py' }, context());
    expect(leaked.output).toContain('shell-variable-in-script');
    const inline = await tool.execute({ command: 'python3 -c "print(\'$USER\')"' }, context());
    expect(inline.output).toContain('shell-variable-in-inline-code');
  });

  it('runs programs that need a terminal in a PTY, with typed input', async () => {
    const { tool } = await createHost();
    config.security = 'full';
    const result = await tool.execute(
      { command: 'test -t 0 && echo tty; read -r name; echo "hi $name"', pty: true, input: 'ada\r' },
      context(),
    );
    expect(result.output).toContain('tty');
    expect(result.output).toContain('hi ada');
    expect(result.output).toContain('[exit code 0]');
  });
});

describe('bubblewrap sandbox', () => {
  it('cannot write outside the workspace, and has no network', async (ctx) => {
    const probe = await createBubblewrapSandbox({ shell: '/bin/bash', spawn }).probe();
    if (!probe.ok) {
      console.log(`skipped: ${probe.reason}`);
      ctx.skip();
    }
    const { tool } = await createHost();
    config.security = 'full';
    // Not under /tmp: the sandbox has a private /tmp, where a write would succeed and vanish.
    const outsideDir = await mkdtemp('/var/tmp/hearth-outside-');
    const outside = join(outsideDir, 'outside.txt');
    // A server on the host's loopback: reachable from a plain shell, not from the sandbox.
    const server = createServer((socket) => socket.end());
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const port = (server.address() as AddressInfo).port;
    const reach = `(echo x > /dev/tcp/127.0.0.1/${port}) 2>/dev/null && echo has-network || echo no-network`;
    try {
      expect((await tool.execute({ command: reach }, context())).output).toContain('has-network');
      config.sandbox = { mode: 'bubblewrap', network: false, image: 'x' };
      const result = await tool.execute(
        { command: `echo in > inside.txt && echo ok-inside; echo out > ${outside} || echo blocked-outside; ${reach}` },
        context(),
      );
      expect(result.output).toContain('ok-inside');
      expect(result.output).toContain('blocked-outside');
      expect(result.output).toContain('no-network');
      expect(await readFile(join(workspace, 'inside.txt'), 'utf8')).toBe('in\n');
      await expect(readFile(outside)).rejects.toThrow();
    } finally {
      server.close();
      await rm(outsideDir, { recursive: true, force: true, maxRetries: 5, retryDelay: 50 });
    }
  });

  it('relaxes the policy inside the sandbox only by config, and says so', async () => {
    const { host } = await createHost();
    config.sandbox = { mode: 'bubblewrap', network: false, image: 'x' };
    expect(host.check('main', 'touch x', workspace).decision).toBe('ask');
    config.sandbox = { mode: 'bubblewrap', network: false, image: 'x', relaxPolicy: { security: 'full' } };
    const relaxed = host.check('main', 'touch x', workspace);
    expect(relaxed.decision).toBe('allow');
    expect(relaxed.reasons.map((reason) => reason.code)).toContain('sandbox-relaxed');
    expect(host.check('main', 'rm -rf /', workspace).decision).toBe('deny');
  });
});
