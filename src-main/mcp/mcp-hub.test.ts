import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { systemClock } from '../base/clock.js';
import { silentLogger } from '../base/logger.js';
import type { ApprovalDecision } from '../exec/index.js';
import { ApprovalService, createApprovalHistory } from '../exec/index.js';
import type { McpServerStatus } from '../protocol/methods/mcp.js';
import { ensureNoDisposablesAreLeakedInTestSuite } from '../testing/leak-check.js';
import {
  type FixtureMcpHttpServer,
  fixtureMcpServerCommand,
  startFixtureMcpHttpServer,
} from '../testing/mcp-fixture-server.js';
import type { ToolContext, ToolDefinition } from '../tools/tool.js';
import { McpAlwaysAllowed } from './mcp-always-allowed.js';
import { type McpConfig, mcpConfigSchema } from './mcp-config.js';
import { McpHub } from './mcp-hub.js';

let dir: string;
let approvals: ApprovalService;
let answer: ApprovalDecision | undefined;
const asked: string[] = [];
const hubs: McpHub[] = [];

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'hearth-mcp-hub-'));
  approvals = new ApprovalService({
    clock: systemClock,
    events: { publish: () => {} },
    history: createApprovalHistory(join(dir, 'history.jsonl')),
    logger: silentLogger,
    screen: () => [],
  });
  approvals.registerPrompter({
    name: 'test',
    prompt: async (request) => {
      asked.push(request.command);
      return answer;
    },
  });
});
afterEach(async () => {
  await Promise.all(hubs.splice(0).map((hub) => hub.close()));
  asked.length = 0;
});
afterAll(async () => {
  approvals.dispose();
  await approvals.flushHistory();
  await rm(dir, { recursive: true, force: true });
});

function hubWith(
  servers: Record<string, unknown>,
  agents: Record<string, { servers: string[]; tools?: Record<string, string[]> }>,
  secrets: Record<string, string> = {},
  alwaysAllowed?: McpAlwaysAllowed,
): McpHub {
  const config: McpConfig = mcpConfigSchema.parse({ servers });
  const hub = new McpHub({
    config: () => config,
    agentConfig: (agentId) => (agents[agentId] ? { tools: {}, ...agents[agentId] } : undefined),
    secrets: { backend: 'test', get: async (name) => secrets[name] },
    approvals,
    ...(alwaysAllowed ? { alwaysAllowed } : {}),
    clock: systemClock,
    log: silentLogger,
    baseEnv: { PATH: process.env.PATH, OPENAI_API_KEY: 'sk-hearth-own' },
  });
  hubs.push(hub);
  return hub;
}

function context(signal = new AbortController().signal): ToolContext {
  return { agentId: 'main', sessionKey: 'agent:main:main', workspaceDir: dir, signal, log: silentLogger };
}

function find(tools: ToolDefinition[], name: string): ToolDefinition {
  const tool = tools.find((candidate) => candidate.name === name);
  if (!tool) throw new Error(`no tool ${name} in ${tools.map((t) => t.name).join(', ')}`);
  return tool;
}

function nextStatus(hub: McpHub, match: (status: McpServerStatus) => boolean): Promise<McpServerStatus> {
  return new Promise((resolve) => {
    const listener = hub.onDidChange((status) => {
      if (!match(status)) return;
      listener.dispose();
      resolve(status);
    });
  });
}

const fixture = () => ({ ...fixtureMcpServerCommand(), connectTimeoutMs: 30_000 });

