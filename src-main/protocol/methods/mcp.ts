import { z } from 'zod';
import { method } from './define.js';

/** One configured MCP server as the client sees it (docs/MCP.md). */
export interface McpServerStatus {
  name: string;
  transport: 'stdio' | 'http' | 'sse';
  enabled: boolean;
  /**
   * `idle`: not started yet (servers start when an agent that uses them runs a turn);
   * `restarting`: a stdio server stopped and waits for its next start (backoff);
   * `failed`: could not start, or kept stopping (started again on next use);
   * `needs_auth`: a remote server that wants OAuth and has no (or no longer valid) tokens:
   * `mcp.auth.start` answers the URL the person opens to authorize Hearth.
   */
  state: 'idle' | 'starting' | 'ready' | 'restarting' | 'failed' | 'stopped' | 'needs_auth';
  toolCount: number;
  /** Resources the server lists (present when it offers the resources capability). */
  resourceCount?: number;
  /** Prompts the server lists (present when it offers the prompts capability). */
  promptCount?: number;
  /** A remote server Hearth may authorize with OAuth: whether tokens are stored, and until when the access token is good. */
  oauth?: { authorized: boolean; expiresAt?: number };
  /** Restarts after the server stopped on its own. */
  restarts: number;
  lastError?: string;
  lastErrorAt?: number;
  connectedAt?: number;
}

/** A tool of a server as Hearth offers it to agents. */
export interface McpToolInfo {
  /** What the model calls: `<server>__<tool>`. */
  name: string;
  /** The server's own name of the tool. */
  tool: string;
  description: string;
  /** `read` runs without asking; `write` and `dangerous` ask for approval. */
  access: 'read' | 'write' | 'dangerous';
}

export interface McpServersTestResult {
  ok: boolean;
  server: McpServerStatus;
  tools: McpToolInfo[];
  /** Why it could not connect (also the server's lastError). */
  error?: string;
}

export interface McpServersImportResult {
  /** The entries added to (or, without `apply`, that would be added to) `mcp.servers`, as written. */
  servers: Record<string, Record<string, unknown>>;
  /** What changed on the way in: renamed servers, fields Hearth does not use, names already taken. */
  notes: string[];
  /** Entries left out, each naming the server and what is wrong. */
  errors: string[];
  applied: boolean;
}

/** An MCP tool the person answered "allow always" for. */
export interface McpAlwaysAllowedInfo {
  /** `<server>__<tool>`. */
  tool: string;
  addedAtMs: number;
}

/** `mcp.auth.start`: the server is usable now, or the URL to open in the browser. */
export type McpAuthStartResult =
  | { authorized: true; server: McpServerStatus }
  | { authorized: false; authorizationUrl: string; server: McpServerStatus };

/** A prompt template a server offers (`prompts/list`). */
export interface McpPromptInfo {
  server: string;
  name: string;
  title?: string;
  description?: string;
  arguments: { name: string; description?: string; required?: boolean }[];
}

/** A prompt filled in by its server (`prompts/get`): each message's content as text (binary parts named, not inlined). */
export interface McpPromptGetResult {
  server: string;
  name: string;
  description?: string;
  messages: { role: 'user' | 'assistant'; text: string }[];
}

export const mcpMethods = {
  'mcp.servers.list': method<{ servers: McpServerStatus[] }>()({
    scope: 'operator.read',
    params: () => z.object({}).strict(),
  }),
  /**
   * Connects to a configured server (starting it if needed) and lists its tools. With `server`,
   * an entry not yet in hearth.json is tried once and stopped again: that runs its command, so admin.
   */
  'mcp.servers.test': method<McpServersTestResult>()({
    scope: 'operator.admin',
    params: () =>
      z
        .object({
          name: z.string().min(1).max(64),
          server: z.record(z.string(), z.unknown()).optional(),
        })
        .strict(),
  }),
  'mcp.approvals.list': method<{ always: McpAlwaysAllowedInfo[] }>()({
    scope: 'operator.read',
    params: () => z.object({}).strict(),
  }),
  /** The tool asks again from its next call on; `removed: false` when it was not allowed always. */
  'mcp.approvals.revoke': method<{ removed: boolean }>()({
    scope: 'operator.approvals',
    controlPlaneWrite: true,
    params: () => z.object({ tool: z.string().min(1).max(128) }).strict(),
  }),
  /**
   * Pasted JSON in the `mcpServers` shape Claude Desktop and Cursor use (or VS Code's `servers`):
   * what it adds to `mcp.servers`; with `apply`, written to hearth.json. No agent gets the tools until
   * its `mcp.servers` names the server.
   */
  'mcp.servers.import': method<McpServersImportResult>()({
    scope: 'operator.admin',
    controlPlaneWrite: true,
    params: () => z.object({ json: z.string().min(1).max(200_000), apply: z.boolean().optional() }).strict(),
  }),
  /**
   * OAuth for a remote server: connects if stored tokens (or a refresh) suffice, else registers
   * Hearth with the server's authorization server if needed and answers the authorization URL for
   * the person's browser; the redirect returns to the gateway's `/mcp/oauth/callback`.
   */
  'mcp.auth.start': method<McpAuthStartResult>()({
    scope: 'operator.admin',
    controlPlaneWrite: true,
    params: () => z.object({ server: z.string().min(1).max(64) }).strict(),
  }),
  /** Forgets a server's OAuth registration and tokens (the secret store entry); it needs authorizing again. */
  'mcp.auth.clear': method<{ server: McpServerStatus }>()({
    scope: 'operator.admin',
    controlPlaneWrite: true,
    params: () => z.object({ server: z.string().min(1).max(64) }).strict(),
  }),
  /**
   * The prompts of the enabled servers (or of one), starting them if needed; a server that cannot
   * be reached is in `errors` rather than failing the whole list.
   */
  'mcp.prompts.list': method<{ prompts: McpPromptInfo[]; errors: { server: string; error: string }[] }>()({
    scope: 'operator.write',
    params: () => z.object({ server: z.string().min(1).max(64).optional() }).strict(),
  }),
  'mcp.prompts.get': method<McpPromptGetResult>()({
    scope: 'operator.write',
    params: () =>
      z
        .object({
          server: z.string().min(1).max(64),
          name: z.string().min(1).max(256),
          arguments: z.record(z.string(), z.string()).optional(),
        })
        .strict(),
  }),
};
