import { spawn } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as pty from 'node-pty';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { systemClock } from '../../base/clock.js';
import { DisposableStore } from '../../base/disposable.js';
import { silentLogger } from '../../base/logger.js';
import {
  ApprovalService,
  approvalsHistoryPath,
  type BashParser,
  createApprovalHistory,
  createCommandScreen,
  createExecCapability,
  type ExecConfig,
  execConfigSchema,
  loadBashParser,
  parseApproveCommand,
} from '../../exec/index.js';
import { createHearthPaths } from '../../paths/index.js';
import { createFakeClock, type FakeClock } from '../../testing/fake-clock.js';
import type { CallerIdentity } from '../caller.js';
import { GatewayEventBus, type PublishedEvent } from '../event-bus.js';
import { type CallContext, MethodRegistry } from '../method-router.js';
import { registerExecMethods } from './exec.js';

const caller = (scopes: string[], connId = 'c1'): CallerIdentity => ({
  connId,
  role: 'operator',
  scopes,
  clientId: 'test',
  clientMode: 'ui',
  displayName: 'Control UI',
  authMethod: 'token',
  isLocal: true,
  caps: [],
});

let dir: string;
let clock: FakeClock;
let registry: MethodRegistry;
let approvals: ApprovalService;
let events: PublishedEvent[];
let approversOnline: boolean;
let ids: number;
/** What a test's setup registers (the bus subscription, the methods), released after it. */
let lifetimes: DisposableStore;
let parser: BashParser;
beforeAll(async () => {
  parser = await loadBashParser();
});

const call = (method: string, params: unknown, options: { scopes?: string[]; acks?: unknown[] } = {}) => {
  const context: CallContext = {
    caller: caller(options.scopes ?? ['operator.approvals']),
    requestId: 'r1',
    signal: new AbortController().signal,
    acknowledge: (payload) => options.acks?.push(payload),
  };
  return registry.dispatch(method, params, context);
};

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'hearth-exec-methods-'));
  clock = createFakeClock();
  lifetimes = new DisposableStore();
  const bus = new GatewayEventBus();
  events = [];
  lifetimes.add(bus.onDidPublish((event) => events.push(event)));
  approversOnline = true;
  ids = 0;
  approvals = new ApprovalService({
    clock,
    events: bus,
    history: createApprovalHistory(approvalsHistoryPath(dir)),
    logger: silentLogger,
    hasWireApprovers: () => approversOnline,
    newId: () => `ap-${++ids}`,
    screen: createCommandScreen(parser, { home: '/home/me' }),
  });
  registry = new MethodRegistry();
  lifetimes.add(
    registerExecMethods(registry, {
      approvals,
      describe: (command) => ({
        commands: [{ name: command, args: [], via: [], source: command }],
        findings: [],
        parseError: false,
      }),
      defaultCwd: '/work',
    }),
  );
});
afterEach(async () => {
  lifetimes.dispose();
  approvals.dispose();
  await approvals.flushHistory();
  await rm(dir, { recursive: true, force: true, maxRetries: 5, retryDelay: 50 });
});