describe('MCP client over stdio', () => {
  ensureNoDisposablesAreLeakedInTestSuite();
  it('gives an agent that enables the server its tools as server__tool, and calls them', async () => {
    const hub = hubWith({ fixture: fixture() }, { main: { servers: ['fixture'] } });
    expect(hub.list()[0]).toMatchObject({ name: 'fixture', state: 'idle', transport: 'stdio' });
    const tools = await hub.toolsFor('main');
    expect(tools.map((tool) => tool.name)).toEqual(
      expect.arrayContaining(['fixture__echo', 'fixture__add_note', 'fixture__crash', 'fixture__hang']),
    );
    expect(find(tools, 'fixture__echo').description).toBe('Echo the text back');
    expect(await find(tools, 'fixture__echo').execute({ text: 'hi' }, context())).toEqual({ output: 'echo: hi' });
    expect(hub.list()[0]).toMatchObject({ state: 'ready', toolCount: tools.length });
  });

  it('gives an agent that does not enable it nothing, and does not start the server for it', async () => {
    const hub = hubWith({ fixture: fixture() }, { main: { servers: ['fixture'] } });
    expect(await hub.toolsFor('other')).toEqual([]);
    expect(hub.list()[0]?.state).toBe('idle');
  });

  it('offers only the tools an agent lists for the server', async () => {
    const hub = hubWith({ fixture: fixture() }, { main: { servers: ['fixture'], tools: { fixture: ['echo'] } } });
    expect((await hub.toolsFor('main')).map((tool) => tool.name)).toEqual(['fixture__echo']);
  });

  it('asks before a tool that is not read-only, and runs read-only ones without asking', async () => {
    const hub = hubWith({ fixture: fixture() }, { main: { servers: ['fixture'] } });
    const tools = await hub.toolsFor('main');
    answer = 'deny';
    const denied = await find(tools, 'fixture__add_note').execute({ note: 'milk' }, context());
    expect(denied).toMatchObject({
      isError: true,
      output: expect.stringMatching(/^Not run: denied \(prompter:test\)/),
    });
    expect(asked).toEqual([`mcp fixture__add_note '{"note":"milk"}'`]);
    answer = 'allow-once';
    expect(await find(tools, 'fixture__add_note').execute({ note: 'milk' }, context())).toEqual({
      output: 'saved note 1: milk',
    });
    expect(await find(tools, 'fixture__delete_notes').execute({}, context())).toEqual({ output: 'deleted 1 notes' });
    expect(asked).toHaveLength(3);
    await find(tools, 'fixture__echo').execute({ text: 'x' }, context());
    expect(asked).toHaveLength(3);
  });

  it('remembers "allow always" for a tool across a restart', async () => {
    const file = join(dir, 'always', 'mcp-approvals.json');
    const first = hubWith(
      { fixture: fixture() },
      { main: { servers: ['fixture'] } },
      {},
      await McpAlwaysAllowed.open(file),
    );
    answer = 'allow-always';
    await find(await first.toolsFor('main'), 'fixture__add_note').execute({ note: 'a' }, context());
    expect(asked).toHaveLength(1);
    await first.close();

    // A new host: the list is read back from the file.
    const second = hubWith(
      { fixture: fixture() },
      { main: { servers: ['fixture'] } },
      {},
      await McpAlwaysAllowed.open(file),
    );
    answer = 'deny';
    const tools = await second.toolsFor('main');
    expect(await find(tools, 'fixture__add_note').execute({ note: 'b' }, context())).toEqual({
      output: 'saved note 1: b',
    });
    expect(asked).toHaveLength(1);
    // Only that tool: another write tool of the same server still asks.
    expect((await find(tools, 'fixture__delete_notes').execute({}, context())).isError).toBe(true);
    expect(second.alwaysAllowed().map((entry) => entry.tool)).toEqual(['fixture__add_note']);
    expect(await second.revoke('fixture__add_note')).toBe(true);
    expect((await McpAlwaysAllowed.open(file)).list()).toEqual([]);
  });

  it('treats a tool as read-only when hearth.json says so', async () => {
    const hub = hubWith(
      { fixture: { ...fixture(), tools: { add_note: { access: 'read' } } } },
      { main: { servers: ['fixture'] } },
    );
    const result = await hub.test('fixture');
    expect(result.tools.find((tool) => tool.tool === 'add_note')?.access).toBe('read');
    expect(result.tools.find((tool) => tool.tool === 'delete_notes')?.access).toBe('dangerous');
    expect(result.tools.find((tool) => tool.tool === 'echo')?.access).toBe('read');
    await find(await hub.toolsFor('main'), 'fixture__add_note').execute({ note: 'n' }, context());
    expect(asked).toEqual([]);
  });

  it('restarts a server that died, and the call that killed it gets a clear tool error', async () => {
    const hub = hubWith({ fixture: fixture() }, { main: { servers: ['fixture'] } });
    const tools = await hub.toolsFor('main');
    const restarted = nextStatus(hub, (status) => status.state === 'ready' && status.restarts === 1);
    const crashed = await find(tools, 'fixture__crash').execute({}, context());
    expect(crashed.isError).toBe(true);
    expect(crashed.output).toMatch(/MCP server "fixture" stopped during the call to crash/);
    expect(crashed.output).toMatch(/crashing on purpose/);
    await restarted;
    expect(hub.list()[0]).toMatchObject({ state: 'ready', restarts: 1, lastError: expect.stringMatching(/stopped/) });
    const again = await hub.toolsFor('main');
    expect(await find(again, 'fixture__echo').execute({ text: 'back' }, context())).toEqual({ output: 'echo: back' });
  });

  it('cancels a call that does not answer in time, and one whose turn is aborted', async () => {
    const hub = hubWith({ fixture: { ...fixture(), timeoutMs: 1000 } }, { main: { servers: ['fixture'] } });
    const hang = find(await hub.toolsFor('main'), 'fixture__hang');
    expect(await hang.execute({}, context())).toEqual({
      isError: true,
      output: 'MCP server "fixture": hang did not answer within 1000 ms; the call was cancelled',
    });
    const abort = new AbortController();
    const pending = hang.execute({}, context(abort.signal));
    abort.abort();
    expect(await pending).toMatchObject({
      isError: true,
      output: expect.stringMatching(/cancelled \(the turn was aborted\)/),
    });
    // The server still answers other calls.
    expect(await find(await hub.toolsFor('main'), 'fixture__echo').execute({ text: 'ok' }, context())).toEqual({
      output: 'echo: ok',
    });
  });

  it('refreshes the tool list on notifications/tools/list_changed', async () => {
    const hub = hubWith({ fixture: fixture() }, { main: { servers: ['fixture'] } });
    const before = await hub.toolsFor('main');
    expect(before.map((tool) => tool.name)).not.toContain('fixture__extra');
    const grown = nextStatus(hub, (status) => status.toolCount === before.length + 1);
    await find(before, 'fixture__grow').execute({}, context());
    await grown;
    const after = await hub.toolsFor('main');
    expect(await find(after, 'fixture__extra').execute({}, context())).toEqual({ output: 'extra ran' });
  });

  it("shows the server's progress notifications as the tool's progress", async () => {
    const hub = hubWith({ fixture: fixture() }, { main: { servers: ['fixture'] } });
    const tools = await hub.toolsFor('main');
    const progress: string[] = [];
    let sawLast: () => void = () => {};
    const last = new Promise<void>((resolve) => {
      sawLast = resolve;
    });
    const onProgress = (text: string) => {
      progress.push(text);
      if (text === 'step 3') sawLast();
    };
    const result = find(tools, 'fixture__count').execute({ n: 3, hold: true }, { ...context(), onProgress });
    await last;
    await find(tools, 'fixture__release').execute({}, context());
    expect(await result).toEqual({ output: 'counted to 3' });
    expect(progress).toEqual(['step 1', 'step 2', 'step 3']);
  });

  it('names binary content instead of sending base64 to the model', async () => {
    const hub = hubWith({ fixture: fixture() }, { main: { servers: ['fixture'] } });
    const result = await find(await hub.toolsFor('main'), 'fixture__picture').execute({}, context());
    expect(result.output).toBe('[image image/png, 8 bytes, not shown]');
  });

  it('passes env values from the secret store, and names a secret it lacks', async () => {
    const env = { TOKEN: { secret: 'fixture-token' }, PLAIN: 'visible' };
    const hub = hubWith(
      { fixture: { ...fixture(), env } },
      { main: { servers: ['fixture'] } },
      { 'fixture-token': 's3cret' },
    );
    const read = find(await hub.toolsFor('main'), 'fixture__env_value');
    expect((await read.execute({ name: 'TOKEN' }, context())).output).toBe('s3cret');
    expect((await read.execute({ name: 'PLAIN' }, context())).output).toBe('visible');
    // Hearth's own environment stays out, but for what a program needs to run.
    expect((await read.execute({ name: 'OPENAI_API_KEY' }, context())).output).toBe('(unset)');

    const lacking = hubWith({ fixture: { ...fixture(), env } }, { main: { servers: ['fixture'] } });
    expect(await lacking.toolsFor('main')).toEqual([]);
    const tested = await lacking.test('fixture');
    expect(tested).toMatchObject({ ok: false, server: { state: 'failed' } });
    expect(tested.error).toBe(
      'mcp.servers.fixture.env.TOKEN names secret "fixture-token", which the secret store (test) does not hold',
    );
  });

  it('gives up on a server that does not start in time, and later turns do not wait for it again', async () => {
    const silent = { command: process.execPath, args: ['-e', 'setInterval(() => {}, 1000)'], connectTimeoutMs: 300 };
    const hub = hubWith({ silent }, { main: { servers: ['silent'] } });
    expect(await hub.toolsFor('main')).toEqual([]);
    expect(hub.list()[0]).toMatchObject({
      state: 'failed',
      lastError: 'did not start and list its tools within 300 ms',
    });
    const states: string[] = [];
    const listener = hub.onDidChange((status) => states.push(status.state));
    expect(await hub.toolsFor('main')).toEqual([]);
    listener.dispose();
    expect(states).toEqual([]);
  });

  it("reports a command that does not exist as the server's last error", async () => {
    const hub = hubWith({ broken: { command: join(dir, 'no-such-server') } }, { main: { servers: ['broken'] } });
    expect(await hub.toolsFor('main')).toEqual([]);
    expect(hub.list()[0]).toMatchObject({ state: 'failed', lastError: expect.stringMatching(/ENOENT/) });
  });
});

