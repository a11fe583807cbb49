import { appendFile, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { silentLogger } from '../base/logger.js';
import { createFakeClock, type FakeClock } from '../testing/fake-clock.js';
import { type ApprovalHistory, approvalsHistoryPath, createApprovalHistory } from './approval-history.js';
import { ApprovalService } from './approval-service.js';
import type { ApprovalDecision, ApprovalInput, ApprovalPrompter, ApprovalRequest } from './approval-types.js';
import { answerApproveCommand, parseApproveCommand } from './approve-command.js';
import { type BashParser, loadBashParser } from './bash-parser.js';
import { createCommandScreen } from './command-screen.js';

let dir: string;
let clock: FakeClock;
let history: ApprovalHistory;
let published: { event: string; payload: object }[];
let service: ApprovalService;
let ids: number;
let parser: BashParser;
let screen: ReturnType<typeof createCommandScreen>;
beforeAll(async () => {
  parser = await loadBashParser();
  screen = createCommandScreen(parser, { home: '/home/me' });
});

const input = (overrides: Partial<ApprovalInput> = {}): ApprovalInput => ({
  agentId: 'main',
  sessionKey: 'agent:main:main',
  command: 'curl https://example.com',
  analysis: {
    commands: [{ name: 'curl', args: ['https://example.com'], via: [], source: 'curl https://example.com' }],
    findings: [],
    parseError: false,
  },
  reasons: [{ code: 'allowlist-miss', detail: 'curl is not on the allowlist' }],
  cwd: '/work',
  askFallback: 'deny',
  allowlistSatisfied: false,
  ...overrides,
});

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'hearth-approvals-'));
  clock = createFakeClock();
  history = createApprovalHistory(approvalsHistoryPath(dir));
  published = [];
  ids = 0;
  service = new ApprovalService({
    clock,
    events: { publish: (event, payload) => published.push({ event, payload }) },
    history,
    logger: silentLogger,
    hasWireApprovers: () => true,
    newId: () => `ap-${++ids}`,
    screen,
  });
});
afterEach(async () => {
  service.dispose();
  await history.read();
  await rm(dir, { recursive: true, force: true, maxRetries: 5, retryDelay: 50 });
});

