#!/usr/bin/env node
// Test support (never shipped): a fake Claude Code CLI. It takes `claude -p --output-format
// stream-json --verbose [--include-partial-messages] [--resume <id>] [--model m] [--permission-mode m]`
// (leading fake options: fake-cli-common.mjs), reads the prompt from stdin and writes Claude
// Code's documented stream-json: a `system` init with the session id, `stream_event` text deltas,
// `assistant` messages with text / tool_use blocks, a `user` message with the tool_result, and a
// final `result` with usage, total_cost_usd and is_error. The prompt's first word picks the scenario:
// "fail" (an error result), "crash" (dies mid-stream), "hang" (runs until killed), "deny"
// (a permission denial), anything else a normal answer with one tool call.
import { randomUUID } from 'node:crypto';
import { emit, fail, parseFakeOptions, readStdin, record, startGrandchild, writeRaw } from './fake-cli-common.mjs';

const { options, args } = parseFakeOptions(process.argv.slice(2));
const flag = (name) => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : undefined;
};
if (!args.includes('-p') && !args.includes('--print')) fail('fake claude: only print mode (-p) is faked');
if (flag('--output-format') !== 'stream-json') fail('fake claude: expected --output-format stream-json');
// As the real CLI: stream-json in print mode needs --verbose.
if (!args.includes('--verbose')) fail('Error: When using --print, --output-format=stream-json requires --verbose');
if (args.includes('--dangerously-skip-permissions')) fail('fake claude: refusing --dangerously-skip-permissions');

const prompt = (await readStdin()).trim();
// The first word picks the scenario, so a longer prompt (a subagent's task) is a normal answer.
const scenario = prompt.split(/\s+/)[0];
const resume = flag('--resume');
const sessionId = resume ?? randomUUID();
const partial = args.includes('--include-partial-messages');
const model = flag('--model') ?? 'claude-sonnet-4-5-20250929';
record(options, { cli: 'claude', argv: args, prompt, cwd: process.cwd() });

const base = { session_id: sessionId, parent_tool_use_id: null };
const uuid = () => randomUUID();
const init = {
  type: 'system',
  subtype: 'init',
  cwd: process.cwd(),
  session_id: sessionId,
  tools: ['Bash', 'Read', 'Edit', 'Write'],
  mcp_servers: [],
  model,
  permissionMode: flag('--permission-mode') ?? 'default',
  apiKeySource: 'none',
  uuid: uuid(),
};
const usage = {
  input_tokens: 12,
  cache_creation_input_tokens: 100,
  cache_read_input_tokens: 300,
  output_tokens: 40,
  service_tier: 'standard',
};
const textMessage = (text) => ({
  type: 'assistant',
  message: {
    id: `msg_${uuid()}`,
    type: 'message',
    role: 'assistant',
    model,
    content: [{ type: 'text', text }],
    stop_reason: null,
    usage: { input_tokens: 6, output_tokens: 20 },
  },
  ...base,
  uuid: uuid(),
});
const deltas = (text) =>
  partial
    ? [
        { type: 'stream_event', event: { type: 'message_start', message: { model } }, ...base, uuid: uuid() },
        ...text.match(/.{1,6}/gs).map((piece) => ({
          type: 'stream_event',
          event: { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: piece } },
          ...base,
          uuid: uuid(),
        })),
      ]
    : [];
const result = (fields) => ({
  type: 'result',
  subtype: 'success',
  is_error: false,
  duration_ms: 1234,
  duration_api_ms: 1000,
  num_turns: 2,
  session_id: sessionId,
  total_cost_usd: 0.0123,
  usage,
  permission_denials: [],
  uuid: uuid(),
  ...fields,
});

