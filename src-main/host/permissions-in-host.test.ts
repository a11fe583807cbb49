import { mkdtemp, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PermissionsListResult } from '../protocol/methods/permissions.js';
import { isChatEnd } from '../testing/chat-turn.js';
import { createFakeClock } from '../testing/fake-clock.js';
import { type FakeLlmServer, startFakeLlmServer } from '../testing/fake-llm/index.js';
import { fixtureMcpServerCommand } from '../testing/mcp-fixture-server.js';
import { fakeOpenAiConfig } from '../testing/product-fixture.js';
import { type AnyFrame, connectRaw, type RawGatewaySocket } from '../testing/raw-gateway-socket.js';
import { createTempHome } from '../testing/temp-home.js';
import { startTestHost, type TestHost } from '../testing/test-host.js';

// One approval system for every tool, in the composed host: exec commands, MCP tools and file
// tools outside the workspace ask through the same queue; "for this session" and "always" (per
// tool, server or exact arguments, optionally until a date) are remembered by the service, listed
// by permissions.list and revoked by permissions.revoke. A fake clock drives expiry.

const day = 24 * 3_600_000;
const clock = createFakeClock(Date.UTC(2026, 11, 2, 12, 0));
let llm: FakeLlmServer;
let temp: { home: string; cleanup(): Promise<void> };
let outside: string;
let host: TestHost;
let socket: RawGatewaySocket;

async function startHost(): Promise<void> {
  host = await startTestHost({ home: temp.home, clock, env: { HEARTH_SECRET_STORE: 'file' } });
  ({ socket } = await connectRaw(host.wsUrl, { token: host.token, scopes: ['operator.admin'] }));
}

beforeAll(async () => {
  llm = await startFakeLlmServer();
  temp = await createTempHome();
  outside = await realpath(await mkdtemp(join(tmpdir(), 'hearth-outside-')));
  await writeFile(join(outside, 'notes.txt'), 'outside notes');
  await writeFile(
    join(temp.home, 'hearth.json'),
    JSON.stringify({
      ...fakeOpenAiConfig(llm),
      // Nothing else wakes up while the clock jumps days ahead.
      heartbeat: { enabled: false },
      mcp: { servers: { fixture: { ...fixtureMcpServerCommand(), connectTimeoutMs: 30_000 } } },
      agents: {
        defaults: { model: 'openai/gpt-4o' },
        list: [{ id: 'main', default: true, mcp: { servers: ['fixture'] } }],
      },
      tools: { profile: 'full' },
    }),
  );
  await startHost();
  await writeFile(join(host.paths.workspaceDir('main'), 'a.txt'), 'alpha');
  await writeFile(join(host.paths.workspaceDir('main'), 'b.txt'), 'beta');
  await socket.request('auth.profiles.set', { id: 'openai-main', provider: 'openai', type: 'api_key', secret: 'sk-t' });
});
afterAll(async () => {
  socket?.close();
  await host?.close();
  await llm?.close();
  await temp?.cleanup();
  await rm(outside, { recursive: true, force: true });
});

let turns = 0;

/**
 * One turn in which the model calls `tool` once. If the call asks, `answer` resolves it (a test
 * that expects no question passes none, and a question then fails the test). Returns the request
 * that was asked (or undefined) and the tool result the model got back.
 */
async function call(
  sessionKey: string,
  tool: string,
  input: Record<string, unknown>,
  answer?: Record<string, unknown>,
): Promise<{ asked?: Record<string, unknown>; result: string }> {
  const key = `turn-${++turns}`;
  llm.script([
    { type: 'tool_calls', calls: [{ name: tool, input }] },
    { type: 'text', text: 'done' },
  ]);
  const mark = socket.frames.length;
  const after = (frame: AnyFrame) => socket.frames.indexOf(frame) >= mark;
  await socket.request('chat.send', { sessionKey, message: `use ${tool}`, idempotencyKey: key });
  const first = await socket.next(
    (frame) => after(frame) && (frame.event === 'exec.approval.requested' || isChatEnd(frame, key)),
    30_000,
  );
  let asked: Record<string, unknown> | undefined;
  if (first.event === 'exec.approval.requested') {
    asked = first.payload as Record<string, unknown>;
    if (!answer) throw new Error(`${tool} asked, and the test expected it not to: ${String(asked.command)}`);
    const resolved = await socket.request('exec.approval.resolve', { id: asked.id, ...answer });
    expect(resolved.error).toBeUndefined();
    await socket.next((frame) => after(frame) && isChatEnd(frame, key), 30_000);
  }
  const messages = (llm.requests.at(-1)?.body.messages ?? []) as { role: string; content: unknown }[];
  const result = String(messages.filter((message) => message.role === 'tool').at(-1)?.content ?? '');
  return { ...(asked ? { asked } : {}), result };
}

async function permissions(): Promise<PermissionsListResult> {
  const listed = await socket.request('permissions.list', {});
  expect(listed.error).toBeUndefined();
  return listed.payload as PermissionsListResult;
}

