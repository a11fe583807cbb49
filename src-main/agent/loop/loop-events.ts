import type { AgentMessage, ToolCallMessage, ToolResultMessage, Usage } from '../messages.js';

/** What the loop reports as it runs; the runtime maps these to `chat` / `agent` wire events. */
export type AgentLoopEvent =
  | { type: 'start'; step: number; model: string }
  | { type: 'text_delta'; delta: string /** The assistant text of this step so far. */; text: string }
  | { type: 'tool_call'; call: ToolCallMessage }
  | { type: 'tool_result'; result: ToolResultMessage }
  | { type: 'usage'; usage: Usage }
  | { type: 'end'; stopReason: string }
  | { type: 'error'; error: unknown };

export type AgentLoopStatus = 'ok' | 'error' | 'aborted';

export interface AgentLoopResult {
  status: AgentLoopStatus;
  /** Messages this turn produced (partial ones too, marked by stopReason), in transcript order. */
  messages: AgentMessage[];
  usage: Usage;
  stopReason: string;
  /** Something the user could notice happened: text streamed or a tool ran. A retry would repeat it. */
  sideEffects: boolean;
  error?: unknown;
}

/** The provider answered with neither text nor a tool call. */
export class EmptyResponseError extends Error {
  constructor(model: string) {
    super(`${model} returned an empty response`);
    this.name = 'EmptyResponseError';
  }
}

export const zeroUsage = (): Usage => ({ inputTokens: 0, outputTokens: 0, cachedInputTokens: 0 });

export function addUsage(a: Usage, b: Usage): Usage {
  return {
    inputTokens: a.inputTokens + b.inputTokens,
    outputTokens: a.outputTokens + b.outputTokens,
    cachedInputTokens: a.cachedInputTokens + b.cachedInputTokens,
  };
}
