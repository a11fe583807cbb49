import type {
  CliBackendService,
  CliStreamEvent,
  CliStreamParser,
  CliTurnInput,
} from '../../src-main/plugins/sdk/index.js';

/**
 * Claude Code in print mode: `claude -p --output-format stream-json --verbose` (stream-json needs
 * --verbose in print mode), with `--include-partial-messages` so text streams as it is written.
 * The prompt goes on stdin, not argv (no length limit, not visible in `ps`).
 *
 * Permissions: never `--dangerously-skip-permissions`. `read-only` is Claude Code's `default`
 * mode, in which print mode refuses every tool that would ask (edits, most commands) and reports
 * them as `permission_denials`; `workspace-write` is `acceptEdits`. When Hearth serves a permission
 * prompt tool, those prompts go to the Hearth user's approvals instead of being refused.
 */
export const claudeCodeBackend: CliBackendService = {
  id: 'claude-code',
  label: 'Claude Code',
  defaultCommand: 'claude',
  permissionPrompts: 'mcp-tool',
  invocation(input: CliTurnInput) {
    const args = ['-p', '--output-format', 'stream-json', '--verbose', '--include-partial-messages'];
    args.push('--permission-mode', input.access === 'workspace-write' ? 'acceptEdits' : 'default');
    if (input.model) args.push('--model', input.model);
    if (input.resumeId) args.push('--resume', input.resumeId);
    // What the mode would refuse is asked of the Hearth user instead (Hearth's approvals).
    if (input.permissionPrompt) {
      args.push('--mcp-config', input.permissionPrompt.mcpConfig);
      args.push('--permission-prompt-tool', input.permissionPrompt.tool);
    }
    return { args, stdin: input.prompt };
  },
  parser: () => new ClaudeStreamParser(),
};

type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null;
const num = (value: unknown): number => (typeof value === 'number' && Number.isFinite(value) ? value : 0);

class ClaudeStreamParser implements CliStreamParser {
  /** Text streamed as deltas since the last whole assistant message, which then repeats it. */
  private streamed = false;
  private readonly toolNames = new Map<string, string>();

  line(value: unknown): CliStreamEvent[] {
    if (!isObject(value)) return [];
    switch (value.type) {
      case 'system':
        if (value.subtype === 'init' && typeof value.session_id === 'string') {
          return [
            {
              type: 'session',
              sessionId: value.session_id,
              ...(typeof value.model === 'string' ? { model: value.model } : {}),
            },
          ];
        }
        return [];
      case 'stream_event':
        return this.streamEvent(value.event);
      case 'assistant':
        return this.assistant(value.message);
      case 'user':
        return this.user(value.message);
      case 'result':
        return this.result(value);
      default:
        return [];
    }
  }

  private streamEvent(event: unknown): CliStreamEvent[] {
    if (!isObject(event) || event.type !== 'content_block_delta' || !isObject(event.delta)) return [];
    if (event.delta.type !== 'text_delta' || typeof event.delta.text !== 'string' || !event.delta.text) return [];
    this.streamed = true;
    return [{ type: 'text', delta: event.delta.text }];
  }

  private assistant(message: unknown): CliStreamEvent[] {
    const content = isObject(message) && Array.isArray(message.content) ? message.content : [];
    const events: CliStreamEvent[] = [];
    for (const block of content) {
      if (!isObject(block)) continue;
      if (block.type === 'text' && typeof block.text === 'string' && block.text && !this.streamed) {
        events.push({ type: 'text', delta: block.text });
      } else if (block.type === 'tool_use' && typeof block.id === 'string') {
        const name = typeof block.name === 'string' ? block.name : 'tool';
        this.toolNames.set(block.id, name);
        events.push({ type: 'tool_call', id: block.id, name, input: block.input ?? {} });
      }
    }
    this.streamed = false;
    return events;
  }

  private user(message: unknown): CliStreamEvent[] {
    const content = isObject(message) && Array.isArray(message.content) ? message.content : [];
    const events: CliStreamEvent[] = [];
    for (const block of content) {
      if (!isObject(block) || block.type !== 'tool_result' || typeof block.tool_use_id !== 'string') continue;
      events.push({
        type: 'tool_result',
        id: block.tool_use_id,
        name: this.toolNames.get(block.tool_use_id) ?? 'tool',
        output: textOf(block.content),
        ...(block.is_error === true ? { isError: true } : {}),
      });
    }
    return events;
  }

  private result(value: Json): CliStreamEvent[] {
    const events: CliStreamEvent[] = [];
    if (isObject(value.usage)) {
      const usage = value.usage;
      const cached = num(usage.cache_read_input_tokens);
      // Hearth counts cached tokens inside inputTokens (as the AI SDK reports them).
      events.push({
        type: 'usage',
        inputTokens: num(usage.input_tokens) + num(usage.cache_creation_input_tokens) + cached,
        outputTokens: num(usage.output_tokens),
        cachedInputTokens: cached,
      });
    }
    if (Array.isArray(value.permission_denials)) {
      for (const denial of value.permission_denials) {
        if (!isObject(denial)) continue;
        events.push({
          type: 'permission_denied',
          name: typeof denial.tool_name === 'string' ? denial.tool_name : 'tool',
          ...(typeof denial.tool_use_id === 'string' ? { id: denial.tool_use_id } : {}),
        });
      }
    }
    const failed = value.is_error === true || (typeof value.subtype === 'string' && value.subtype !== 'success');
    if (!failed) return [...events, { type: 'done' }];
    const detail =
      typeof value.result === 'string' && value.result
        ? value.result
        : Array.isArray(value.errors) && value.errors.length
          ? value.errors.map(String).join('; ')
          : String(value.subtype ?? 'error');
    return [...events, { type: 'done', error: detail }];
  }
}

/** A tool_result's content: a string, or text blocks (images and the rest are named, not inlined). */
function textOf(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content
    .map((part) =>
      isObject(part) && part.type === 'text' && typeof part.text === 'string'
        ? part.text
        : `[${isObject(part) ? String(part.type) : 'part'}]`,
    )
    .join('\n');
}
