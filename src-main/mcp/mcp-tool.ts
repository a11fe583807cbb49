import { z } from 'zod';
import type { ApprovalGate } from '../exec/index.js';
import type { McpToolInfo } from '../protocol/methods/mcp.js';
import type { ToolDefinition, ToolOutput } from '../tools/tool.js';
import type { McpAlwaysAllowed } from './mcp-always-allowed.js';
import type { McpAccess } from './mcp-config.js';
import type { McpConnection, McpTool } from './mcp-connection.js';
import { formatMcpResult } from './mcp-result.js';

/** Providers accept tool names of [A-Za-z0-9_-], at most 64 characters. */
const maxToolName = 64;

/** `<server>__<tool>`, with characters providers refuse replaced by `_` and the length capped. */
export function agentToolName(server: string, tool: string): string {
  return `${server}__${tool.replace(/[^A-Za-z0-9_-]/g, '_')}`.slice(0, maxToolName);
}

/**
 * How much a tool may change: the person's setting for it, else its annotations. As the MCP spec
 * says, a tool that is not `readOnlyHint` is assumed destructive unless `destructiveHint: false`.
 */
export function accessOf(tool: Pick<McpTool, 'annotations'>, configured?: McpAccess): McpAccess {
  if (configured) return configured;
  if (tool.annotations?.readOnlyHint === true) return 'read';
  if (tool.annotations?.destructiveHint === false) return 'write';
  return 'dangerous';
}

/** The tool's JSON Schema as zod, so the loop validates the model's input and the provider gets the schema. */
export function inputSchemaOf(tool: Pick<McpTool, 'inputSchema'>): z.ZodType<Record<string, unknown>> {
  try {
    return z.fromJSONSchema(tool.inputSchema as Parameters<typeof z.fromJSONSchema>[0]) as z.ZodType<
      Record<string, unknown>
    >;
  } catch {
    // A schema zod cannot read ($ref cycles…): accept any object and let the server judge it.
    return z.looseObject({});
  }
}

export interface McpToolDeps {
  connection: McpConnection;
  approvals: ApprovalGate;
  /** Tools answered "allow always"; without it, only allow once, for this session and deny are offered. */
  alwaysAllowed?: McpAlwaysAllowed;
  now(): number;
}

export function describeMcpTool(server: string, tool: McpTool, configured?: McpAccess): McpToolInfo {
  return {
    name: agentToolName(server, tool.name),
    tool: tool.name,
    description: tool.description ?? tool.title ?? '',
    access: accessOf(tool, configured),
  };
}

/**
 * One MCP tool as an agent tool: approval first unless read-only, then the call, its result as text.
 * `write` tools offer once, for this session, always (this tool, its server, these arguments) and
 * deny; `dangerous` ones only once or deny, and no rule or session grant covers them.
 */
export function createMcpToolDefinition(
  deps: McpToolDeps,
  tool: McpTool,
  configured?: McpAccess,
): ToolDefinition<Record<string, unknown>> {
  const server = deps.connection.name;
  const info = describeMcpTool(server, tool, configured);
  return {
    name: info.name,
    description: info.description || `${tool.name} (MCP server ${server})`,
    inputSchema: inputSchemaOf(tool),
    source: 'mcp',
    async execute(input, context): Promise<ToolOutput> {
      // Read-only tools run without asking; a dangerous one asks every time, whatever was allowed before.
      const legacyAlways = info.access === 'write' && deps.alwaysAllowed?.has(info.name) === true;
      if (info.access !== 'read' && !legacyAlways) {
        const json = JSON.stringify(input ?? {});
        const command = `mcp ${info.name} ${shellQuote(json)}`;
        const resolution = await deps.approvals.request(
          {
            agentId: context.agentId,
            sessionKey: context.sessionKey,
            command,
            analysis: {
              commands: [{ name: 'mcp', args: [info.name, json], via: [], source: command }],
              findings: [],
              parseError: false,
            },
            reasons: [
              {
                code: info.access === 'dangerous' ? 'mcp-destructive' : 'mcp-write',
                detail:
                  info.access === 'dangerous'
                    ? `MCP server "${server}": ${tool.name} may change or delete things (not marked read-only)`
                    : `MCP server "${server}": ${tool.name} may change things (not marked read-only)`,
              },
            ],
            cwd: context.workspaceDir,
            host: `mcp:${server}`,
            askFallback: 'deny',
            allowlistSatisfied: false,
            // The service remembers and matches "for this session" and "always" (tool, server, exact arguments).
            subject: { kind: 'mcp', tool: info.name, server, args: json, access: info.access },
            allowedDecisions:
              info.access === 'dangerous' || !deps.alwaysAllowed
                ? ['allow-once', 'deny']
                : ['allow-once', 'allow-always', 'deny'],
            alwaysScopes: ['tool', 'server', 'exact'],
          },
          context.signal,
        );
        if (resolution.decision === 'deny')
          return {
            isError: true,
            output: `Not run: denied (${resolution.resolvedBy})${resolution.reason ? `: ${resolution.reason}` : ''}.`,
          };
        // Without a permission store behind the service, the tool's own list keeps "always".
        if (
          resolution.decision === 'allow-always' &&
          !resolution.ruleId &&
          (resolution.allowAlwaysScope ?? 'tool') === 'tool'
        )
          await deps.alwaysAllowed?.add(info.name, deps.now());
      }
      try {
        const progress = context.onProgress?.bind(context);
        return formatMcpResult(await deps.connection.callTool(tool.name, input ?? {}, context.signal, progress));
      } catch (error) {
        return { isError: true, output: error instanceof Error ? error.message : String(error) };
      }
    },
  };
}

function shellQuote(text: string): string {
  return `'${text.replace(/'/g, `'\\''`)}'`;
}