describe('exec.approval methods', () => {
  it('request waits for resolve; twoPhase acknowledges first', async () => {
    const acks: unknown[] = [];
    const pending = call('exec.approval.request', { command: 'make deploy', twoPhase: true }, { acks });
    await Promise.resolve();
    expect(acks).toEqual([{ status: 'accepted', id: 'ap-1', deliveryRoute: 'gateway' }]);
    const listed = await call('exec.approval.list', {});
    expect(listed).toMatchObject({
      ok: true,
      payload: [{ id: 'ap-1', command: 'make deploy', request: { command: 'make deploy' } }],
    });
    expect(await call('exec.approval.resolve', { id: 'ap-1', decision: 'allow-once' })).toEqual({
      ok: true,
      payload: { ok: true },
    });
    expect(await pending).toMatchObject({ ok: true, payload: { id: 'ap-1', decision: 'allow-once' } });
    expect(events.map((event) => event.event)).toEqual(['exec.approval.requested', 'exec.approval.resolved']);
    expect(events[1]?.payload).toMatchObject({
      id: 'ap-1',
      decision: 'allow-once',
      resolvedBy: 'operator:Control UI(c1)',
    });
  });

  it('answers null at once when no approver is connected', async () => {
    approversOnline = false;
    expect(await call('exec.approval.request', { command: 'make deploy' })).toMatchObject({
      ok: true,
      payload: { decision: null },
    });
  });

  // Issue 17: `exec.approval.request` offered `rm -rf /` to a person with allow-once/allow-always.
  it.each(['rm -rf /', 'rm --r ~', "ssh host 'rm -rf /'"])(
    'denies %s on the floor before any request exists, approvers online or not',
    async (command) => {
      for (const online of [true, false]) {
        approversOnline = online;
        const answer = await call('exec.approval.request', { command });
        expect(answer).toMatchObject({ ok: true, payload: { id: '', decision: 'deny', resolvedBy: 'hard-floor' } });
        const payload = (answer as { payload: { reasons: { code: string }[] } }).payload;
        expect(payload.reasons.map((reason) => reason.code)).toContain('recursive-delete-root');
      }
      expect(events).toEqual([]);
      expect(await call('exec.approval.list', {})).toMatchObject({ ok: true, payload: [] });
    },
  );

  it('two resolvers: the first wins, the second gets APPROVAL_ALREADY_RESOLVED', async () => {
    const pending = call('exec.approval.request', { command: 'make deploy' });
    await Promise.resolve();
    const [first, second] = await Promise.all([
      call('exec.approval.resolve', { id: 'ap-1', decision: 'deny' }),
      call('exec.approval.resolve', { id: 'ap-1', decision: 'allow-always' }),
    ]);
    expect(first).toEqual({ ok: true, payload: { ok: true } });
    expect(second).toMatchObject({
      ok: false,
      error: { code: 'INVALID_REQUEST', details: { reason: 'APPROVAL_ALREADY_RESOLVED' } },
    });
    expect(await pending).toMatchObject({ payload: { decision: 'deny' } });
  });

  it('an unknown id is "unknown or expired approval id"', async () => {
    expect(await call('exec.approval.resolve', { id: 'nope', decision: 'deny' })).toEqual({
      ok: false,
      error: {
        code: 'INVALID_REQUEST',
        message: 'unknown or expired approval id',
        details: { reason: 'APPROVAL_NOT_FOUND', id: 'nope' },
      },
    });
    expect(await call('exec.approval.get', { id: 'nope' })).toMatchObject({
      ok: false,
      error: { details: { reason: 'APPROVAL_NOT_FOUND' } },
    });
  });

  it('get shows pending, then resolved with who decided', async () => {
    void call('exec.approval.request', { command: 'make deploy', cwd: '/srv' });
    await Promise.resolve();
    expect(await call('exec.approval.get', { id: 'ap-1' })).toMatchObject({
      payload: { status: 'pending', cwd: '/srv' },
    });
    await call('exec.approval.resolve', { id: 'ap-1', decision: 'deny', note: 'not today' });
    expect(await call('exec.approval.get', { id: 'ap-1' })).toMatchObject({
      payload: { status: 'resolved', resolution: { decision: 'deny', reason: 'not today' } },
    });
  });

  it('needs operator.approvals and checks params', async () => {
    expect(await call('exec.approval.list', {}, { scopes: ['operator.read'] })).toMatchObject({
      ok: false,
      error: { code: 'FORBIDDEN', details: { missingScope: 'operator.approvals' } },
    });
    expect(await call('exec.approval.resolve', { id: 'ap-1', decision: 'maybe' })).toMatchObject({
      ok: false,
      error: { code: 'INVALID_REQUEST', message: expect.stringContaining('decision') },
    });
  });
});

