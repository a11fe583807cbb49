import { type Disposable, toDisposable } from '../base/disposable.js';
import type { ToolDefinition } from '../tools/tool.js';

/**
 * Where the agent asks for a session's channel tools (`channels.<id>.agentTools`). The agent is
 * wired before the channels (which start last, once it can answer them), so the channel host
 * binds itself here when it runs; until then, and after it stops, a session has no channel tools.
 */
export interface ChannelToolsSlot {
  forSession(sessionKey: string): readonly ToolDefinition[];
  bind(lookup: (sessionKey: string) => readonly ToolDefinition[]): Disposable;
}

export function createChannelToolsSlot(): ChannelToolsSlot {
  let lookup: ((sessionKey: string) => readonly ToolDefinition[]) | undefined;
  return {
    forSession: (sessionKey) => lookup?.(sessionKey) ?? [],
    bind(next) {
      lookup = next;
      return toDisposable(() => {
        if (lookup === next) lookup = undefined;
      });
    },
  };
}
