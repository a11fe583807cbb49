import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { silentLogger } from '../../base/logger.js';
import { createRuntimeFixture, type RuntimeFixture } from '../../testing/fake-llm/runtime-fixture.js';
import type { ToolContext, ToolDefinition } from '../tool.js';
import { resolveToolCatalogueSettings, type ToolProfile } from './catalogue-config.js';
import { createToolCatalogue } from './tool-catalogue.js';

function tool(name: string, description: string, source: ToolDefinition['source'] = 'builtin'): ToolDefinition {
  return {
    name,
    description,
    source,
    inputSchema: z.object({ text: z.string().describe('what to act on') }).strict(),
    async execute(input) {
      return { output: `${name} ran with ${(input as { text: string }).text}` };
    },
  } as ToolDefinition;
}

const builtins = [
  tool('exec', 'Run a shell command.'),
  tool('memory_search', 'Search memory.'),
  tool('memory_get', 'Read a memory file.'),
  tool('cron_list', 'List scheduled jobs (id, schedule, next run, last result).'),
  tool('canvas_write', 'Write a file on the canvas. The person sees it live.'),
];

/** 50 tools shaped like an MCP server's: a longer description and a few typed parameters each. */
const mcpTools: ToolDefinition[] = Array.from({ length: 50 }, (_, i) => ({
  name: `github_op_${i}`,
  description: `GitHub operation ${i}: acts on issues, pull requests and repositories of the connected account. Returns JSON.`,
  source: 'mcp' as const,
  inputSchema: z
    .object({
      owner: z.string().describe('repository owner'),
      repo: z.string().describe('repository name'),
      number: z.number().int().optional().describe('issue or pull request number'),
      body: z.string().optional().describe('text to post'),
    })
    .strict(),
  async execute() {
    return { output: `op ${i} done` };
  },
})) as ToolDefinition[];

const context: ToolContext = {
  agentId: 'main',
  sessionKey: 'agent:main:main',
  workspaceDir: '/nonexistent',
  signal: new AbortController().signal,
  log: silentLogger,
};

function catalogueOf(tools: readonly ToolDefinition[], profile: ToolProfile = 'coding', extra = {}) {
  return createToolCatalogue({
    tools: () => tools,
    settingsFor: () => resolveToolCatalogueSettings([{ profile, ...extra }]),
  });
}

async function run(definition: ToolDefinition | undefined, input: unknown) {
  if (!definition) throw new Error('tool missing');
  return definition.execute(definition.inputSchema.parse(input), context);
}

describe('tool catalogue', () => {
  let fixture: RuntimeFixture;
  let tools: readonly ToolDefinition[] = builtins;
  let profile: ToolProfile = 'coding';
  beforeAll(async () => {
    const catalogue = createToolCatalogue({
      tools: () => tools,
      settingsFor: () => resolveToolCatalogueSettings([{ profile }]),
    });
    fixture = await createRuntimeFixture({
      profiles: [{ id: 'k', provider: 'openai', secret: 'sk-test' }],
      toolsFor: (scope) => catalogue.forTurn(scope.agentId).core,
      onDemandTools: (scope) => catalogue.forTurn(scope.agentId).onDemand,
    });
  });
  afterAll(async () => {
    await fixture?.close();
  });

  async function turn(sessionKey: string, message: string): Promise<void> {
    const sent = await fixture.call('chat.send', { sessionKey, message, idempotencyKey: sessionKey });
    if (!sent.ok) throw new Error(sent.error.message);
    const end = await fixture.chatEnd((sent.payload as { runId: string }).runId);
    expect(end.state).toBe('final');
  }

  async function promptTokensOfOneTurn(key: string): Promise<number> {
    fixture.server.script([{ type: 'text', text: 'Hello.' }]);
    await turn(key, 'hi');
    return fixture.server.requests.at(-1)!.promptTokens;
  }

  it('adding 50 MCP tools changes the prompt by at most 300 tokens (with `full`, by thousands)', async () => {
    tools = builtins;
    const without = await promptTokensOfOneTurn('agent:main:a');
    tools = [...builtins, ...mcpTools];
    const withMcp = await promptTokensOfOneTurn('agent:main:b');
    expect(Math.abs(withMcp - without)).toBeLessThanOrEqual(300);

    // What the catalogue saves: the same 50 tools as core cost every call.
    profile = 'full';
    const full = await promptTokensOfOneTurn('agent:main:c');
    profile = 'coding';
    expect(full - withMcp).toBeGreaterThan(3000);
  });

  it('loads a tool mid-turn: the next step sends its schema after the core, and the call runs', async () => {
    tools = [...builtins, ...mcpTools];
    const before = fixture.server.requests.length;
    fixture.server.script([
      { type: 'tool_calls', calls: [{ name: 'tools_load', input: { names: ['github_op_7'] } }] },
      { type: 'tool_calls', calls: [{ name: 'github_op_7', input: { owner: 'o', repo: 'r' } }] },
      { type: 'text', text: 'Done.' },
    ]);
    await turn('agent:main:d', 'go');
    const calls = fixture.server.requests.slice(before);
    const names = (i: number) =>
      ((calls[i]!.body.tools ?? []) as { function: { name: string } }[]).map((t) => t.function.name);
    expect(names(0)).toEqual(['exec', 'memory_search', 'memory_get', 'tools_search', 'tools_load']);
    expect(names(1)).toEqual([...names(0), 'github_op_7']);
    expect(JSON.stringify(calls[2]!.body)).toContain('op 7 done');
  });
});

