import type {
  CliBackendService,
  CliStreamEvent,
  CliStreamParser,
  CliTurnInput,
} from '../../src-main/plugins/sdk/index.js';

/**
 * Codex non-interactive: `codex exec --json -` (the prompt on stdin), and
 * `codex exec --json … resume <thread_id> -` for the next turn of the same Hearth session.
 * `--skip-git-repo-check`: an agent's workspace is usually not a git repository.
 *
 * Permissions: exec never asks (its approval policy is `never`), so the sandbox is the limit:
 * `read-only` or `workspace-write`; never `danger-full-access` or
 * `--dangerously-bypass-approvals-and-sandbox`.
 */
export const codexBackend: CliBackendService = {
  id: 'codex',
  label: 'Codex',
  defaultCommand: 'codex',
  invocation(input: CliTurnInput) {
    const args = ['exec', '--json', '--skip-git-repo-check', '--sandbox', input.access];
    if (input.model) args.push('--model', input.model);
    if (input.resumeId) args.push('resume', input.resumeId);
    args.push('-');
    return { args, stdin: input.prompt };
  },
  parser: () => new CodexStreamParser(),
};

type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null;
const num = (value: unknown): number => (typeof value === 'number' && Number.isFinite(value) ? value : 0);
const str = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);

class CodexStreamParser implements CliStreamParser {
  private readonly started = new Set<string>();
  private wroteText = false;

  line(value: unknown): CliStreamEvent[] {
    if (!isObject(value)) return [];
    switch (value.type) {
      case 'thread.started':
        return typeof value.thread_id === 'string' ? [{ type: 'session', sessionId: value.thread_id }] : [];
      case 'item.started':
        return isObject(value.item) ? this.itemStarted(value.item) : [];
      case 'item.completed':
        return isObject(value.item) ? this.itemCompleted(value.item) : [];
      case 'turn.completed': {
        const usage = isObject(value.usage) ? value.usage : {};
        return [
          {
            type: 'usage',
            // Codex's input_tokens already include the cached ones, as Hearth counts them.
            inputTokens: num(usage.input_tokens),
            outputTokens: num(usage.output_tokens),
            cachedInputTokens: num(usage.cached_input_tokens),
          },
          { type: 'done' },
        ];
      }
      case 'turn.failed': {
        const error = isObject(value.error) ? str(value.error.message) : undefined;
        return [{ type: 'done', error: error ?? 'the turn failed' }];
      }
      case 'error':
        // A stream error (reconnecting…) may still be followed by turn.completed, which then wins.
        return [{ type: 'done', error: str(value.message) ?? 'codex reported an error' }];
      default:
        return [];
    }
  }

  private itemStarted(item: Json): CliStreamEvent[] {
    const call = toolCallOf(item);
    if (!call) return [];
    this.started.add(call.id);
    return [call];
  }

  private itemCompleted(item: Json): CliStreamEvent[] {
    if (item.type === 'agent_message') {
      const text = str(item.text);
      if (!text) return [];
      const delta = this.wroteText ? `\n\n${text}` : text;
      this.wroteText = true;
      return [{ type: 'text', delta }];
    }
    const call = toolCallOf(item);
    if (!call) return [];
    // Some items (file changes) arrive only completed: their call is announced here, then the result.
    const events: CliStreamEvent[] = this.started.has(call.id) ? [] : [call];
    this.started.delete(call.id);
    this.wroteText = false;
    events.push({ type: 'tool_result', id: call.id, name: call.name, ...resultOf(item) });
    return events;
  }
}

function toolCallOf(item: Json): Extract<CliStreamEvent, { type: 'tool_call' }> | undefined {
  const id = str(item.id);
  if (!id) return undefined;
  switch (item.type) {
    case 'command_execution':
      return { type: 'tool_call', id, name: 'shell', input: { command: item.command } };
    case 'file_change':
      return { type: 'tool_call', id, name: 'file_change', input: { changes: item.changes ?? [] } };
    case 'mcp_tool_call':
      return {
        type: 'tool_call',
        id,
        name: `${str(item.server) ?? 'mcp'}.${str(item.tool) ?? 'tool'}`,
        input: item.arguments ?? {},
      };
    case 'web_search':
      return { type: 'tool_call', id, name: 'web_search', input: { query: item.query } };
    default:
      return undefined;
  }
}

function resultOf(item: Json): { output: string; isError?: boolean } {
  const failed = item.status === 'failed' || item.status === 'declined';
  switch (item.type) {
    case 'command_execution': {
      const exit = item.exit_code;
      const isError = failed || (typeof exit === 'number' && exit !== 0);
      return { output: str(item.aggregated_output) ?? '', ...(isError ? { isError } : {}) };
    }
    case 'file_change': {
      const changes = Array.isArray(item.changes) ? item.changes : [];
      const lines = changes.map((c) => (isObject(c) ? `${str(c.kind) ?? 'change'} ${str(c.path) ?? '?'}` : '?'));
      return { output: lines.join('\n'), ...(failed ? { isError: true } : {}) };
    }
    case 'mcp_tool_call': {
      const error = isObject(item.error) ? str(item.error.message) : undefined;
      if (error) return { output: error, isError: true };
      return { output: mcpResultText(item.result), ...(failed ? { isError: true } : {}) };
    }
    default:
      return { output: '', ...(failed ? { isError: true } : {}) };
  }
}

function mcpResultText(result: unknown): string {
  if (!isObject(result) || !Array.isArray(result.content)) return result === undefined ? '' : JSON.stringify(result);
  return result.content
    .map((part) => (isObject(part) && typeof part.text === 'string' ? part.text : JSON.stringify(part)))
    .join('\n');
}
