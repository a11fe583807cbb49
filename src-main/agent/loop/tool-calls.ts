import type { Logger } from '../../base/logger.js';
import type { ToolContext, ToolDefinition } from '../../tools/tool.js';
import type { ToolCallMessage, ToolResultMessage } from '../messages.js';

/** Approvals plug in here: allow (optionally with edited input) or deny with a reason the model sees. */
export type BeforeToolCallDecision = { allow: true; input?: unknown } | { allow: false; reason: string };

export interface ToolCallHooks {
  /** Must not throw; a throw is treated as a denial naming the error. */
  beforeToolCall?(call: ToolCallMessage, signal: AbortSignal): Promise<BeforeToolCallDecision> | BeforeToolCallDecision;
  /** Truncation plugs in here; returns the result to keep (and send to the model). */
  afterToolCall?(call: ToolCallMessage, result: ToolResultMessage): Promise<ToolResultMessage> | ToolResultMessage;
}

export interface RunToolCallInput {
  call: ToolCallMessage;
  tools: ReadonlyMap<string, ToolDefinition>;
  hooks: ToolCallHooks;
  context: Omit<ToolContext, 'signal'>;
  signal: AbortSignal;
  log: Logger;
  newId(): string;
  now(): number;
}

/** Runs one tool call through the hooks; every failure becomes an error result the model can read. */
export async function runToolCall(input: RunToolCallInput): Promise<ToolResultMessage> {
  const { call } = input;
  const result = (output: string, isError?: boolean, images?: ToolResultMessage['images']): ToolResultMessage => ({
    kind: 'tool_result',
    id: input.newId(),
    ts: input.now(),
    toolCallId: call.toolCallId,
    toolName: call.toolName,
    output,
    ...(isError ? { isError: true } : {}),
    ...(images?.length ? { images } : {}),
  });

  const tool = input.tools.get(call.toolName);
  let outcome: ToolResultMessage;
  if (!tool) {
    outcome = result(`unknown tool "${call.toolName}"`, true);
  } else {
    let decision: BeforeToolCallDecision;
    try {
      decision = (await input.hooks.beforeToolCall?.(call, input.signal)) ?? { allow: true };
    } catch (error) {
      decision = { allow: false, reason: `approval check failed: ${(error as Error).message}` };
    }
    if (!decision.allow) {
      outcome = result(`tool call denied: ${decision.reason}`, true);
    } else {
      const parsed = tool.inputSchema.safeParse(decision.input ?? call.input);
      if (!parsed.success) {
        outcome = result(
          `invalid input for ${call.toolName}: ${parsed.error.issues.map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`).join('; ')}`,
          true,
        );
      } else {
        try {
          const output = await tool.execute(parsed.data, {
            ...input.context,
            toolCallId: call.toolCallId,
            signal: input.signal,
          });
          outcome = result(output.output, output.isError, output.images);
        } catch (error) {
          input.log.warn('tool failed', { tool: call.toolName, error: (error as Error).message });
          outcome = result(`${call.toolName} failed: ${(error as Error).message}`, true);
        }
      }
    }
  }
  if (!input.hooks.afterToolCall) return outcome;
  try {
    return await input.hooks.afterToolCall(call, outcome);
  } catch (error) {
    input.log.warn('afterToolCall failed; keeping the raw result', { error: (error as Error).message });
    return outcome;
  }
}