describe('ApprovalService', () => {
  it('publishes the request with everything an approver needs, then resolves on the first answer', async () => {
    const pending = service.request(input());
    const [requested] = published;
    expect(requested?.event).toBe('exec.approval.requested');
    expect(requested?.payload).toMatchObject({
      id: 'ap-1',
      agentId: 'main',
      sessionKey: 'agent:main:main',
      command: 'curl https://example.com',
      cwd: '/work',
      createdAtMs: clock.now(),
      expiresAtMs: clock.now() + 30 * 60_000,
      allowedDecisions: ['allow-once', 'allow-always', 'deny'],
      request: { command: 'curl https://example.com', cwd: '/work' },
    });
    expect(service.list().map((request) => request.id)).toEqual(['ap-1']);
    service.resolve('ap-1', 'allow-once', 'operator:ui');
    await expect(pending).resolves.toMatchObject({ decision: 'allow-once', resolvedBy: 'operator:ui' });
    expect(published.at(-1)).toMatchObject({
      event: 'exec.approval.resolved',
      payload: { id: 'ap-1', decision: 'allow-once', resolvedBy: 'operator:ui' },
    });
    expect(service.list()).toEqual([]);
  });

  it('lets the first of two resolvers win and tells the second it was already resolved', async () => {
    const pending = service.request(input());
    service.resolve('ap-1', 'deny', 'chat:telegram');
    let error: unknown;
    try {
      service.resolve('ap-1', 'allow-once', 'operator:ui');
    } catch (caught) {
      error = caught;
    }
    expect(error).toMatchObject({ code: 'INVALID_REQUEST', details: { reason: 'APPROVAL_ALREADY_RESOLVED' } });
    await expect(pending).resolves.toMatchObject({ decision: 'deny', resolvedBy: 'chat:telegram' });
  });

  it('rejects an unknown id with APPROVAL_NOT_FOUND', () => {
    expect(() => service.resolve('nope', 'deny', 'operator:ui')).toThrow('unknown or expired approval id');
    try {
      service.resolve('nope', 'deny', 'operator:ui');
    } catch (error) {
      expect(error).toMatchObject({ details: { reason: 'APPROVAL_NOT_FOUND' } });
    }
  });

  it('offers the request to every prompter; the first answer wins and the rest are cancelled', async () => {
    const cancelled: string[] = [];
    const prompter = (name: string, answer?: Promise<ApprovalDecision | undefined>): ApprovalPrompter => ({
      name,
      prompt(_request: ApprovalRequest, signal: AbortSignal) {
        signal.addEventListener('abort', () => cancelled.push(name));
        return answer ?? new Promise(() => {});
      },
    });
    let answerDesktop: (decision: ApprovalDecision) => void = () => {};
    service.registerPrompter(prompter('desktop', new Promise((resolve) => (answerDesktop = resolve))));
    service.registerPrompter(prompter('other'));
    const pending = service.request(input());
    answerDesktop('allow-always');
    await expect(pending).resolves.toMatchObject({ decision: 'allow-always', resolvedBy: 'prompter:desktop' });
    expect(cancelled.sort()).toEqual(['desktop', 'other']);
  });

  it('expires after 30 minutes into askFallback', async () => {
    const denied = service.request(input({ askFallback: 'deny' }));
    const allowed = service.request(input({ askFallback: 'full' }));
    const listed = service.request(input({ askFallback: 'allowlist', allowlistSatisfied: true }));
    clock.advance(30 * 60_000 - 1);
    expect(service.list()).toHaveLength(3);
    clock.advance(1);
    await expect(denied).resolves.toMatchObject({ decision: 'deny', resolvedBy: 'expiry' });
    await expect(allowed).resolves.toMatchObject({ decision: 'allow-once', resolvedBy: 'expiry' });
    await expect(listed).resolves.toMatchObject({ decision: 'allow-once', resolvedBy: 'expiry' });
    expect(() => service.resolve('ap-1', 'allow-once', 'operator:ui')).toThrow('unknown or expired approval id');
  });

  it('applies askFallback at once when nobody can answer (cron)', async () => {
    const lonely = new ApprovalService({
      clock,
      events: { publish: (event, payload) => published.push({ event, payload }) },
      history,
      logger: silentLogger,
      screen,
    });
    await expect(lonely.request(input())).resolves.toMatchObject({ decision: 'deny', resolvedBy: 'no-approver' });
    expect(published).toEqual([]);
  });

  it('releases the prompters still registered when it is disposed, as an emitter releases its listeners', async () => {
    const lonely = new ApprovalService({
      clock,
      events: { publish: (event, payload) => published.push({ event, payload }) },
      history,
      logger: silentLogger,
      screen,
    });
    lonely.registerPrompter({ name: 'desktop', prompt: async () => undefined });
    expect(lonely.hasApprovers()).toBe(true);
    lonely.dispose();
    expect(lonely.hasApprovers()).toBe(false);
  });

  it('denies when the run is cancelled', async () => {
    const controller = new AbortController();
    const pending = service.request(input(), controller.signal);
    controller.abort();
    await expect(pending).resolves.toMatchObject({ decision: 'deny', resolvedBy: 'cancelled' });
  });

  it('records every decision with who decided, when and why', async () => {
    const first = service.request(input());
    service.resolve('ap-1', 'allow-once', 'operator:ui', 'looks fine');
    await first;
    const second = service.request(input({ command: 'rm build' }));
    clock.advance(30 * 60_000);
    await second;
    const entries = await history.read();
    expect(entries).toHaveLength(2);
    expect(entries[0]).toMatchObject({
      id: 'ap-1',
      command: 'curl https://example.com',
      decision: 'allow-once',
      resolvedBy: 'operator:ui',
      reason: 'looks fine',
      programs: [{ name: 'curl', args: ['https://example.com'] }],
    });
    expect(entries[1]).toMatchObject({ id: 'ap-2', decision: 'deny', resolvedBy: 'expiry' });
    expect(entries[1]?.decidedAtMs).toBe((entries[1]?.requestedAtMs ?? 0) + 30 * 60_000);
  });

  it('skips a torn line of the history, and refuses a line that is not a decision, naming the file, line and field', async () => {
    // Its own file: the shared one is read again after each test.
    const file = join(dir, 'hand-edited-history.jsonl');
    const edited = createApprovalHistory(file);
    const entry = {
      id: 'ap-9',
      agentId: 'main',
      sessionKey: 'agent:main:main',
      command: 'ls',
      programs: [{ name: 'ls', args: [] }],
      decision: 'allow-once' as const,
      resolvedBy: 'operator:ui',
      requestedAtMs: 1,
      decidedAtMs: 2,
    };
    await edited.append(entry);
    await edited.append({ ...entry, id: 'ap-11' });
    await appendFile(file, '{"id": "ap-10", "agentId');
    expect((await edited.read()).map((e) => e.id)).toEqual(['ap-9', 'ap-11']);
    await appendFile(file, `\n${JSON.stringify({ ...entry, id: 'ap-12', decision: 'maybe' })}\n`);
    const text = await readFile(file, 'utf8');
    await expect(edited.read()).rejects.toThrow(
      /approvals history .*hand-edited-history\.jsonl cannot be read \(line 4, decision: .*left as it is/,
    );
    expect(await readFile(file, 'utf8')).toBe(text);
  });

  it('refuses a decision the request does not allow', () => {
    void service.request(input({ allowedDecisions: ['allow-once', 'deny'] }));
    expect(() => service.resolve('ap-1', 'allow-always', 'operator:ui')).toThrow(/not allowed/);
  });
});

describe('/approve chat command', () => {
  it.each([
    ['/approve ap-1 allow-once', { ok: true, id: 'ap-1', decision: 'allow-once' }],
    ['  /approve ap-1 ALLOW-ALWAYS ', { ok: true, id: 'ap-1', decision: 'allow-always' }],
    ['/approve ap-1 deny', { ok: true, id: 'ap-1', decision: 'deny' }],
    ['/approve', { ok: false, error: expect.stringMatching(/missing approval id/) }],
    ['/approve ap-1', { ok: false, error: expect.stringMatching(/missing decision/) }],
    ['/approve ap-1 yes', { ok: false, error: expect.stringMatching(/unknown decision "yes"/) }],
    ['/approve ap-1 deny now', { ok: false, error: expect.stringMatching(/unexpected text/) }],
  ])('%s', (text, expected) => {
    expect(parseApproveCommand(text)).toEqual(expected);
  });

  it('ignores text that is not an /approve command', () => {
    expect(parseApproveCommand('please approve this')).toBeUndefined();
    expect(parseApproveCommand('/approved')).toBeUndefined();
  });
});

// Issue 17: one floor on every path. The service screens the command itself, so no caller
// (tool, wire, terminal, cron, channel, MCP) can create an approval for a floor command.
describe('the approval service refuses the hard floor itself', () => {
  it.each(['rm -rf /', 'cat <<EOF | sh\nrm -rf ~\nEOF', 'dd if=/dev/zero of=/dev/sda'])(
    'no request exists for %s, whatever the caller says about it',
    async (command) => {
      // The caller claims the command is harmless: the service does not take its word.
      const answer = await service.request(input({ command, reasons: [], askFallback: 'full' }));
      expect(answer).toMatchObject({ id: '', decision: 'deny', resolvedBy: 'hard-floor' });
      expect(answer.floor?.length).toBeGreaterThan(0);
      expect(published).toEqual([]);
      expect(service.list()).toEqual([]);
      expect((await history.read())[0]).toMatchObject({ decision: 'deny', resolvedBy: 'hard-floor', command });
    },
  );

  it('a prompter is never offered a floor command', async () => {
    const offered: string[] = [];
    service.registerPrompter({
      name: 'desktop',
      prompt: async (request) => {
        offered.push(request.command);
        return 'allow-once';
      },
    });
    await expect(service.request(input({ command: 'sudo rm -rf --no-preserve-root /' }))).resolves.toMatchObject({
      decision: 'deny',
    });
    expect(offered).toEqual([]);
  });

  it('person-only findings: shown with their code, no allow-always, and no fallback allows them', async () => {
    const pending = service.request(input({ command: 'cat ~/.ssh/id_rsa', askFallback: 'full' }));
    const [requested] = published;
    const payload = requested?.payload as { reasons: { code: string }[]; allowedDecisions: string[] };
    expect(payload.reasons.map((reason) => reason.code)).toContain('sensitive-read');
    expect(payload.allowedDecisions).toEqual(['allow-once', 'deny']);
    expect(() => service.resolve('ap-1', 'allow-always', 'operator:ui')).toThrow('not allowed');
    clock.advance(30 * 60_000);
    await expect(pending).resolves.toMatchObject({ decision: 'deny', resolvedBy: 'expiry' });
  });

  it('/approve <id> allow-session from chat remembers the call for that session only', async () => {
    const first = service.request(input());
    expect(
      answerApproveCommand('/approve ap-1 allow-session', { clientId: 'tg', mayResolveApprovals: true }, service),
    ).toMatchObject({ ok: true, reply: 'allow-session for approval ap-1' });
    await expect(first).resolves.toMatchObject({ decision: 'allow-once', remember: 'session', resolvedBy: 'chat:tg' });
    const before = published.length;
    await expect(service.request(input())).resolves.toMatchObject({ decision: 'allow-once', resolvedBy: 'session' });
    expect(published).toHaveLength(before);
    void service.request(input({ sessionKey: 'agent:main:other' }));
    expect(published.at(-1)?.event).toBe('exec.approval.requested');
  });

  it('an identical request joins the pending one; cancelling one caller leaves the other waiting', async () => {
    const controller = new AbortController();
    const cancelled = service.request(input(), controller.signal);
    const kept = service.request(input());
    expect(service.list()).toEqual([expect.objectContaining({ id: 'ap-1', waiting: 2 })]);
    controller.abort();
    await expect(cancelled).resolves.toMatchObject({ decision: 'deny', resolvedBy: 'cancelled' });
    expect(service.list()).toHaveLength(1);
    service.resolve('ap-1', 'allow-once', 'operator:ui');
    await expect(kept).resolves.toMatchObject({ id: 'ap-1', decision: 'allow-once' });
    expect(published.filter((p) => p.event === 'exec.approval.requested')).toHaveLength(1);
  });
});
