import { afterEach, describe, expect, it } from 'vitest';
import { GatewayError } from '../../src-main/protocol/errors.js';
import { startTestApp, type TestApp } from '../testing/render-app.js';
import { highlightRuns } from './memory-store.js';
import { groupSessions, parseSessionKey, toSessionRow } from './sessions-store.js';

let app: TestApp;
afterEach(() => app?.dispose());
const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

// Hearth's exec.approval.requested payload (exec/approval-service.ts): its fields plus PROTOCOL.md's `request`.
const approvalRequest = {
  id: 'ap1',
  agentId: 'main',
  sessionKey: 'agent:main:main',
  command: 'rm -rf ./build',
  cwd: '/home/me/project',
  analysis: { commands: 1 },
  reasons: [{ code: 'allowlist-miss', detail: 'deletes files recursively' }],
  allowedDecisions: ['allow-once', 'allow-always', 'deny'],
  allowAlways: [{ pattern: '/usr/bin/rm', argPattern: '^-rf ./build$' }],
  createdAtMs: 1_700_000_000_000,
  expiresAtMs: 1_700_000_120_000,
  request: {
    command: 'rm -rf ./build',
    cwd: '/home/me/project',
    host: 'gateway',
    allowedDecisions: ['allow-once', 'allow-always', 'deny'],
  },
};

describe('approvals store', () => {
  it('loads the queue on connect, adds requests as they arrive, and moves resolved ones to history', async () => {
    app = startTestApp({
      'exec.approval.list': () => [approvalRequest],
      'exec.approval.resolve': () => ({ ok: true }),
    });
    await app.client.waitForConnected();
    await settle();
    expect(app.stores.approvals.getState().pending).toMatchObject([
      {
        id: 'ap1',
        command: 'rm -rf ./build',
        reasons: [{ code: 'allowlist-miss', detail: 'deletes files recursively' }],
        allowAlwaysEntry: '/usr/bin/rm ^-rf ./build$',
      },
    ]);
    // A PROTOCOL.md-only shape still works; "always" then names the binary.
    app.gateway.emit('exec.approval.requested', {
      id: 'ap2',
      request: { command: 'curl x | sh' },
      createdAtMs: 0,
      expiresAtMs: 0,
    });
    expect(app.stores.approvals.getState().pending.map((p) => p.id)).toEqual(['ap1', 'ap2']);
    expect(app.stores.approvals.getState().pending[1]!.allowAlwaysEntry).toBe('curl');

    await app.stores.approvals.getState().resolve('ap1', 'allow-once');
    expect(app.gateway.calls('exec.approval.resolve')).toEqual([{ id: 'ap1', decision: 'allow-once' }]);
    app.gateway.emit('exec.approval.resolved', {
      id: 'ap1',
      decision: 'allow-once',
      resolvedBy: 'smart-triage',
      ts: 5,
    });
    const state = app.stores.approvals.getState();
    expect(state.pending.map((p) => p.id)).toEqual(['ap2']);
    expect(state.history[0]).toMatchObject({
      command: 'rm -rf ./build',
      decision: 'allow-once',
      resolvedBy: 'smart-triage',
    });
  });

  it('keeps the gateway reason when a resolve is refused', async () => {
    app = startTestApp({
      'exec.approval.list': () => [approvalRequest],
      'exec.approval.resolve': () => {
        throw new GatewayError('INVALID_REQUEST', 'unknown or expired approval id', { reason: 'APPROVAL_NOT_FOUND' });
      },
    });
    await app.client.waitForConnected();
    await settle();
    await app.stores.approvals.getState().resolve('ap1', 'deny');
    expect(app.stores.approvals.getState().error).toBe('unknown or expired approval id');
  });
});

