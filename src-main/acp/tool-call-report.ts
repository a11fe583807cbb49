import type * as acp from '@agentclientprotocol/sdk';
import type { AgentToolData } from '../protocol/index.js';

/** What kind of tool a Hearth tool is, for the editor's icon and grouping (ACP `ToolKind`). */
export function toolKindOf(name: string): acp.ToolKind {
  if (name === 'exec' || name === 'process') return 'execute';
  if (name === 'read' || name === 'list' || name === 'find' || name.endsWith('_read') || name.endsWith('_get')) {
    return 'read';
  }
  if (name === 'write' || name === 'edit' || name === 'apply_patch' || name.endsWith('_write')) return 'edit';
  if (name === 'grep' || name.endsWith('_search') || name.endsWith('_list')) return 'search';
  if (name.startsWith('web_')) return 'fetch';
  return 'other';
}

/** A short human title: the command of a shell call, the path of a file tool, else the tool's name. */
export function toolTitleOf(name: string, input: unknown): string {
  const fields = (input ?? {}) as Record<string, unknown>;
  for (const field of ['command', 'path', 'file_path', 'url', 'query', 'pattern']) {
    const value = fields[field];
    if (typeof value === 'string' && value.trim() !== '') {
      const shown = value.length > 120 ? `${value.slice(0, 117)}…` : value;
      return `${name}: ${shown}`;
    }
  }
  return name;
}

/** The `session/update` a Hearth `agent` tool event becomes: a new `tool_call`, or its `tool_call_update`. */
export function toolCallUpdateOf(data: AgentToolData): acp.SessionUpdate {
  if (data.phase === 'call') {
    return {
      sessionUpdate: 'tool_call',
      toolCallId: data.toolCallId,
      title: toolTitleOf(data.name, data.input),
      kind: toolKindOf(data.name),
      status: 'in_progress',
      rawInput: data.input,
    };
  }
  return {
    sessionUpdate: 'tool_call_update',
    toolCallId: data.toolCallId,
    status: data.isError ? 'failed' : 'completed',
  };
}
