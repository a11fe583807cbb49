#!/usr/bin/env node
// Test support (never shipped): a fake Codex CLI. It takes `codex exec --json [--sandbox s]
// [--model m] [--skip-git-repo-check] [resume <thread_id>] -` (leading fake options:
// fake-cli-common.mjs), reads the prompt from stdin and writes `codex exec --json`'s documented
// JSONL: `thread.started` with the thread_id, `turn.started`, `item.started` / `item.completed`
// for command_execution, file_change and agent_message items, then `turn.completed` with usage,
// or `error` + `turn.failed`. The prompt's first word picks the scenario: "fail", "crash" (dies mid-stream),
// "hang" (runs until killed), anything else a normal answer with a command and a file change.
import { randomUUID } from 'node:crypto';
import { emit, fail, parseFakeOptions, readStdin, record, startGrandchild, writeRaw } from './fake-cli-common.mjs';

const { options, args } = parseFakeOptions(process.argv.slice(2));
if (args[0] !== 'exec') fail('fake codex: only `codex exec` is faked');
if (!args.includes('--json')) fail('fake codex: expected --json');
if (args.includes('--dangerously-bypass-approvals-and-sandbox')) fail('fake codex: refusing the bypass');
const sandbox = args[args.indexOf('--sandbox') + 1];
if (args.includes('--sandbox') && !['read-only', 'workspace-write'].includes(sandbox))
  fail(`fake codex: unexpected --sandbox ${sandbox}`);
const resumeAt = args.indexOf('resume');
const resume = resumeAt >= 0 ? args[resumeAt + 1] : undefined;
if (args.at(-1) !== '-') fail('fake codex: expected the prompt on stdin (-)');

const prompt = (await readStdin()).trim();
// The first word picks the scenario, so a longer prompt (a subagent's task) is a normal answer.
const scenario = prompt.split(/\s+/)[0];
const threadId = resume ?? randomUUID();
record(options, { cli: 'codex', argv: args, prompt, cwd: process.cwd() });

await emit({ type: 'thread.started', thread_id: threadId }, { type: 'turn.started' });
if (scenario === 'crash') {
  await emit({ type: 'item.completed', item: { id: 'item_0', type: 'agent_message', text: 'Starting on it' } });
  await writeRaw('{"type":"item.started","item":{"id":"item_1","ty');
  process.stderr.write('thread panicked: simulated crash in the fake codex\n');
  process.exit(101);
}
if (scenario === 'hang') {
  const grandchild = options.holdPort ? startGrandchild(options.holdPort) : undefined;
  record(options, { cli: 'codex', grandchild });
  await emit({ type: 'item.completed', item: { id: 'item_0', type: 'agent_message', text: 'Working on it' } });
  setInterval(() => {}, 1e9);
} else if (scenario === 'fail') {
  await emit(
    { type: 'error', message: 'stream disconnected before completion' },
    { type: 'turn.failed', error: { message: 'unexpected status 401 Unauthorized' } },
  );
} else {
  const answer = resume ? `Resumed ${threadId}: you said ${prompt}` : `Done: ${prompt}`;
  await emit(
    { type: 'item.completed', item: { id: 'item_0', type: 'reasoning', text: '**Looking at the files**' } },
    {
      type: 'item.started',
      item: {
        id: 'item_1',
        type: 'command_execution',
        command: 'bash -lc ls',
        aggregated_output: '',
        exit_code: null,
        status: 'in_progress',
      },
    },
    {
      type: 'item.completed',
      item: {
        id: 'item_1',
        type: 'command_execution',
        command: 'bash -lc ls',
        aggregated_output: 'notes.md\n',
        exit_code: 0,
        status: 'completed',
      },
    },
    {
      type: 'item.completed',
      item: { id: 'item_2', type: 'file_change', changes: [{ path: 'notes.md', kind: 'update' }], status: 'completed' },
    },
    { type: 'item.completed', item: { id: 'item_3', type: 'agent_message', text: answer } },
    { type: 'turn.completed', usage: { input_tokens: 500, cached_input_tokens: 200, output_tokens: 60 } },
  );
}
