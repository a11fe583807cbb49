import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isChatEnd } from '../testing/chat-turn.js';
import type { FakeLlmRequest } from '../testing/fake-llm/index.js';
import { fixtureMcpServerCommand } from '../testing/mcp-fixture-server.js';
import { type ProductFixture, startProductFixture } from '../testing/product-fixture.js';
import { type AnyFrame, connectRaw } from '../testing/raw-gateway-socket.js';

// The MCP client in the composed host: a real stdio MCP server (the SDK-built fixture), the agent
// calling its tools in a turn through the fake LLM, approvals for write tools over the wire.

let product: ProductFixture;
const fixture = { ...fixtureMcpServerCommand(), connectTimeoutMs: 30_000 };
// The same server with a short call timeout, for the hanging tool (the others keep the default 60 s).
const impatient = { ...fixture, timeoutMs: 1500 };
const agents = (mcpForPlain?: { servers: string[] }) => ({
  defaults: { model: 'openai/gpt-4o' },
  list: [
    { id: 'main', default: true, mcp: { servers: ['fixture', 'impatient'], tools: { impatient: ['hang'] } } },
    { id: 'plain', ...(mcpForPlain ? { mcp: mcpForPlain } : {}) },
  ],
});

beforeAll(async () => {
  // Profile `full`: every tool's schema is in the prompt (no tools_load step), so what MCP adds is measurable.
  product = await startProductFixture({
    config: { mcp: { servers: { fixture, impatient } }, agents: agents(), tools: { profile: 'full' } },
  });
});
afterAll(async () => {
  await product?.close();
});

function toolNames(request: FakeLlmRequest | undefined): string[] {
  const tools = (request?.body.tools ?? []) as { function?: { name?: string } }[];
  return tools.map((tool) => tool.function?.name ?? '');
}

/** The tool results the model was sent in a request (OpenAI chat: role "tool" messages). */
function toolResults(request: FakeLlmRequest | undefined): string[] {
  const messages = (request?.body.messages ?? []) as { role: string; content: unknown }[];
  return messages.filter((message) => message.role === 'tool').map((message) => String(message.content));
}

async function turnCalling(key: string, tool: string, input: unknown): Promise<FakeLlmRequest> {
  product.llm.script([
    { type: 'tool_calls', calls: [{ name: tool, input }] },
    { type: 'text', text: 'done' },
  ]);
  const before = product.llm.requests.length;
  const end = await product.turn(key, `please use ${tool}`);
  expect(end.state).toBe('final');
  expect(product.llm.requests.length).toBe(before + 2);
  return product.llm.requests.at(-1)!;
}

async function listServers(): Promise<{ state: string; restarts: number; lastError?: string; toolCount: number }[]> {
  const response = await product.socket.request('mcp.servers.list', {});
  expect(response.ok).toBe(true);
  return (response.payload as { servers: { state: string; restarts: number; toolCount: number }[] }).servers;
}