describe('profiles and the catalogue tools', () => {
  it('each profile sets the core; `full` needs no loading', () => {
    const names = (profile: ToolProfile, extra = {}) =>
      catalogueOf(builtins, profile, extra)
        .forTurn('main')
        .core.map((t) => t.name);
    expect(names('minimal')).toEqual(['memory_search', 'memory_get', 'tools_search', 'tools_load']);
    expect(names('coding')).toEqual(['exec', 'memory_search', 'memory_get', 'tools_search', 'tools_load']);
    expect(names('full')).toEqual(builtins.map((t) => t.name));
    expect(catalogueOf(builtins, 'full').forTurn('main').onDemand).toBeUndefined();
    expect(names('custom', { core: ['cron_list'] })).toEqual(['cron_list', 'tools_search', 'tools_load']);
    expect(names('coding', { core: ['cron_list'] })).toContain('cron_list');
  });

  it('the most specific setting wins: the agent, then defaults, then the root', () => {
    expect(resolveToolCatalogueSettings([{ profile: 'minimal' }, { profile: 'full' }]).profile).toBe('minimal');
    expect(resolveToolCatalogueSettings([undefined, { core: ['x'] }, { profile: 'full' }])).toEqual({
      profile: 'full',
      core: ['x'],
      deny: [],
    });
    expect(resolveToolCatalogueSettings([]).profile).toBe('coding');
  });

  it('tools_search ranks by name and description and says where a tool comes from', async () => {
    const turn = catalogueOf([...builtins, ...mcpTools]).forTurn('main');
    const search = turn.core.find((t) => t.name === 'tools_search');
    const schedule = await run(search, { query: 'schedule' });
    expect(schedule.output.split('\n')[0]).toBe(
      'cron_list: List scheduled jobs (id, schedule, next run, last result).',
    );
    const github = await run(search, { query: 'github pull request' });
    expect(github.output).toContain('github_op_0 [mcp]: GitHub operation 0: acts on issues');
    expect(github.output).toContain('more; narrow the query');
    expect((await run(search, { query: 'teleport' })).output).toMatch(/^No tool matches "teleport"/);
  });

  it('tools_load names what it loaded, what was already there and what does not exist', async () => {
    const turn = catalogueOf(builtins).forTurn('main');
    const load = turn.core.find((t) => t.name === 'tools_load');
    const mixed = await run(load, { names: ['canvas_write', 'exec', 'canvs_write'] });
    expect(mixed.isError).toBe(false);
    expect(mixed.output).toContain('Loaded: canvas_write.');
    expect(mixed.output).toContain('Already available: exec.');
    expect(mixed.output).toContain('No such tool: canvs_write (did you mean canvas_write?)');
    expect((await run(load, { names: ['nope'] })).isError).toBe(true);
  });

  it('a denied tool is neither in the core, nor found, nor loadable', async () => {
    const turn = catalogueOf(builtins, 'coding', { deny: ['cron_list', 'exec'] }).forTurn('main');
    expect(turn.core.map((t) => t.name)).not.toContain('exec');
    expect(turn.onDemand?.callable.map((t) => t.name)).not.toContain('cron_list');
    const found = await run(
      turn.core.find((t) => t.name === 'tools_search'),
      { query: '' },
    );
    expect(found.output).not.toContain('cron_list');
  });

  it('a prompt line is kept while its tool is available, with a hint when it must be loaded first', () => {
    const withLine = [...builtins, { ...tool('canvas_read', 'Read the canvas.'), promptLine: 'You have a canvas.' }];
    expect(catalogueOf(withLine).forTurn('main').promptLines).toEqual([
      'You have a canvas. (load canvas_read with tools_load)',
    ]);
    expect(catalogueOf(withLine, 'full').forTurn('main').promptLines).toEqual(['You have a canvas.']);
    expect(catalogueOf(withLine, 'coding', { deny: ['canvas_read'] }).forTurn('main').promptLines).toEqual([]);
  });
});