describe('auth store', () => {
  it('reads profile health (cooldown remaining becomes a clock time) and sums failures', async () => {
    app = startTestApp(
      {
        'auth.profiles.list': () => ({
          secretBackend: 'file',
          secretWarning: 'No keychain: secrets are in an encrypted file.',
          profiles: [
            {
              id: 'openai:work',
              provider: 'openai',
              type: 'api_key',
              label: 'Work',
              fromConfig: false,
              status: 'cooldown',
              cooldownRemainingMs: 90_000,
              lastErrorReason: 'rate_limit',
              failureCounts: { rate_limit: 2, timeout: 1 },
            },
            {
              id: 'anthropic:b',
              provider: 'anthropic',
              type: 'api_key',
              fromConfig: false,
              status: 'missing_secret',
              cooldownRemainingMs: 0,
              failureCounts: {},
            },
          ],
        }),
      },
      { now: () => 1_000 },
    );
    await app.client.waitForConnected();
    await settle();
    const { profiles, secretWarning } = app.stores.auth.getState();
    expect(secretWarning).toBe('No keychain: secrets are in an encrypted file.');
    expect(profiles[0]).toMatchObject({
      status: 'cooldown',
      cooldownUntil: 91_000,
      // The wire's reason code, in words.
      reason: 'Rate limited by the provider (HTTP 429).',
      failureCount: 3,
    });
    expect(profiles[1]).toMatchObject({ status: 'disabled', reason: 'The secret is not in the keychain.' });
    expect(profiles[1]!.fix).toMatch(/add the profile again/);
  });

  it('adds an API key profile under an id made from provider and name, refusing an empty key', async () => {
    app = startTestApp({ 'auth.profiles.set': () => ({ profile: {} }) });
    await app.client.waitForConnected();
    await settle();
    expect(await app.stores.auth.getState().add({ provider: 'openai', label: '', apiKey: '  ' })).toBe(false);
    expect(app.stores.auth.getState().error).toBe('The API key is empty.');
    expect(app.gateway.calls('auth.profiles.set')).toHaveLength(0);
    expect(await app.stores.auth.getState().add({ provider: 'openai', label: 'My Work Key', apiKey: ' sk-1 ' })).toBe(
      true,
    );
    expect(app.gateway.calls('auth.profiles.set')).toEqual([
      { id: 'openai:my-work-key', provider: 'openai', type: 'api_key', secret: 'sk-1', label: 'My Work Key' },
    ]);
  });
});

describe('sessions', () => {
  it('derives agent and channel from the key and groups, newest first, filtered by search', () => {
    expect(parseSessionKey('agent:work:telegram:dm:42')).toEqual({ agentId: 'work', channel: 'telegram' });
    expect(parseSessionKey('agent:main:main')).toEqual({ agentId: 'main', channel: 'direct' });
    const wire = (key: string, displayName: string, updatedAt: number) => ({
      key,
      kind: 'direct' as const,
      agentId: 'main',
      sessionId: `s-${updatedAt}`,
      displayName,
      createdAt: 0,
      updatedAt,
    });
    const rows = [
      toSessionRow(wire('agent:main:main', 'Main', 1)),
      toSessionRow(wire('agent:main:telegram:dm:1', 'Alice', 3)),
      toSessionRow({ ...wire('agent:main:telegram:dm:2', 'agent:main:telegram:dm:2', 5), title: 'Bob' }),
    ];
    const groups = groupSessions(rows, '');
    expect(groups.map((g) => `${g.agentId}/${g.channel}`)).toEqual(['main/direct', 'main/telegram']);
    expect(groups[1]!.rows.map((r) => r.title)).toEqual(['Bob', 'Alice']);
    expect(groupSessions(rows, 'ali').flatMap((g) => g.rows.map((r) => r.title))).toEqual(['Alice']);
  });
});

describe('memory search highlighting', () => {
  it('marks each query word, case-insensitively, and treats regex characters literally', () => {
    expect(highlightRuns('The Blue heron nests', 'blue nests')).toEqual([
      { text: 'The ', hit: false },
      { text: 'Blue', hit: true },
      { text: ' heron ', hit: false },
      { text: 'nests', hit: true },
    ]);
    expect(highlightRuns('cost (usd) is 5', '(usd)')).toEqual([
      { text: 'cost ', hit: false },
      { text: '(usd)', hit: true },
      { text: ' is 5', hit: false },
    ]);
  });
});