describe('MCP tools in a turn', () => {
  it('an agent that enables the server calls its tool in a turn and the model gets the result', async () => {
    const last = await turnCalling('mcp-echo', 'fixture__echo', { text: 'hello' });
    expect(toolNames(product.llm.requests.at(-2))).toContain('fixture__echo');
    expect(toolResults(last).at(-1)).toBe('echo: hello');
    expect((await listServers())[0]).toMatchObject({ state: 'ready', restarts: 0 });
  });

  it('a write tool waits for the person to approve it over the wire', async () => {
    const { socket } = product;
    product.llm.script([
      { type: 'tool_calls', calls: [{ name: 'fixture__add_note', input: { note: 'buy milk' } }] },
      { type: 'text', text: 'saved' },
    ]);
    const mark = socket.frames.length;
    await socket.request('chat.send', { sessionKey: 'main', message: 'note it', idempotencyKey: 'mcp-note' });
    const asked = await socket.next(
      (frame) => socket.frames.indexOf(frame) >= mark && frame.event === 'exec.approval.requested',
      30_000,
    );
    expect(asked.payload).toMatchObject({
      command: `mcp fixture__add_note '{"note":"buy milk"}'`,
      host: 'mcp:fixture',
      allowedDecisions: ['allow-once', 'allow-always', 'deny'],
      reasons: [expect.objectContaining({ code: 'mcp-write' })],
    });
    const { id } = asked.payload as { id: string };
    expect((await socket.request('exec.approval.resolve', { id, decision: 'allow-once' })).ok).toBe(true);
    await socket.next(
      (frame: AnyFrame) => socket.frames.indexOf(frame) >= mark && isChatEnd(frame, 'mcp-note'),
      30_000,
    );
    expect(toolResults(product.llm.requests.at(-1)).at(-1)).toBe('saved note 1: buy milk');
  });

  it('"allow always" lets the tool run without asking until revoked', async () => {
    const { socket } = product;
    const approvalsSeen = () => socket.frames.filter((frame) => frame.event === 'exec.approval.requested').length;
    product.llm.script([
      { type: 'tool_calls', calls: [{ name: 'fixture__add_note', input: { note: 'one' } }] },
      { type: 'text', text: 'saved' },
    ]);
    const mark = socket.frames.length;
    await socket.request('chat.send', { sessionKey: 'main', message: 'note one', idempotencyKey: 'mcp-always-1' });
    const asked = await socket.next(
      (frame) => socket.frames.indexOf(frame) >= mark && frame.event === 'exec.approval.requested',
      30_000,
    );
    const { id } = asked.payload as { id: string };
    expect((await socket.request('exec.approval.resolve', { id, decision: 'allow-always' })).ok).toBe(true);
    await socket.next((frame) => socket.frames.indexOf(frame) >= mark && isChatEnd(frame, 'mcp-always-1'), 30_000);
    expect(toolResults(product.llm.requests.at(-1)).at(-1)).toMatch(/^saved note \d+: one$/);

    const before = approvalsSeen();
    const second = await turnCalling('mcp-always-2', 'fixture__add_note', { note: 'two' });
    expect(toolResults(second).at(-1)).toMatch(/^saved note \d+: two$/);
    expect(approvalsSeen()).toBe(before);
    const listed = await socket.request('mcp.approvals.list', {});
    expect(listed.payload).toMatchObject({ always: [{ tool: 'fixture__add_note' }] });

    expect((await socket.request('mcp.approvals.revoke', { tool: 'fixture__add_note' })).payload).toEqual({
      removed: true,
    });
    product.llm.script([
      { type: 'tool_calls', calls: [{ name: 'fixture__add_note', input: { note: 'three' } }] },
      { type: 'text', text: 'saved' },
    ]);
    const again = socket.frames.length;
    await socket.request('chat.send', { sessionKey: 'main', message: 'note three', idempotencyKey: 'mcp-always-3' });
    const askedAgain = await socket.next(
      (frame) => socket.frames.indexOf(frame) >= again && frame.event === 'exec.approval.requested',
      30_000,
    );
    await socket.request('exec.approval.resolve', { id: (askedAgain.payload as { id: string }).id, decision: 'deny' });
    await socket.next((frame) => socket.frames.indexOf(frame) >= again && isChatEnd(frame, 'mcp-always-3'), 30_000);
    expect(toolResults(product.llm.requests.at(-1)).at(-1)).toMatch(/^Not run: denied/);
  });

  it('a hanging tool times out with a tool error and the turn ends', async () => {
    const last = await turnCalling('mcp-hang', 'impatient__hang', {});
    expect(toolResults(last).at(-1)).toBe(
      'MCP server "impatient": hang did not answer within 1500 ms; the call was cancelled',
    );
  });

  it('a server that crashes gives the turn a clear tool error and is restarted', async () => {
    const { socket } = product;
    const mark = socket.frames.length;
    const last = await turnCalling('mcp-crash', 'fixture__crash', {});
    expect(toolResults(last).at(-1)).toMatch(/^MCP server "fixture" stopped during the call to crash/);
    // The restart is on a backoff timer; its `mcp.servers.changed` says when it is back.
    await socket.next((frame) => {
      if (socket.frames.indexOf(frame) < mark || frame.event !== 'mcp.servers.changed') return false;
      const { server } = frame.payload as { server: { state: string; restarts: number } };
      return server.state === 'ready' && server.restarts === 1;
    }, 30_000);
    expect((await listServers())[0]).toMatchObject({
      state: 'ready',
      restarts: 1,
      lastError: expect.stringMatching(/stopped/),
    });
    const after = await turnCalling('mcp-after-crash', 'fixture__echo', { text: 'again' });
    expect(toolResults(after).at(-1)).toBe('echo: again');
  });

  it('mcp.servers.test lists the tools; a read-only client may list servers but not test them', async () => {
    const tested = await product.socket.request('mcp.servers.test', { name: 'fixture' });
    expect(tested.payload).toMatchObject({
      ok: true,
      tools: expect.arrayContaining([
        { name: 'fixture__echo', tool: 'echo', description: 'Echo the text back', access: 'read' },
        { name: 'fixture__delete_notes', tool: 'delete_notes', description: 'Delete every note', access: 'dangerous' },
      ]),
    });
    const bad = await product.socket.request('mcp.servers.test', {
      name: 'x',
      server: { command: 'a', url: 'http://h' },
    });
    expect(bad.error).toMatchObject({ message: 'MCP server "x": give either command (stdio) or url (HTTP), not both' });
    // A server command is a program Hearth starts: the exec hard floor refuses it before it runs.
    // (GNU rm also refuses `/` on its own, so a regression here still deletes nothing.)
    const floored = await product.socket.request('mcp.servers.test', {
      name: 'wipe',
      server: { command: 'rm', args: ['-rf', '/'] },
    });
    expect(floored.payload).toMatchObject({ ok: false, tools: [] });
    expect((floored.payload as { error: string }).error).toMatch(/refused to start `rm -rf \/`/);
    const { socket: reader } = await connectRaw(product.host.wsUrl, {
      token: product.host.token,
      scopes: ['operator.read'],
    });
    try {
      expect((await reader.request('mcp.servers.list', {})).ok).toBe(true);
      expect((await reader.request('mcp.servers.test', { name: 'fixture' })).ok).toBe(false);
    } finally {
      reader.close();
    }
  });
});