describe('one approval system for every tool', { timeout: 120_000 }, () => {
  it('"allow for this session": the same command runs without asking in that session, and asks in another', async () => {
    const first = await call('main', 'exec', { command: 'cksum a.txt' }, { decision: 'allow-session' });
    expect(first.asked).toMatchObject({ allowSession: true, allowedDecisions: ['allow-once', 'allow-always', 'deny'] });
    expect(first.result).toMatch(/a\.txt/);
    // The same call in the same session: no question.
    expect((await call('main', 'exec', { command: 'cksum a.txt' })).result).toMatch(/a\.txt/);
    // Another session asks again.
    const other = await call('agent:main:other', 'exec', { command: 'cksum a.txt' }, { decision: 'deny' });
    expect(other.asked).toMatchObject({ command: 'cksum a.txt' });
    expect(other.result).toMatch(/denied/);

    const { session } = await permissions();
    const grant = session.find((candidate) => candidate.args === 'cksum a.txt');
    expect(grant).toMatchObject({ kind: 'exec', tool: 'exec', origin: expect.stringMatching(/^operator:/) });
    // Revoked, it asks again in the session that had it.
    expect((await socket.request('permissions.revoke', { id: grant?.id })).error).toBeUndefined();
    expect((await call('main', 'exec', { command: 'cksum a.txt' }, { decision: 'deny' })).asked).toBeDefined();
  });

  it('a read outside the workspace is remembered for the session once allowed; another session asks again', async () => {
    const path = join(outside, 'notes.txt');
    const first = await call('main', 'read', { path }, { decision: 'allow-once' });
    expect(first.asked).toMatchObject({
      suggested: 'session',
      subject: { kind: 'file', tool: 'read', access: 'read' },
    });
    expect(first.result).toContain('outside notes');
    expect((await call('main', 'read', { path })).result).toContain('outside notes');
    expect((await call('agent:main:reader', 'read', { path }, { decision: 'deny' })).asked).toBeDefined();
  });

  it('a read-only MCP tool runs without asking; a destructive one asks every time and cannot be remembered', async () => {
    expect((await call('main', 'fixture__echo', { text: 'hi' })).result).toBe('echo: hi');
    expect((await call('agent:main:other', 'fixture__echo', { text: 'hi' })).result).toBe('echo: hi');

    const key = `turn-${++turns}`;
    llm.script([
      { type: 'tool_calls', calls: [{ name: 'fixture__delete_notes', input: {} }] },
      { type: 'text', text: 'done' },
    ]);
    const mark = socket.frames.length;
    await socket.request('chat.send', { sessionKey: 'main', message: 'delete', idempotencyKey: key });
    const asked = await socket.next(
      (frame) => socket.frames.indexOf(frame) >= mark && frame.event === 'exec.approval.requested',
      30_000,
    );
    const request = asked.payload as { id: string };
    expect(request).toMatchObject({
      allowSession: false,
      allowedDecisions: ['allow-once', 'deny'],
      subject: { kind: 'mcp', server: 'fixture', access: 'dangerous' },
      reasons: [expect.objectContaining({ code: 'mcp-destructive' })],
    });
    const refused = await socket.request('exec.approval.resolve', { id: request.id, decision: 'allow-session' });
    expect(refused.error).toMatchObject({ code: 'INVALID_REQUEST', message: expect.stringMatching(/asks every time/) });
    await socket.request('exec.approval.resolve', { id: request.id, decision: 'allow-once' });
    await socket.next((frame) => socket.frames.indexOf(frame) >= mark && isChatEnd(frame, key), 30_000);
    // Allowed once, asked again on the next identical call in the same session.
    expect((await call('main', 'fixture__delete_notes', {}, { decision: 'deny' })).asked).toBeDefined();
  });

  it('"always" until a date stops applying once the clock passes it', async () => {
    const until = new Date(clock.now() + day).toISOString();
    const first = await call(
      'main',
      'fixture__add_note',
      { note: 'one' },
      { decision: 'allow-always', allowAlwaysScope: 'tool', until },
    );
    expect(first.asked).toMatchObject({ alwaysScopes: ['tool', 'server', 'exact'] });
    expect(first.result).toMatch(/saved note \d+: one/);
    // Another session too: "always" is not per session.
    expect((await call('agent:main:elsewhere', 'fixture__add_note', { note: 'two' })).result).toMatch(
      /saved note \d+: two/,
    );
    const rule = (await permissions()).rules.find((candidate) => candidate.tool === 'fixture__add_note');
    expect(rule).toMatchObject({ kind: 'mcp', scope: 'tool', agentId: 'main', expiresAtMs: Date.parse(until) });

    clock.advance(day + 1);
    expect((await permissions()).rules.find((candidate) => candidate.id === rule?.id)).toBeUndefined();
    expect((await call('main', 'fixture__add_note', { note: 'three' }, { decision: 'deny' })).asked).toBeDefined();
  });

  it('refuses an expiry in the past, naming it', async () => {
    const key = `turn-${++turns}`;
    llm.script([
      { type: 'tool_calls', calls: [{ name: 'fixture__add_note', input: { note: 'late' } }] },
      { type: 'text', text: 'done' },
    ]);
    const mark = socket.frames.length;
    await socket.request('chat.send', { sessionKey: 'main', message: 'note', idempotencyKey: key });
    const asked = await socket.next(
      (frame) => socket.frames.indexOf(frame) >= mark && frame.event === 'exec.approval.requested',
      30_000,
    );
    const id = (asked.payload as { id: string }).id;
    const yesterday = new Date(clock.now() - day).toISOString();
    const refused = await socket.request('exec.approval.resolve', { id, decision: 'allow-always', until: yesterday });
    expect(refused.error).toMatchObject({
      code: 'INVALID_REQUEST',
      message: expect.stringContaining('is not in the future'),
    });
    const wrongScope = await socket.request('exec.approval.resolve', {
      id,
      decision: 'allow-always',
      allowAlwaysScope: 'binary',
    });
    expect(wrongScope.error?.message).toMatch(/allowAlwaysScope binary does not apply .*tool or server or exact/);
    await socket.request('exec.approval.resolve', { id, decision: 'deny' });
    await socket.next((frame) => socket.frames.indexOf(frame) >= mark && isChatEnd(frame, key), 30_000);
  });

  it('"always" survives a restart of the host, is listed with its scope and origin, and permissions.revoke ends it', async () => {
    const exec = await call('main', 'exec', { command: 'md5sum a.txt' }, { decision: 'allow-always' });
    expect(exec.asked).toMatchObject({ alwaysScopes: ['binary', 'exact', 'folder'] });
    const mcp = await call(
      'main',
      'fixture__add_note',
      { note: 'kept' },
      { decision: 'allow-always', allowAlwaysScope: 'server' },
    );
    expect(mcp.result).toMatch(/saved note/);

    socket.close();
    await host.dispose();
    await startHost();

    expect((await call('main', 'exec', { command: 'md5sum b.txt' })).result).toMatch(/b\.txt/);
    expect((await call('main', 'fixture__add_note', { note: 'after restart' })).result).toMatch(/after restart/);
    const { rules } = await permissions();
    const execRule = rules.find((rule) => rule.kind === 'exec' && /md5sum/.test(rule.pattern ?? ''));
    const serverRule = rules.find((rule) => rule.kind === 'mcp' && rule.scope === 'server');
    expect(execRule).toMatchObject({
      scope: 'binary',
      agentId: 'main',
      origin: expect.stringMatching(/^operator:/),
      example: 'md5sum a.txt',
    });
    expect(serverRule).toMatchObject({ server: 'fixture', origin: expect.stringMatching(/^operator:/) });

    // Revoking needs operator.approvals; a read-only client may list but not revoke.
    const { socket: reader } = await connectRaw(host.wsUrl, { token: host.token, scopes: ['operator.read'] });
    expect((await reader.request('permissions.list', {})).error).toBeUndefined();
    expect((await reader.request('permissions.revoke', { id: execRule?.id })).error?.code).toBe('FORBIDDEN');
    reader.close();

    for (const rule of [execRule, serverRule]) {
      const revoked = await socket.request('permissions.revoke', { id: rule?.id });
      expect(revoked.payload).toMatchObject({ revoked: { id: rule?.id } });
    }
    expect((await call('main', 'exec', { command: 'md5sum b.txt' }, { decision: 'deny' })).asked).toBeDefined();
    expect((await call('main', 'fixture__add_note', { note: 'no' }, { decision: 'deny' })).asked).toBeDefined();
  });

  it('identical pending requests are one request: one answer settles both', async () => {
    const mark = socket.frames.length;
    const ask = () =>
      socket.request('exec.approval.request', { command: 'sha1sum a.txt', sessionKey: 'agent:main:batch' }, 30_000);
    const both = Promise.all([ask(), ask()]);
    const asked = await socket.next(
      (frame) => socket.frames.indexOf(frame) >= mark && frame.event === 'exec.approval.requested',
      30_000,
    );
    const { id } = asked.payload as { id: string };
    const listed = await socket.request('exec.approval.list', {});
    expect(listed.payload).toEqual([expect.objectContaining({ id, command: 'sha1sum a.txt', waiting: 2 })]);
    await socket.request('exec.approval.resolve', { id, decision: 'allow-once' });
    const [one, two] = await both;
    expect(one.payload).toMatchObject({ id, decision: 'allow-once' });
    expect(two.payload).toMatchObject({ id, decision: 'allow-once' });
    const requested = socket.frames.filter(
      (frame, index) =>
        index >= mark &&
        frame.event === 'exec.approval.requested' &&
        (frame.payload as { command: string }).command === 'sha1sum a.txt',
    );
    expect(requested).toHaveLength(1);
  });

  it('revoking a rule that does not exist is NOT_FOUND, naming the id', async () => {
    const missing = await socket.request('permissions.revoke', { id: 'perm_nope' });
    expect(missing.error).toMatchObject({
      code: 'NOT_FOUND',
      message: expect.stringContaining('no permission rule perm_nope'),
      details: { reason: 'PERMISSION_NOT_FOUND', id: 'perm_nope' },
    });
    expect((await socket.request('permissions.revoke', { id: '' })).error?.code).toBe('INVALID_REQUEST');
  });
});
