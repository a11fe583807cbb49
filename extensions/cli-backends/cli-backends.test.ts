import { describe, expect, it } from 'vitest';
import type { CliBackendService, CliStreamEvent } from '../../src-main/plugins/sdk/index.js';
import { claudeCodeBackend } from './claude-code.js';
import { codexBackend } from './codex.js';

// The two backends' halves that do not need a process: the command line of one turn and the
// reading of each CLI's documented JSONL (src-main/host/cli-backends-in-host.test.ts runs them
// for real against the fake CLIs).

const read = (backend: CliBackendService, lines: unknown[]): CliStreamEvent[] => {
  const parser = backend.parser();
  return lines.flatMap((line) => parser.line(line));
};

describe('Claude Code', () => {
  it('runs print mode with stream-json (and --verbose, which it requires), its safe mode, and resumes', () => {
    const { args, stdin } = claudeCodeBackend.invocation({
      prompt: 'hi',
      resumeId: 'abc',
      model: 'sonnet',
      access: 'workspace-write',
      cwd: '/w',
    });
    expect(args).toEqual([
      '-p',
      '--output-format',
      'stream-json',
      '--verbose',
      '--include-partial-messages',
      '--permission-mode',
      'acceptEdits',
      '--model',
      'sonnet',
      '--resume',
      'abc',
    ]);
    expect(stdin).toBe('hi');
    expect(claudeCodeBackend.invocation({ prompt: 'x', access: 'read-only', cwd: '/w' }).args).toContain('default');
  });

  it('takes text from whole messages when nothing streamed, and never repeats streamed text', () => {
    const events = read(claudeCodeBackend, [
      { type: 'system', subtype: 'init', session_id: 's1', model: 'claude-x' },
      { type: 'assistant', message: { content: [{ type: 'text', text: 'whole' }] } },
      {
        type: 'stream_event',
        event: { type: 'content_block_delta', delta: { type: 'text_delta', text: 'str' } },
      },
      {
        type: 'stream_event',
        event: { type: 'content_block_delta', delta: { type: 'text_delta', text: 'eamed' } },
      },
      { type: 'assistant', message: { content: [{ type: 'text', text: 'streamed' }] } },
      {
        type: 'user',
        message: {
          content: [
            {
              type: 'tool_result',
              tool_use_id: 't1',
              content: [
                { type: 'text', text: 'a' },
                { type: 'image', source: {} },
              ],
            },
          ],
        },
      },
    ]);
    expect(events).toEqual([
      { type: 'session', sessionId: 's1', model: 'claude-x' },
      { type: 'text', delta: 'whole' },
      { type: 'text', delta: 'str' },
      { type: 'text', delta: 'eamed' },
      { type: 'tool_result', id: 't1', name: 'tool', output: 'a\n[image]' },
    ]);
  });

  it('reads an error result with its usage and the refused tools', () => {
    const events = read(claudeCodeBackend, [
      {
        type: 'result',
        subtype: 'error_max_turns',
        is_error: true,
        usage: { input_tokens: 1, cache_creation_input_tokens: 2, cache_read_input_tokens: 3, output_tokens: 4 },
        permission_denials: [{ tool_name: 'Bash', tool_use_id: 'u1' }],
      },
    ]);
    expect(events).toEqual([
      { type: 'usage', inputTokens: 6, outputTokens: 4, cachedInputTokens: 3 },
      { type: 'permission_denied', name: 'Bash', id: 'u1' },
      { type: 'done', error: 'error_max_turns' },
    ]);
  });
});

describe('Codex', () => {
  it('runs exec --json in its sandbox with the prompt on stdin, and resumes by thread id', () => {
    expect(codexBackend.invocation({ prompt: 'hi', resumeId: 't-1', access: 'read-only', cwd: '/w' })).toEqual({
      args: ['exec', '--json', '--skip-git-repo-check', '--sandbox', 'read-only', 'resume', 't-1', '-'],
      stdin: 'hi',
    });
  });

  it('reads MCP tool calls, file changes that only complete, and a recovered stream error', () => {
    const events = read(codexBackend, [
      { type: 'thread.started', thread_id: 't-1' },
      {
        type: 'item.started',
        item: { id: 'i1', type: 'mcp_tool_call', server: 'docs', tool: 'search', arguments: { q: 'x' } },
      },
      {
        type: 'item.completed',
        item: {
          id: 'i1',
          type: 'mcp_tool_call',
          server: 'docs',
          tool: 'search',
          status: 'completed',
          result: { content: [{ type: 'text', text: 'found' }] },
        },
      },
      {
        type: 'item.completed',
        item: { id: 'i2', type: 'file_change', changes: [{ path: 'a.md', kind: 'add' }], status: 'failed' },
      },
      { type: 'error', message: 'Reconnecting... 1/5' },
      { type: 'item.completed', item: { id: 'i3', type: 'agent_message', text: 'one' } },
      { type: 'item.completed', item: { id: 'i4', type: 'agent_message', text: 'two' } },
      { type: 'turn.completed', usage: { input_tokens: 10, cached_input_tokens: 4, output_tokens: 2 } },
    ]);
    expect(events).toEqual([
      { type: 'session', sessionId: 't-1' },
      { type: 'tool_call', id: 'i1', name: 'docs.search', input: { q: 'x' } },
      { type: 'tool_result', id: 'i1', name: 'docs.search', output: 'found' },
      { type: 'tool_call', id: 'i2', name: 'file_change', input: { changes: [{ path: 'a.md', kind: 'add' }] } },
      { type: 'tool_result', id: 'i2', name: 'file_change', output: 'add a.md', isError: true },
      { type: 'done', error: 'Reconnecting... 1/5' },
      { type: 'text', delta: 'one' },
      { type: 'text', delta: '\n\ntwo' },
      { type: 'usage', inputTokens: 10, outputTokens: 2, cachedInputTokens: 4 },
      // The last word wins in the engine: the turn completed.
      { type: 'done' },
    ]);
  });
});