describe('MCP client over Streamable HTTP', () => {
  ensureNoDisposablesAreLeakedInTestSuite();
  let http: FixtureMcpHttpServer;
  beforeAll(async () => {
    http = await startFixtureMcpHttpServer();
  });
  afterAll(async () => {
    await http.close();
  });

  it('lists and calls the tools of a remote server, with headers from the secret store', async () => {
    const hub = hubWith(
      { remote: { url: http.url, headers: { Authorization: { secret: 'remote-key' } } } },
      { main: { servers: ['remote'] } },
      { 'remote-key': 'Bearer abc' },
    );
    const tools = await hub.toolsFor('main');
    expect(await find(tools, 'remote__echo').execute({ text: 'over http' }, context())).toEqual({
      output: 'echo: over http',
    });
    expect(hub.list()[0]).toMatchObject({ transport: 'http', state: 'ready' });
    expect(http.authorizations.every((value) => value === 'Bearer abc')).toBe(true);
  });

  it('tests an entry that is not in hearth.json yet, and refuses a bad one naming the field', async () => {
    const hub = hubWith({}, {});
    const tested = await hub.test('trial', { url: http.url });
    expect(tested.ok).toBe(true);
    expect(tested.tools.map((tool) => tool.name)).toContain('trial__echo');
    await expect(hub.test('trial', { url: 'ftp://example.com' })).rejects.toThrow(
      'MCP server "trial": url: url must be an http:// or https:// URL',
    );
  });
});