describe('exec tool and approvals, wired as the host wires them', () => {
  async function wire(config: ExecConfig, judge?: (prompt: string) => Promise<string>) {
    const paths = createHearthPaths(dir);
    const workspaceDir = paths.workspaceDir('main');
    await mkdir(workspaceDir, { recursive: true });
    const bus = new GatewayEventBus();
    lifetimes.add(bus.onDidPublish((event) => events.push(event)));
    const capability = await createExecCapability({
      paths,
      clock: systemClock,
      logger: silentLogger,
      events: bus,
      env: { PATH: '/usr/local/bin:/usr/bin:/bin', HOME: dir, SECRET_TOKEN: 'nope' },
      configFor: () => config,
      spawn,
      spawnPty: pty.spawn,
      hasWireApprovers: () => true,
      ...(judge ? { judge } : {}),
    });
    const wired = new MethodRegistry();
    lifetimes.add(
      registerExecMethods(wired, {
        approvals: capability.approvals,
        describe: capability.describe,
        defaultCwd: workspaceDir,
      }),
    );
    const toolContext = {
      agentId: 'main',
      sessionKey: 'agent:main:main',
      workspaceDir,
      signal: new AbortController().signal,
      log: silentLogger,
    };
    const nextRequest = async () => {
      for (let attempt = 0; attempt < 400; attempt++) {
        const found = events.find((event) => event.event === 'exec.approval.requested');
        if (found) {
          events.splice(events.indexOf(found), 1);
          return found.payload as { id: string; command: string };
        }
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
      throw new Error('no approval was requested');
    };
    const resolveOverWire = (id: string, decision: string) =>
      wired.dispatch(
        'exec.approval.resolve',
        { id, decision },
        {
          caller: caller(['operator.approvals']),
          requestId: 'r2',
          signal: new AbortController().signal,
          acknowledge() {},
        },
      );
    return { capability, workspaceDir, toolContext, nextRequest, resolveOverWire, paths };
  }

  it('a tool call waits for the Control UI, and allow-always stops the asking', async () => {
    const { capability, workspaceDir, toolContext, nextRequest, resolveOverWire, paths } = await wire(
      execConfigSchema.parse({}),
    );
    const first = capability.tool.execute({ command: 'touch one.txt' }, toolContext);
    const request = await nextRequest();
    expect(request.command).toBe('touch one.txt');
    expect(await resolveOverWire(request.id, 'allow-always')).toEqual({ ok: true, payload: { ok: true } });
    // Who allowed it is the result's first line, so the transcript keeps the decision.
    expect(await first).toEqual({
      output: '[approval: allow-always by operator:Control UI(c1)]\n[exit code 0]',
      isError: false,
    });
    expect(await capability.tool.execute({ command: 'touch two.txt' }, toolContext)).toEqual({
      output: '[exit code 0]',
      isError: false,
    });
    expect(events.some((event) => event.event === 'exec.approval.requested')).toBe(false);
    await readFile(join(workspaceDir, 'two.txt'));
    const history = await createApprovalHistory(approvalsHistoryPath(paths.stateDir)).read();
    expect(history).toEqual([
      expect.objectContaining({
        command: 'touch one.txt',
        decision: 'allow-always',
        resolvedBy: 'operator:Control UI(c1)',
      }),
    ]);
    capability.dispose();
  });

  it('a /approve chat command resolves a request too', async () => {
    const { capability, toolContext, nextRequest } = await wire(execConfigSchema.parse({}));
    const running = capability.tool.execute({ command: 'mkdir made' }, toolContext);
    const request = await nextRequest();
    const parsed = parseApproveCommand(`/approve ${request.id} deny`);
    if (!parsed?.ok) throw new Error('parse failed');
    capability.approvals.resolve(parsed.id, parsed.decision, 'chat:telegram');
    expect((await running).output).toMatch(/^\[approval: deny by chat:telegram\]\nNot run: denied \(chat:telegram\)/);
    capability.dispose();
  });

  it('smart approval: the judge triages misses, and never sees the hard floor', async () => {
    const prompts: string[] = [];
    const { capability, toolContext } = await wire(
      execConfigSchema.parse({ approvals: { mode: 'smart' } }),
      async (prompt) => {
        prompts.push(prompt);
        return 'APPROVE';
      },
    );
    expect((await capability.tool.execute({ command: 'rm -rf ~' }, toolContext)).output).toContain(
      'recursive-delete-root',
    );
    expect(prompts).toEqual([]);
    expect(await capability.tool.execute({ command: 'touch judged.txt' }, toolContext)).toEqual({
      output: '[approval: allow-once by smart-judge]\n[exit code 0]',
      isError: false,
    });
    expect(prompts).toHaveLength(1);
    capability.dispose();
  });
});