describe('config store', () => {
  it('shows schema errors from config.set inline and refuses text that is not JSON without calling the gateway', async () => {
    app = startTestApp({
      'config.set': () => {
        throw new GatewayError('INVALID_REQUEST', 'invalid config', {
          reason: 'invalid-config',
          errors: [{ path: 'gateway.port', message: 'expected number, received string' }],
        });
      },
    });
    await app.client.waitForConnected();
    await settle();
    expect(await app.stores.config.getState().save('{ nope')).toBe(false);
    expect(app.stores.config.getState().issues[0]!.message).toMatch(/^not valid JSON/);
    expect(app.gateway.calls('config.set')).toHaveLength(0);
    expect(await app.stores.config.getState().save('{"gateway":{"port":"x"}}')).toBe(false);
    expect(app.stores.config.getState().issues).toEqual([
      { path: 'gateway.port', message: 'expected number, received string' },
    ]);
    expect(app.gateway.calls('config.set')).toEqual([{ raw: '{"gateway":{"port":"x"}}', baseHash: 'h0' }]);
  });
});

describe('memory store', () => {
  it("lists daily notes newest first and gathers today's notes as what was captured today", async () => {
    const today = new Date(2026, 10, 30, 15, 0).getTime();
    app = startTestApp(
      {
        'memory.files.list': () => ({
          files: [
            { path: 'MEMORY.md', size: 1, mtimeMs: 0, kind: 'static' },
            { path: 'memory/2026-11-29.md', size: 1, mtimeMs: 0, kind: 'daily', date: '2026-11-29' },
            { path: 'memory/2026-11-30.md', size: 1, mtimeMs: 0, kind: 'daily', date: '2026-11-30' },
            { path: 'memory/2026-11-30-trip.md', size: 1, mtimeMs: 0, kind: 'daily', date: '2026-11-30' },
          ],
        }),
        'memory.file.get': (p) => ({ path: p.path, content: `content of ${String(p.path)}` }),
      },
      { now: () => today },
    );
    await app.client.waitForConnected();
    await app.stores.memory.getState().refresh();
    const state = app.stores.memory.getState();
    expect(state.daily.map((d) => d.date)).toEqual(['2026-11-30', '2026-11-30', '2026-11-29']);
    expect(state.today?.content).toBe('content of memory/2026-11-30.md\n\n---\n\ncontent of memory/2026-11-30-trip.md');
    expect(state.docs['MEMORY.md']).toBe('content of MEMORY.md');
  });

  it('with per-user memory shows the owner’s own memory and Dreaming, never someone else’s notes', async () => {
    app = startTestApp(
      {
        'memory.status': () => ({ scope: 'per-user', embedder: { id: 'hashed-v2', dimension: 256 } }),
        'memory.files.list': () => ({
          files: [
            { path: 'MEMORY.md', size: 1, mtimeMs: 0, kind: 'static' },
            { path: 'users/owner/memory/2026-11-29.md', size: 1, mtimeMs: 0, kind: 'daily', date: '2026-11-29' },
            { path: 'users/alice/memory/2026-11-29.md', size: 1, mtimeMs: 0, kind: 'daily', date: '2026-11-29' },
          ],
        }),
        'memory.search': () => ({ results: [] }),
        'dreams.run': () => ({ applied: false, candidates: [], promoted: [] }),
      },
      { now: () => new Date(2026, 10, 30, 15, 0).getTime() },
    );
    await app.client.waitForConnected();
    await app.stores.memory.getState().refresh();
    expect(app.stores.memory.getState().daily.map((d) => d.path)).toEqual(['users/owner/memory/2026-11-29.md']);
    app.stores.memory.getState().setQuery('tea');
    await app.stores.memory.getState().search();
    expect(app.gateway.calls('memory.search').at(-1)).toEqual({
      userId: 'owner',
      agentId: 'main',
      query: 'tea',
      k: 20,
    });

    await app.stores.dreams.getState().refresh();
    expect(app.gateway.calls('dreams.status').at(-1)).toEqual({ userId: 'owner', agentId: 'main' });
    expect(app.gateway.calls('memory.file.get').map((p) => p.path)).toContain('users/owner/DREAMS.md');
    await app.stores.dreams.getState().run('preview');
    expect(app.gateway.calls('dreams.run').at(-1)).toEqual({ userId: 'owner', agentId: 'main', apply: false });
  });
});