describe('mcp.servers.import', () => {
  it('adds pasted Claude Desktop JSON to hearth.json, after showing what it would add', async () => {
    const json = JSON.stringify({
      mcpServers: {
        fixture: { command: 'other' },
        'notes.app': { ...fixtureMcpServerCommand(), env: { DEBUG: '1' } },
        broken: { args: ['x'] },
      },
    });
    const preview = await product.socket.request('mcp.servers.import', { json });
    expect(preview.payload).toEqual({
      servers: { 'notes-app': { ...fixtureMcpServerCommand(), env: { DEBUG: '1' } } },
      notes: [
        'server "notes.app" is imported as "notes-app"',
        'server "fixture" is already in mcp.servers; left as it is',
      ],
      errors: ['server "broken": needs command (a stdio server) or url (a Streamable HTTP server)'],
      applied: false,
    });
    expect((await listServers()).length).toBe(2);

    const applied = await product.socket.request('mcp.servers.import', { json, apply: true });
    expect(applied.payload).toMatchObject({ applied: true });
    // Starting a tsx child takes seconds on a loaded machine: longer than a request's default wait.
    const tested = await product.socket.request('mcp.servers.test', { name: 'notes-app' }, 30_000);
    expect(tested.payload).toMatchObject({
      ok: true,
      tools: expect.arrayContaining([expect.objectContaining({ name: 'notes-app__echo' })]),
    });
    expect(
      (await product.socket.request('config.patch', { patch: { mcp: { servers: { 'notes-app': null } } } })).ok,
    ).toBe(true);
  });
});

describe('prompt cost', () => {
  async function plainTurnTokens(key: string): Promise<{ tokens: number; tools: string[] }> {
    const before = product.llm.requests.length;
    const end = await product.turn(key, 'hello there', `agent:plain:${key}`);
    expect(end.state).toBe('final');
    const request = product.llm.requests[before]!;
    return { tokens: request.promptTokens, tools: toolNames(request) };
  }

  async function patch(patchBody: Record<string, unknown>): Promise<void> {
    const response = await product.socket.request('config.patch', { patch: patchBody });
    expect(response.ok, JSON.stringify(response.error)).toBe(true);
  }

  it('an agent that does not enable a server sees none of its tools and pays no prompt tokens for them', async () => {
    const withServer = await plainTurnTokens('p1');
    expect(withServer.tools.some((name) => name.startsWith('fixture__'))).toBe(false);

    await patch({ mcp: { servers: null }, agents: { list: agents().list.map(({ mcp: _, ...agent }) => agent) } });
    const withoutServer = await plainTurnTokens('p2');
    expect(withoutServer.tokens).toBe(withServer.tokens);
    expect(withoutServer.tools).toEqual(withServer.tools);

    await patch({ mcp: { servers: { fixture } }, agents: agents({ servers: ['fixture'] }) });
    const enabled = await plainTurnTokens('p3');
    const added = enabled.tools.filter((name) => name.startsWith('fixture__'));
    expect(added.length).toBeGreaterThan(0);
    // Reported in docs/MCP.md and docs/BENCHMARKS.md.
    console.log(
      `MCP prompt cost: ${enabled.tokens - withoutServer.tokens} tokens for ${added.length} tools ` +
        `(${((enabled.tokens - withoutServer.tokens) / added.length).toFixed(1)} per tool); base ${withoutServer.tokens}`,
    );
  });
});
