import type { z } from 'zod';
import type { Logger } from '../base/logger.js';
import type { AgentMessage } from '../transcript/index.js';

/** What a tool sees when it runs. */
export interface ToolContext {
  agentId: string;
  sessionKey: string;
  workspaceDir: string;
  signal: AbortSignal;
  log: Logger;
  /** Stream partial output to the client (exec output, progress). */
  onProgress?(text: string): void;
  /** The resolved user identity, for per-user memory scope. */
  userId?: string;
  /** Who started the run: a person's turn (`default`), a heartbeat, or a cron job (which may not edit cron jobs). */
  runKind?: 'default' | 'heartbeat' | 'cron';
  /** The model this call's reply came from (`provider/model`), e.g. so `read` sends images only to a model that takes them. */
  modelRef?: string;
  /** The model's id for this call (what its result answers), e.g. so a subagent names the call that spawned it. */
  toolCallId?: string;
}

/** A tool the model can call. Capabilities (exec, memory, …) build these; the agent loop calls them. */
export interface ToolDefinition<Input = unknown> {
  name: string;
  /** Short: tool schemas are sent every turn, so every word costs tokens. */
  description: string;
  inputSchema: z.ZodType<Input>;
  /** Where it comes from, for the tool catalogue (tools/catalogue); default `builtin`. */
  source?: ToolSource;
  /**
   * A stable line for the system prompt while the agent has this tool (core or loadable), for
   * what a schema cannot say (the canvas exists and the person sees it). Never per-turn data.
   */
  promptLine?: string;
  execute(input: Input, context: ToolContext): Promise<ToolOutput>;
}

export interface ToolOutput {
  output: string;
  isError?: boolean;
  /** Images for the model beside the text (read of a PNG, a browser screenshot), base64. */
  images?: ToolImage[];
}

export interface ToolImage {
  mediaType: string;
  /** base64 */
  data: string;
}

export type ToolSource = 'builtin' | 'plugin' | 'channel' | 'mcp';

/**
 * Tools beyond a turn's core, found with `tools_search` and loaded with `tools_load`
 * (tools/catalogue). Their schemas are sent only once loaded, after the core, so the cached
 * prefix (system prompt + core schemas) does not move.
 */
export interface OnDemandTools {
  /** Every tool the model may call by name this turn, loaded or not (a name it already knows still works). */
  callable: readonly ToolDefinition[];
  /** Those whose schemas go to the model: the ones loaded in `messages` (the conversation so far), in load order. */
  loaded(messages: readonly AgentMessage[]): readonly ToolDefinition[];
}
