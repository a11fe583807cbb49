import { z } from 'zod';

/**
 * hearth.json's `mcp` section (the MCP client, issue 15) and each agent's `mcp` slice.
 * A server is a child process spoken to over stdio (`command`) or a remote one over
 * Streamable HTTP (`url`; `type: "sse"` for the older SSE transport).
 */

/** Server names become the prefix of tool names (`<server>__<tool>`), which providers limit to [A-Za-z0-9_-]. */
export const mcpServerNamePattern = /^[A-Za-z0-9-]+(?:_[A-Za-z0-9-]+)*$/;
const serverNameSchema = z
  .string()
  .max(32, 'an MCP server name has at most 32 characters')
  .regex(
    mcpServerNamePattern,
    'an MCP server name is letters, digits, "-" and single "_" (no "__", which separates server and tool)',
  );

/** A value taken from the secret store when the server starts, so hearth.json holds no token. */
export const secretRefSchema = z.object({ secret: z.string().min(1, 'secret: name the secret store entry') }).strict();
const valueSchema = z.union([z.string(), secretRefSchema], {
  error: 'must be a string or { "secret": "<secret store entry>" }',
});
export type McpValue = z.output<typeof valueSchema>;

/** `read` runs without asking; `write` and `dangerous` go through the approval queue. */
export const mcpAccessSchema = z.enum(['read', 'write', 'dangerous']);
export type McpAccess = z.output<typeof mcpAccessSchema>;

export const mcpServerConfigSchema = z
  .object({
    type: z.enum(['stdio', 'http', 'streamable-http', 'sse']).optional(),
    command: z.string().min(1, 'command must not be empty').optional(),
    args: z.array(z.string()).default([]),
    env: z.record(z.string(), valueSchema).default({}),
    cwd: z.string().min(1).optional(),
    url: z.url({ protocol: /^https?$/, error: 'url must be an http:// or https:// URL' }).optional(),
    headers: z.record(z.string(), valueSchema).default({}),
    enabled: z.boolean().default(true),
    /** Longest wait for one tool call; the call is cancelled after it (default 60 s). */
    timeoutMs: z.number().int().min(100).max(3_600_000).default(60_000),
    /** Longest wait for the server to start and list its tools (default 15 s). */
    connectTimeoutMs: z.number().int().min(100).max(300_000).default(15_000),
    /**
     * OAuth 2.1 for a remote server that asks for it (a 401 naming its authorization server). On by
     * default for a `url` without an Authorization header; `false` turns it off; `scope` is asked for
     * when the server's metadata names none.
     */
    oauth: z.union([z.boolean(), z.object({ scope: z.string().min(1).optional() }).strict()]).optional(),
    /** Per tool (the server's own name): override what its annotations say. */
    tools: z.record(z.string(), z.object({ access: mcpAccessSchema.optional() }).strict()).default({}),
  })
  .strict()
  .superRefine((server, ctx) => {
    const remote = server.type === 'http' || server.type === 'streamable-http' || server.type === 'sse';
    if (server.command && server.url)
      ctx.addIssue({ code: 'custom', message: 'give either command (stdio) or url (HTTP), not both' });
    else if (!server.command && !server.url)
      ctx.addIssue({ code: 'custom', message: 'needs command (a stdio server) or url (a Streamable HTTP server)' });
    else if (server.type === 'stdio' && !server.command)
      ctx.addIssue({ code: 'custom', path: ['command'], message: 'type "stdio" needs command' });
    else if (remote && !server.url)
      ctx.addIssue({ code: 'custom', path: ['url'], message: `type "${server.type}" needs url` });
  });

export type McpServerConfig = z.output<typeof mcpServerConfigSchema>;
export type McpServerConfigInput = z.input<typeof mcpServerConfigSchema>;

/** Root `mcp`: the servers by name. */
export const mcpConfigSchema = z
  .object({
    servers: z
      .record(z.string(), mcpServerConfigSchema)
      .superRefine((servers, ctx) => {
        for (const name of Object.keys(servers)) {
          const checked = serverNameSchema.safeParse(name);
          if (!checked.success)
            ctx.addIssue({ code: 'custom', path: [name], message: checked.error.issues[0]?.message ?? 'bad name' });
        }
      })
      .default({}),
  })
  .strict();

export type McpConfig = z.output<typeof mcpConfigSchema>;

/**
 * An agent's `mcp` (on `agents.list[]` or `agents.defaults`): which servers it uses and,
 * per server, which of its tools (the server's own names; absent: all of them).
 */
export const agentMcpConfigSchema = z
  .object({
    servers: z.array(serverNameSchema).default([]),
    tools: z.record(serverNameSchema, z.array(z.string().min(1))).default({}),
  })
  .strict();

export type AgentMcpConfig = z.output<typeof agentMcpConfigSchema>;

/** Whether Hearth may authorize with this server over OAuth (remote, no fixed Authorization header, not turned off). */
export function usesOAuth(server: McpServerConfig): boolean {
  if (transportOf(server) === 'stdio' || server.oauth === false) return false;
  return !Object.keys(server.headers).some((header) => header.toLowerCase() === 'authorization');
}

export function parseMcpConfig(raw: unknown): McpConfig {
  return mcpConfigSchema.parse(raw ?? {});
}

/** The transport a server entry means: `stdio`, `http` (Streamable HTTP) or `sse`. */
export function transportOf(server: McpServerConfig): 'stdio' | 'http' | 'sse' {
  if (server.type === 'sse') return 'sse';
  return server.command ? 'stdio' : 'http';
}
