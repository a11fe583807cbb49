import type { z } from 'zod';
import type { Logger } from '../base/logger.js';

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
}

/** A tool the model can call. Capabilities (exec, memory, …) build these; the agent loop calls them. */
export interface ToolDefinition<Input = unknown> {
  name: string;
  /** Short: tool schemas are sent every turn, so every word costs tokens. */
  description: string;
  inputSchema: z.ZodType<Input>;
  execute(input: Input, context: ToolContext): Promise<ToolOutput>;
}

export interface ToolOutput {
  output: string;
  isError?: boolean;
}
