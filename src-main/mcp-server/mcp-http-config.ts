import { z } from 'zod';

/**
 * `gateway.mcpHttp`: Hearth's MCP server over Streamable HTTP at `/mcp` on the gateway's port
 * (docs/API.md). Off by default, like the OpenAI-compatible API: a bearer token then reaches
 * conversations, memory and approvals over plain HTTP.
 */
export const mcpHttpConfigSchema = z
  .object({ enabled: z.boolean().default(false) })
  .strict()
  .default({ enabled: false });
