import type { ToolOutput } from '../tools/tool.js';

/** The parts of an MCP `tools/call` result Hearth reads (the SDK's CallToolResult, loosely). */
export interface McpCallResult {
  content?: unknown[];
  structuredContent?: unknown;
  isError?: boolean;
  /** Pre-2025 servers answer `{ toolResult }`. */
  toolResult?: unknown;
}

/**
 * One text for the model. Binary parts (images, audio, blobs) are named with their type and
 * size instead of sent as base64, which would only fill the context; the text then goes through
 * the turn's tool-result truncation like any other tool's output.
 */
export function formatMcpResult(result: McpCallResult): ToolOutput {
  const parts: string[] = [];
  for (const item of result.content ?? []) parts.push(formatContent(item));
  if (parts.length === 0 && result.structuredContent !== undefined)
    parts.push(JSON.stringify(result.structuredContent));
  if (parts.length === 0 && result.toolResult !== undefined)
    parts.push(typeof result.toolResult === 'string' ? result.toolResult : JSON.stringify(result.toolResult));
  const output = parts.join('\n') || '(no output)';
  return result.isError ? { output, isError: true } : { output };
}

function formatContent(item: unknown): string {
  if (typeof item !== 'object' || item === null) return String(item);
  const part = item as Record<string, unknown>;
  switch (part.type) {
    case 'text':
      return String(part.text ?? '');
    case 'image':
    case 'audio':
      return `[${part.type} ${String(part.mimeType ?? 'unknown type')}, ${base64Bytes(part.data)} bytes, not shown]`;
    case 'resource': {
      const resource = (part.resource ?? {}) as Record<string, unknown>;
      if (typeof resource.text === 'string') return `[resource ${String(resource.uri ?? '')}]\n${resource.text}`;
      return `[resource ${String(resource.uri ?? '')} ${String(resource.mimeType ?? 'binary')}, ${base64Bytes(resource.blob)} bytes, not shown]`;
    }
    case 'resource_link':
      return `[link ${String(part.name ?? '')} ${String(part.uri ?? '')}]`;
    default:
      return JSON.stringify(item);
  }
}

function base64Bytes(data: unknown): number {
  if (typeof data !== 'string') return 0;
  const padding = data.endsWith('==') ? 2 : data.endsWith('=') ? 1 : 0;
  return Math.max(0, Math.floor((data.length * 3) / 4) - padding);
}
