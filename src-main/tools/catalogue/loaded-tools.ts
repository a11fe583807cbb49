import type { AgentMessage } from '../../transcript/index.js';

export const TOOLS_LOAD_NAME = 'tools_load';

/**
 * Names the model loaded in this conversation, first load first: the `names` of every
 * `tools_load` call whose result was not an error. Unknown names are the catalogue's to drop.
 */
export function loadedToolNames(messages: readonly AgentMessage[]): string[] {
  const pending = new Map<string, string[]>();
  const loaded: string[] = [];
  for (const message of messages) {
    if (message.kind === 'tool_call' && message.toolName === TOOLS_LOAD_NAME) {
      const names = (message.input as { names?: unknown } | undefined)?.names;
      if (Array.isArray(names))
        pending.set(
          message.toolCallId,
          names.filter((n): n is string => typeof n === 'string'),
        );
    } else if (message.kind === 'tool_result' && message.toolName === TOOLS_LOAD_NAME) {
      const names = pending.get(message.toolCallId);
      pending.delete(message.toolCallId);
      if (!names || message.isError) continue;
      for (const name of names) if (!loaded.includes(name)) loaded.push(name);
    }
  }
  return loaded;
}