await emit(init);
if (scenario === 'crash') {
  await emit(...deltas('Starting on it'), textMessage('Starting on it'));
  await writeRaw('{"type":"assistant","message":{"content":[{"type":"te');
  process.stderr.write('fatal: simulated crash in the fake claude\n');
  process.exit(3);
}
if (scenario === 'hang') {
  const grandchild = options.holdPort ? startGrandchild(options.holdPort) : undefined;
  record(options, { cli: 'claude', grandchild });
  await emit(...deltas('Working on it'));
  setInterval(() => {}, 1e9);
} else if (scenario === 'ask') {
  // The tool is one the permission mode would refuse: ask the --permission-prompt-tool, as Claude Code does.
  const id = `toolu_${uuid()}`;
  const input = { file_path: 'notes.md', old_string: 'a', new_string: 'b' };
  const verdict = await askPermission('Edit', input, id);
  await emit({
    type: 'assistant',
    message: { role: 'assistant', model, content: [{ type: 'tool_use', id, name: 'Edit', input }] },
    ...base,
    uuid: uuid(),
  });
  const allowed = verdict.behavior === 'allow';
  const output = allowed ? 'The file notes.md has been updated.' : verdict.message;
  const answer = allowed ? 'Edited notes.md.' : 'I was not allowed to edit notes.md.';
  await emit(
    {
      type: 'user',
      message: {
        role: 'user',
        content: [{ type: 'tool_result', tool_use_id: id, content: output, is_error: !allowed }],
      },
      ...base,
      uuid: uuid(),
    },
    ...deltas(answer),
    textMessage(answer),
    result({ result: answer }),
  );
} else if (scenario === 'fail') {
  await emit(result({ subtype: 'error_during_execution', is_error: true, result: 'API Error: 529 overloaded' }));
} else if (scenario === 'deny') {
  const id = `toolu_${uuid()}`;
  await emit(
    {
      type: 'assistant',
      message: {
        role: 'assistant',
        model,
        content: [{ type: 'tool_use', id, name: 'Edit', input: { file_path: 'a.txt' } }],
      },
      ...base,
      uuid: uuid(),
    },
    {
      type: 'user',
      message: {
        role: 'user',
        content: [
          {
            type: 'tool_result',
            tool_use_id: id,
            is_error: true,
            content: 'Claude requested permissions to use Edit, but you have not granted it yet.',
          },
        ],
      },
      ...base,
      uuid: uuid(),
    },
    ...deltas('I could not edit the file.'),
    textMessage('I could not edit the file.'),
    result({
      result: 'I could not edit the file.',
      permission_denials: [{ tool_name: 'Edit', tool_use_id: id, tool_input: { file_path: 'a.txt' } }],
    }),
  );
} else {
  const id = `toolu_${uuid()}`;
  const answer = resume ? `Resumed ${sessionId}: you said ${prompt}` : `Listing the files for: ${prompt}`;
  await emit(
    ...deltas('Let me look.'),
    textMessage('Let me look.'),
    {
      type: 'assistant',
      message: {
        role: 'assistant',
        model,
        content: [{ type: 'tool_use', id, name: 'Bash', input: { command: 'ls' } }],
      },
      ...base,
      uuid: uuid(),
    },
    {
      type: 'user',
      message: {
        role: 'user',
        content: [{ type: 'tool_result', tool_use_id: id, content: 'notes.md\nSOUL.md', is_error: false }],
      },
      ...base,
      uuid: uuid(),
    },
    ...deltas(answer),
    textMessage(answer),
    result({ result: answer }),
  );
}

/** Calls the permission prompt tool named by --permission-prompt-tool on the --mcp-config server. */
async function askPermission(toolName, input, toolUseId) {
  const tool = flag('--permission-prompt-tool');
  const config = flag('--mcp-config');
  if (!tool || !config) fail('fake claude: "ask" needs --permission-prompt-tool and --mcp-config');
  const [, serverName, mcpTool] = tool.split('__');
  const server = JSON.parse(config).mcpServers[serverName];
  const { Client } = await import('@modelcontextprotocol/sdk/client/index.js');
  const { StreamableHTTPClientTransport } = await import('@modelcontextprotocol/sdk/client/streamableHttp.js');
  const client = new Client({ name: 'fake-claude', version: '1.0.0' });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(server.url), { requestInit: { headers: server.headers } }),
  );
  const answer = await client.callTool({
    name: mcpTool,
    arguments: { tool_name: toolName, input, tool_use_id: toolUseId },
  });
  await client.close();
  return JSON.parse(answer.content[0].text);
}
