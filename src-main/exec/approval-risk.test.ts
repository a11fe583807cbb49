import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { silentLogger } from '../base/logger.js';
import { createFakeClock } from '../testing/fake-clock.js';
import { allowAlwaysEntries } from './allow-always.js';
import { summariseAnalysis } from './analysis-types.js';
import { approvalsHistoryPath, createApprovalHistory } from './approval-history.js';
import { ApprovalService } from './approval-service.js';
import type { ApprovalInput } from './approval-types.js';
import { type BashParser, loadBashParser } from './bash-parser.js';
import { analyseCommand } from './command-analysis.js';
import { createCommandScreen } from './command-screen.js';
import { execPolicySchema } from './exec-policy.js';
import { createPathResolver } from './path-resolver.js';
import { PermissionStore } from './permission-store.js';

const cwd = '/work/project';
const resolver = createPathResolver({ path: '/usr/bin', isExecutable: () => true });
const policy = execPolicySchema.parse({ allowlist: [] });
let parser: BashParser;
let dir: string;
let service: ApprovalService;
let permissions: PermissionStore;
let published: { event: string; payload: Record<string, unknown> }[];
let ids = 0;

beforeAll(async () => {
  parser = await loadBashParser();
});
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'hearth-approval-risk-'));
  const clock = createFakeClock();
  permissions = await PermissionStore.open(dir, clock);
  published = [];
  service = new ApprovalService({
    clock,
    events: {
      publish: (event, payload) => published.push({ event, payload: payload as unknown as Record<string, unknown> }),
    },
    history: createApprovalHistory(approvalsHistoryPath(dir)),
    logger: silentLogger,
    hasWireApprovers: () => true,
    newId: () => `ap-${++ids}`,
    screen: createCommandScreen(parser, { home: '/home/me' }),
    permissions,
    home: '/home/me',
  });
});
afterEach(async () => {
  service.dispose();
  await service.flushHistory();
  await permissions.flush();
  await rm(dir, { recursive: true, force: true, maxRetries: 5, retryDelay: 50 });
});

/** The request the exec host builds for a command that missed the (empty) allowlist. */
function execInput(command: string): ApprovalInput {
  const analysis = analyseCommand(parser, command, { cwd, home: '/home/me' });
  const where = { resolver, cwd, home: '/home/me' };
  return {
    agentId: 'main',
    sessionKey: 'agent:main:main',
    command,
    analysis: summariseAnalysis(analysis),
    reasons: [{ code: 'allowlist-miss', detail: 'not on the allowlist' }],
    cwd,
    askFallback: 'deny',
    allowlistSatisfied: false,
    allowAlways: allowAlwaysEntries(analysis, policy, where),
    allowAlwaysExact: allowAlwaysEntries(analysis, policy, where, 'exact'),
  };
}

describe('risk-graded approvals', () => {
  it('publishes the grade with the request: a safe command keeps "always" for the whole binary', () => {
    void service.request(execInput('make test'));
    const request = service.list()[0]!;
    expect(request.risk?.level).toBe('safe');
    expect(request.alwaysScopes).toEqual(['binary', 'exact']);
    expect(published[0]!.payload.risk).toMatchObject({ level: 'safe' });
  });

  it('offers "always" for a destructive command only for these exact arguments', () => {
    void service.request(execInput('rm -rf build'));
    const request = service.list()[0]!;
    expect(request.risk).toMatchObject({ level: 'destructive', writes: ['build'] });
    expect(request.alwaysScopes).toEqual(['exact']);
    expect(request.allowAlways).toEqual([{ pattern: '/usr/bin/rm', argPattern: '^-rf build$' }]);
  });

  it('refuses an "always" for a destructive command that would allow the whole binary, with a clear error', async () => {
    const pending = service.request(execInput('git push --force origin main'));
    const { id } = service.list()[0]!;
    expect(() => service.resolve(id, 'allow-always', 'operator:ui', undefined, 'binary')).toThrow(
      /would allow every use of git.*destructive.*allowAlwaysScope "exact"/,
    );
    // Nothing was decided or saved: the request still waits, and the narrow answer works.
    expect(service.list().map((r) => r.id)).toEqual([id]);
    expect(permissions.list()).toEqual([]);
    service.resolve(id, 'allow-always', 'operator:ui');
    await expect(pending).resolves.toMatchObject({ decision: 'allow-always', allowAlwaysScope: 'exact' });
    expect(permissions.list().map(({ scope, pattern, argPattern }) => ({ scope, pattern, argPattern }))).toEqual([
      { scope: 'exact', pattern: '/usr/bin/git', argPattern: '^push --force origin main$' },
    ]);
  });

  it('drops "always" from a destructive command whose arguments cannot be pinned', () => {
    void service.request(execInput('rm -rf "$TARGET"'));
    const request = service.list()[0]!;
    expect(request.risk?.level).toBe('destructive');
    expect(request.allowedDecisions).toEqual(['allow-once', 'deny']);
  });
});
