import { spawn } from 'node:child_process';
import { accessSync, existsSync, statSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as pty from 'node-pty';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { systemClock } from '../base/clock.js';
import { DisposableStore } from '../base/disposable.js';
import { silentLogger } from '../base/logger.js';
import { approvalsHistoryPath, createApprovalHistory } from './approval-history.js';
import { ApprovalService } from './approval-service.js';
import type { ApprovalAnswer, ApprovalRequest } from './approval-types.js';
import { type BashParser, loadBashParser } from './bash-parser.js';
import { createCommandScreen } from './command-screen.js';
import { type ExecConfig, execConfigSchema } from './exec-config.js';
import { ExecHost } from './exec-host.js';
import { createFsExecutableCheck, createPathResolver } from './path-resolver.js';
import { PermissionStore } from './permission-store.js';
import { isWithin } from './policy-evaluator.js';
import { createLocalSandbox } from './sandbox.js';

// "Always allow these exact arguments in this folder" (allowAlwaysScope `folder`): the narrow
// rule a destructive command may be remembered with. Real exec host, real approval service,
// real permission store on disk; the "person" is a prompter answering from the test's queue.

const PATH = '/usr/local/bin:/usr/bin:/bin';
let parser: BashParser;
/** What a test's hosts own (the approval service and its prompter), released after it. */
let owned: DisposableStore;
let home: string;
let workspace: string;
let config: ExecConfig;
let asked: ApprovalRequest[];
let answers: (Omit<ApprovalAnswer, 'resolvedBy'> | undefined)[];

beforeAll(async () => {
  parser = await loadBashParser();
});
beforeEach(async () => {
  home = await mkdtemp(join(tmpdir(), 'hearth-always-folder-'));
  workspace = join(home, 'workspace');
  await mkdir(join(workspace, 'project', 'sub'), { recursive: true });
  await mkdir(join(workspace, 'other'), { recursive: true });
  config = execConfigSchema.parse({});
  asked = [];
  answers = [];
  owned = new DisposableStore();
});
afterEach(async () => {
  owned.dispose();
  await rm(home, { recursive: true, force: true, maxRetries: 5, retryDelay: 50 });
});

async function createHost(options: { prompter?: boolean } = {}) {
  const stateDir = join(home, 'state');
  const permissions = await PermissionStore.open(stateDir, systemClock);
  const approvals = owned.add(
    new ApprovalService({
      clock: systemClock,
      events: { publish: () => undefined },
      history: createApprovalHistory(approvalsHistoryPath(stateDir)),
      logger: silentLogger,
      screen: createCommandScreen(parser, { home }),
      permissions,
      hasWireApprovers: () => true,
      home,
    }),
  );
  if (options.prompter !== false)
    approvals.registerPrompter({
      name: 'desktop',
      prompt: async (request) => {
        asked.push(request);
        return answers.shift() ?? { decision: 'deny' };
      },
    });
  const host = new ExecHost({
    parser,
    resolver: createPathResolver({ path: PATH, isExecutable: createFsExecutableCheck({ accessSync, statSync }) }),
    approvals,
    allowlist: permissions.allowlist(),
    configFor: () => config,
    sandboxes: { local: createLocalSandbox({ shell: '/bin/bash' }) },
    spawn,
    spawnPty: pty.spawn,
    baseEnv: { PATH, HOME: home, LANG: 'C.UTF-8' },
    home,
    readScript: (path) => readFile(path, 'utf8').catch(() => undefined),
    clock: systemClock,
    logger: silentLogger,
  });
  return { host, approvals, permissions, stateDir };
}

const caller = () => ({
  agentId: 'main',
  sessionKey: 'agent:main:main',
  workspaceDir: workspace,
  signal: new AbortController().signal,
});

describe('allow always in this folder', () => {
  it('a destructive command offers only exact and folder, and a folder rule allows the same arguments inside that folder only', async () => {
    const { host, permissions, stateDir } = await createHost();
    await mkdir(join(workspace, 'project', 'build'));
    answers.push({ decision: 'allow-always', allowAlwaysScope: 'folder' });
    const first = await host.execute({ command: 'rm -r build', cwd: 'project' }, caller());
    expect(first.status).toBe('ran');
    expect(existsSync(join(workspace, 'project', 'build'))).toBe(false);
    const [request] = asked;
    expect(request?.risk?.level).toBe('destructive');
    // Never the whole binary for a destructive command.
    expect(request?.alwaysScopes).toEqual(['exact', 'folder']);
    expect(request?.allowAlwaysFolder).toEqual([
      { pattern: '/usr/bin/rm', argPattern: '^-r build$', cwdWithin: join(workspace, 'project') },
    ]);

    // The rule is on disk, keyed on the binary, the exact arguments and the folder.
    const saved = JSON.parse(await readFile(join(stateDir, 'permissions.json'), 'utf8')) as {
      rules: Record<string, unknown>[];
    };
    expect(saved.rules).toEqual([
      expect.objectContaining({
        kind: 'exec',
        scope: 'folder',
        pattern: '/usr/bin/rm',
        argPattern: '^-r build$',
        cwdWithin: join(workspace, 'project'),
        origin: 'prompter:desktop',
      }),
    ]);
    await permissions.flush();

    // Inside the folder (and below it): the same arguments run without asking.
    await mkdir(join(workspace, 'project', 'sub', 'build'));
    const below = await host.execute({ command: 'rm -r build', cwd: 'project/sub' }, caller());
    expect(below.status).toBe('ran');
    expect(asked).toHaveLength(1);

    // Elsewhere, or other arguments: asked again (the prompter denies).
    await mkdir(join(workspace, 'other', 'build'));
    const elsewhere = await host.execute({ command: 'rm -r build', cwd: 'other' }, caller());
    expect(elsewhere.status).toBe('denied');
    expect(existsSync(join(workspace, 'other', 'build'))).toBe(true);
    const otherArgs = await host.execute({ command: 'rm -r sub', cwd: 'project' }, caller());
    expect(otherArgs.status).toBe('denied');
    expect(asked).toHaveLength(3);
  });

  it('survives a restart: the folder rule is read back from permissions.json', async () => {
    const first = await createHost();
    answers.push({ decision: 'allow-always', allowAlwaysScope: 'folder' });
    await mkdir(join(workspace, 'project', 'build'));
    expect((await first.host.execute({ command: 'rm -r build', cwd: 'project' }, caller())).status).toBe('ran');
    await first.permissions.flush();

    const second = await createHost();
    expect(second.permissions.execEntries('main')).toEqual([
      { pattern: '/usr/bin/rm', argPattern: '^-r build$', cwdWithin: join(workspace, 'project') },
    ]);
    await mkdir(join(workspace, 'project', 'build'));
    expect((await second.host.execute({ command: 'rm -r build', cwd: 'project' }, caller())).status).toBe('ran');
    expect(asked).toHaveLength(1);
  });

  it('a safe command offers binary, exact and folder', async () => {
    const { host } = await createHost();
    answers.push({ decision: 'deny' });
    await host.execute({ command: 'ls -la', cwd: 'project' }, caller());
    expect(asked[0]?.risk?.level).toBe('safe');
    expect(asked[0]?.alwaysScopes).toEqual(['binary', 'exact', 'folder']);
  });

  it('refuses "binary" for a destructive command and an unknown id, naming what was wrong', async () => {
    const { host, approvals } = await createHost({ prompter: false });
    await mkdir(join(workspace, 'project', 'build'));
    const running = host.execute({ command: 'rm -r build', cwd: 'project' }, caller());
    await expect.poll(() => approvals.list().length).toBe(1);
    const [pending] = approvals.list();
    const id = pending!.id;
    expect(() =>
      approvals.answer(id, { decision: 'allow-always', allowAlwaysScope: 'binary', resolvedBy: 'test' }),
    ).toThrow(/destructive command .*allowAlwaysScope "exact" or "folder"/);
    try {
      approvals.answer(id, { decision: 'allow-always', allowAlwaysScope: 'binary', resolvedBy: 'test' });
    } catch (error) {
      expect((error as { details?: { reason?: string } }).details?.reason).toBe('ALWAYS_TOO_BROAD');
    }
    expect(() => approvals.answer('ap-nope', { decision: 'deny', resolvedBy: 'test' })).toThrow(
      'unknown or expired approval id',
    );
    approvals.answer(id, { decision: 'deny', resolvedBy: 'test' });
    expect((await running).status).toBe('denied');
    expect(existsSync(join(workspace, 'project', 'build'))).toBe(true);
  });
});

// "Always allow" remembers the kind of command, not a hash of one command line: with the binary
// scope any use of it runs without asking again; with the exact scope only those arguments do.
describe('allow always, exact and binary', () => {
  beforeEach(async () => {
    await writeFile(join(workspace, 'a.txt'), 'alpha');
    await writeFile(join(workspace, 'b.txt'), 'beta');
  });

  it('with the exact scope, remembers only those arguments', async () => {
    const { host, stateDir } = await createHost();
    answers.push({ decision: 'allow-always', allowAlwaysScope: 'exact' });
    expect(await host.execute({ command: 'wc -c a.txt' }, caller())).toMatchObject({ status: 'ran' });
    expect(asked).toHaveLength(1);
    expect(await host.execute({ command: 'wc -c a.txt' }, caller())).toMatchObject({ status: 'ran' });
    expect(asked).toHaveLength(1);
    answers.push({ decision: 'deny' });
    expect((await host.execute({ command: 'wc -c b.txt' }, caller())).status).not.toBe('ran');
    expect(asked).toHaveLength(2);
    expect(await readFile(join(stateDir, 'permissions.json'), 'utf8')).toMatch(/"argPattern"/);
  });

  it('with the binary scope, any use of the binary runs without asking again', async () => {
    const { host } = await createHost();
    answers.push({ decision: 'allow-always' });
    expect(await host.execute({ command: 'md5sum a.txt' }, caller())).toMatchObject({ status: 'ran' });
    expect(await host.execute({ command: 'md5sum b.txt' }, caller())).toMatchObject({ status: 'ran' });
    expect(asked).toHaveLength(1);
  });
});

describe('isWithin', () => {
  it('is the folder or below it, never a sibling sharing its prefix', () => {
    expect(isWithin('/w/project', '/w/project')).toBe(true);
    expect(isWithin('/w/project/a/b', '/w/project')).toBe(true);
    expect(isWithin('/w/project-old', '/w/project')).toBe(false);
    expect(isWithin('/w/project/../other', '/w/project')).toBe(false);
    expect(isWithin('/w', '/w/project')).toBe(false);
  });
});
