import { z } from 'zod';
import type { ToolDefinition, ToolOutput } from '../tools/tool.js';
import type { McpConnection, McpResourceContents } from './mcp-connection.js';
import { formatMcpResult } from './mcp-result.js';
import { agentToolName } from './mcp-tool.js';

/**
 * A server's resources (MCP `resources/list`, `resources/read`) as two agent tools, present only
 * while the server offers the resources capability: `<server>__resources_list` and
 * `<server>__resource_read`. Reading changes nothing on the server, so neither asks for approval.
 * Their names in an agent's `mcp.tools.<server>` list are `resources_list` and `resource_read`.
 */
export const resourceToolNames = { list: 'resources_list', read: 'resource_read' } as const;

/** Longest resource list line sent to the model; descriptions can be long. */
const maxDescription = 200;

export function createResourceToolDefinitions(connection: McpConnection): Map<string, ToolDefinition> {
  const server = connection.name;
  const list: ToolDefinition<Record<string, never>> = {
    name: agentToolName(server, resourceToolNames.list),
    description: `List the resources (files, documents, records) MCP server ${server} offers, with their URIs`,
    inputSchema: z.object({}).strict() as z.ZodType<Record<string, never>>,
    source: 'mcp',
    async execute(_input, context): Promise<ToolOutput> {
      try {
        const { resources, templates } = await connection.resources(context.signal);
        if (resources.length === 0 && templates.length === 0)
          return { output: `MCP server "${server}" lists no resources.` };
        const lines = resources.map(
          (resource) =>
            `- ${resource.uri}  ${resource.title ?? resource.name}${resource.mimeType ? ` (${resource.mimeType})` : ''}${summaryOf(resource.description)}`,
        );
        if (templates.length > 0) {
          lines.push('', 'URI templates (fill in the {placeholders} and read the URI):');
          for (const template of templates)
            lines.push(
              `- ${template.uriTemplate}  ${template.title ?? template.name}${summaryOf(template.description)}`,
            );
        }
        return { output: lines.join('\n') };
      } catch (error) {
        return { isError: true, output: error instanceof Error ? error.message : String(error) };
      }
    },
  };
  const read: ToolDefinition<{ uri: string }> = {
    name: agentToolName(server, resourceToolNames.read),
    description: `Read a resource of MCP server ${server} by its URI (from ${agentToolName(server, resourceToolNames.list)})`,
    inputSchema: z.object({ uri: z.string().min(1).describe('the resource URI') }).strict(),
    source: 'mcp',
    async execute(input, context): Promise<ToolOutput> {
      try {
        return formatResourceContents(await connection.readResource(input.uri, context.signal));
      } catch (error) {
        return { isError: true, output: error instanceof Error ? error.message : String(error) };
      }
    },
  };
  return new Map<string, ToolDefinition>([
    [resourceToolNames.list, list as ToolDefinition],
    [resourceToolNames.read, read as ToolDefinition],
  ]);
}

/** Resource contents as tool output: text as it is, binary named with type and size, as tool results are. */
export function formatResourceContents(result: McpResourceContents): ToolOutput {
  const content = (result.contents ?? []).map((resource) => ({ type: 'resource', resource }));
  if (content.length === 0) return { output: '(the resource is empty)' };
  return formatMcpResult({ content });
}

function summaryOf(description: string | undefined): string {
  if (!description) return '';
  const line = description.replace(/\s+/g, ' ').trim();
  return `: ${line.length > maxDescription ? `${line.slice(0, maxDescription - 1)}…` : line}`;
}
