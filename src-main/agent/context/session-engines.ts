import type { ContextEngine, ContextEngineDeps } from './context-engine.js';
import type { ContextEngineRegistry } from './context-engine-registry.js';
import { LINEAR_CONTEXT_ENGINE_ID } from './linear-engine.js';

export interface SessionEnginesDeps {
  registry: ContextEngineRegistry;
  /** The engine an agent chose (`agents.list[].contextEngine`, else `agents.defaults.contextEngine`). */
  engineIdFor(agentId: string): string | undefined;
  /** What an engine is built with for one session. */
  engineDeps(agentId: string, sessionKey: string): ContextEngineDeps;
}

/** A session's context state: its engine, and which compaction summaries are already in its transcript. */
export interface SessionContext {
  engine: ContextEngine;
  persistedSummaries: Set<string>;
}

export interface SessionEngines {
  /**
   * The session's engine, built on first use with the agent's chosen engine and kept for the
   * life of the process: an engine holds the session's assembled history between turns, so a
   * config change of `contextEngine` applies to sessions started after it.
   */
  forSession(agentId: string, sessionKey: string): SessionContext;
}

export function createSessionEngines(deps: SessionEnginesDeps): SessionEngines {
  const sessions = new Map<string, SessionContext>();
  return {
    forSession(agentId, sessionKey) {
      let context = sessions.get(sessionKey);
      if (!context) {
        const factory = deps.registry.get(deps.engineIdFor(agentId) ?? LINEAR_CONTEXT_ENGINE_ID);
        context = { engine: factory.createEngine(deps.engineDeps(agentId, sessionKey)), persistedSummaries: new Set() };
        sessions.set(sessionKey, context);
      }
      return context;
    },
  };
}
