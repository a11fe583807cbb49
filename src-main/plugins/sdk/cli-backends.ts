import type { Contribution, PluginServiceContext } from './contributions.js';

// SDK types for CLI backends: an external coding agent (Claude Code, Codex…) run as the engine of
// a Hearth agent. A backend only knows its CLI: how to call it for one turn and how to read its
// JSONL stream. Hearth (src-main/cli-backends) spawns it, kills it, meters it and keeps its
// session id, so a backend is pure and a plugin never touches processes.

/** How much a CLI may do on the machine; each backend maps it onto its own safe modes. */
export type CliAccess = 'read-only' | 'workspace-write';

/** One turn as the backend sees it. */
export interface CliTurnInput {
  /** The person's message. */
  prompt: string;
  /** The CLI's own session id from the previous turn of this Hearth session, to resume. */
  resumeId?: string;
  /** `agents.list[].engine.model`, when set. */
  model?: string;
  access: CliAccess;
  /** The agent's workspace, which is the CLI's working folder. */
  cwd: string;
  /**
   * For a backend with `permissionPrompts: 'mcp-tool'`: a loopback MCP server (its `--mcp-config`
   * JSON) whose tool (`--permission-prompt-tool`) asks Hearth's approvals for the CLI.
   */
  permissionPrompt?: { mcpConfig: string; tool: string };
}

/** The CLI's arguments (after the command) and what goes to its stdin (then closed). */
export interface CliInvocation {
  args: string[];
  stdin?: string;
}

/** What a backend reads from its CLI's stream, in Hearth's terms. */
export type CliStreamEvent =
  /** The CLI's own session (Claude Code's session_id, Codex's thread_id): the next turn resumes it. */
  | { type: 'session'; sessionId: string; model?: string }
  /** Assistant text, in order; a backend never repeats text it already sent (deltas then the whole block). */
  | { type: 'text'; delta: string }
  | { type: 'tool_call'; id: string; name: string; input: unknown }
  | { type: 'tool_result'; id: string; name: string; output: string; isError?: boolean }
  /** Tokens of one or more model calls the CLI made; added to the usage meter. */
  | { type: 'usage'; inputTokens: number; outputTokens: number; cachedInputTokens: number; model?: string }
  /** A tool call the CLI's own permission mode refused (Hearth tells the person; it never widens the mode). */
  | { type: 'permission_denied'; name: string; id?: string }
  /** The turn ended: `error` when the CLI reported a failure (its message says which). */
  | { type: 'done'; error?: string };

/** Reads one CLI run's stream; stateful (one per turn), so it can drop repeats. */
export interface CliStreamParser {
  /** One parsed JSONL line; returns what it means (often nothing). */
  line(value: unknown): CliStreamEvent[];
}

export interface CliBackendService {
  /** What `agents.list[].engine.cli` names, e.g. "claude-code". */
  id: string;
  /** Shown as the run's model and in errors. */
  label: string;
  /** The program when `engine.command` is not set, e.g. "claude". */
  defaultCommand: string;
  /** The CLI can hand its permission prompts to an MCP tool (Claude Code's `--permission-prompt-tool`). */
  permissionPrompts?: 'mcp-tool';
  invocation(input: CliTurnInput): CliInvocation;
  parser(): CliStreamParser;
}

export type CliBackendContribution = Contribution<CliBackendService, PluginServiceContext>;
