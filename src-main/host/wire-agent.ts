import {
  type ContextEngineFactory,
  createCacheTraceWriter,
  createContextEngineRegistry,
  createSdkSummarizer,
  createSessionEngines,
  createSettledTraceWriter,
  createTurnHooks,
  type Summarizer,
} from '../agent/context/index.js';
import { createRuntimeServices, type RuntimeServices, type TurnEngine, type TurnScope } from '../agent/index.js';
import type { Clock } from '../base/clock.js';
import { type AsyncDisposable, AsyncDisposableStore } from '../base/disposable.js';
import type { Logger } from '../base/logger.js';
import { markTurnPhase } from '../base/turn-phases.js';
import type { GatewayCore } from '../gateway/gateway-core.js';
import type { HearthPaths } from '../paths/index.js';
import type { InstalledPlugins } from '../plugins/index.js';
import { type ModelProviderService, parseModelRef, resolveModelSelection } from '../providers/index.js';
import type { SecretStore } from '../secrets/index.js';
import type { Lanes, SessionStore } from '../sessions/index.js';
import { createToolCatalogue, resolveToolCatalogueSettings, type TurnToolSet } from '../tools/catalogue/index.js';
import type { ToolDefinition } from '../tools/tool.js';
import { type UsageService, withUsageTag } from '../usage/index.js';
import type { HearthConfigService } from './hearth-config.js';
import { accountOfSession, memoryFlushTarget } from './session-person.js';
import type { WiredMemory } from './wire-memory.js';
import type { WorkspaceBootstrap } from './workspace-bootstrap.js';

/** Used when the model's window is unknown (no model configured, or the catalogue has no entry). */
const fallbackContextWindow = 32_000;

export interface WiredAgent extends AsyncDisposable {
  services: RuntimeServices;
}

/**
 * The agent runtime: models and auth profiles, one context engine per session (the agent's
 * choice, plugins' engines included), and per turn the hooks of agent/context/turn-hooks.ts fed
 * with this host's workspace warning and memory recall.
 */
export async function wireAgent(deps: {
  core: Pick<GatewayCore, 'bus'>;
  config: Pick<HearthConfigService, 'current'>;
  paths: HearthPaths;
  clock: Clock;
  log: Logger;
  env: Record<string, string | undefined>;
  secrets: SecretStore;
  sessions: SessionStore;
  lanes: Lanes;
  plugins: InstalledPlugins;
  workspace: WorkspaceBootstrap;
  memory: WiredMemory;
  /** Every tool (built-in, plugin, MCP…), read each turn; the catalogue splits them into core and on-demand. */
  tools: readonly ToolDefinition[];
  /** The MCP tools of an agent's turn (host/wire-mcp.ts): only servers the agent enables. */
  mcpTools?(agentId: string): Promise<readonly ToolDefinition[]>;
  /** A session's own tools: the channel it is on gives its enabled agentTools (host/channel-tools-slot.ts). */
  sessionTools?(sessionKey: string): readonly ToolDefinition[];
  /** The usage meter: counts and caps every model call the runtime makes (src-main/usage). */
  usage?: Pick<UsageService, 'wrapModel' | 'aroundTurn'>;
  /** The agent's skills, names and one-line descriptions (src-main/skills), while it has skill_view. */
  skillsPrompt?(agentId: string): Promise<string | undefined>;
  /** An agent answered by a CLI instead of the model loop (host/wire-cli-backends.ts). */
  engineFor?(agentId: string, sessionKey: string): TurnEngine | undefined;
}): Promise<WiredAgent> {
  const { core, config, paths, clock, log, sessions, workspace, memory } = deps;
  const root = new AsyncDisposableStore();
  let services: RuntimeServices | undefined;

  const engines = createContextEngineRegistry();
  for (const { pluginId, id } of deps.plugins.registry.list('context-engine')) {
    const contribution = deps.plugins.registry.get<ContextEngineFactory>('context-engine', id)!;
    root.add(engines.register(await contribution.create(deps.plugins.contextFor(pluginId))));
  }
  // Compaction summaries come from the main agent's model.
  const summarizer: Summarizer = async (input, signal) => {
    if (!services) throw new Error('the runtime is not ready');
    const selection = resolveModelSelection(config.current.agents, 'main');
    if (!selection) throw new Error('no model is configured (agents.defaults.model)');
    const ref = parseModelRef(selection.primary);
    const profile = services.auth.order(ref.provider)[0];
    const credential = profile ? await services.auth.credential(profile) : undefined;
    const model = services.models.create(ref, credential);
    return withUsageTag({ purpose: 'compaction' }, () => createSdkSummarizer({ model })(input, signal));
  };
  const sessionEngines = createSessionEngines({
    registry: engines,
    engineIdFor: (agentId) => {
      const { agents } = config.current;
      return agents.list.find((agent) => agent.id === agentId)?.contextEngine ?? agents.defaults?.contextEngine;
    },
    engineDeps: (agentId, sessionKey) => ({
      agentId,
      sessionKey,
      workspaceDir: paths.workspaceDir(agentId),
      // Per-user memory: the session's person's users/<id>/ folder, or no flush when no one is known.
      memoryFlushTarget: () =>
        memoryFlushTarget(paths.workspaceDir(agentId), agentId, memory.settings(agentId), sessionKey),
      summarizer,
      clock,
      newId: () => crypto.randomUUID(),
      log: log.child({ part: 'context', sessionKey }),
    }),
  });
  const contextWindowFor = (agentId: string) => {
    const selection = resolveModelSelection(config.current.agents, agentId);
    if (!selection || !services) return fallbackContextWindow;
    try {
      return services.catalog.limits(parseModelRef(selection.primary)).contextWindow;
    } catch {
      return fallbackContextWindow;
    }
  };
  // The tool catalogue: each agent's profile picks the core; tools_search / tools_load reach the rest.
  const catalogue = createToolCatalogue({
    tools: () => deps.tools,
    settingsFor: (agentId) => {
      const { agents, tools } = config.current;
      const own = agents.list.find((agent) => agent.id === agentId)?.tools;
      return resolveToolCatalogueSettings([own, agents.defaults?.tools, tools]);
    },
  });
  // One tool set per turn (the runtime asks for the system prompt, the core and the rest with the
  // same scope): the agent's MCP servers' tools join the catalogue, loaded on demand like the others.
  const turnTools = new WeakMap<TurnScope, Promise<TurnToolSet>>();
  const toolSetOf = (scope: TurnScope): Promise<TurnToolSet> => {
    let set = turnTools.get(scope);
    if (!set) {
      set = (async () =>
        catalogue.forTurn(scope.agentId, [
          ...((await deps.mcpTools?.(scope.agentId)) ?? []),
          ...(deps.sessionTools?.(scope.sessionKey) ?? []),
        ]))();
      turnTools.set(scope, set);
    }
    return set;
  };
  const traceWriter = root.add(
    createSettledTraceWriter(
      createCacheTraceWriter({ dir: paths.cacheTraceDir, clock, debug: deps.env.HEARTH_TRACE_CONTENT === '1' }),
    ),
  );

  services = await createRuntimeServices({
    paths,
    clock,
    log,
    secrets: deps.secrets,
    events: {
      publish: (event, payload) => {
        core.bus.publish(event, payload);
        // A turn that ends may have moved a profile into (or out of) cooldown: the Auth view refreshes.
        if ('state' in payload && (payload.state === 'final' || payload.state === 'error')) {
          core.bus.publish('auth.profiles.changed', { reason: 'turn-ended', runId: payload.runId });
        }
      },
    },
    sessions,
    lanes: deps.lanes,
    providers: () => config.current.providers,
    auth: () => config.current.auth,
    agents: () => config.current.agents,
    tools: async (scope) => (await toolSetOf(scope)).core,
    onDemandTools: async (scope) => (await toolSetOf(scope)).onDemand,
    userFor: (scope) => accountOfSession(scope.sessionKey),
    wrapModel: deps.usage?.wrapModel,
    aroundTurn: deps.usage ? (scope, run) => deps.usage!.aroundTurn(scope, run) : undefined,
    engineFor: deps.engineFor,
    systemPrompt: async (scope) => {
      const { promptLines, entries } = await toolSetOf(scope);
      const hasSkills = deps.skillsPrompt && entries.some((entry) => entry.name === 'skill_view');
      const skills = hasSkills ? await deps.skillsPrompt!(scope.agentId) : undefined;
      return workspace.systemPrompt(scope, skills ? [...promptLines, skills] : promptLines);
    },
    hooks: (scope) => {
      const { engine, persistedSummaries } = sessionEngines.forSession(scope.agentId, scope.sessionKey);
      return createTurnHooks({
        engine,
        persistedSummaries,
        contextWindow: contextWindowFor(scope.agentId),
        sessionKey: scope.sessionKey,
        log,
        appendToTranscript: (messages) => sessions.append(scope.agentId, scope.sessionId, messages),
        // A workspace file cut to fit the budget: the model is told (once per change, by default)
        // so it reads the full file with a tool; then what memory recalls about the message.
        turnPrefix: async ({ message, history }) => {
          const warning = await workspace.truncationWarning(scope);
          const remembered = await memory
            .current()
            ?.beforeTurn({ agentId: scope.agentId, sessionKey: scope.sessionKey, message, history });
          markTurnPhase('recall');
          return [warning, remembered].filter(Boolean).join('\n\n') || undefined;
        },
        traceWriter,
        turnId: crypto.randomUUID().slice(0, 8),
      });
    },
  });
  const live = root.add(services);
  for (const { pluginId, id } of deps.plugins.registry.list('provider')) {
    const contribution = deps.plugins.registry.get<ModelProviderService>('provider', id)!;
    root.add(live.providerRegistry.register(await contribution.create(deps.plugins.contextFor(pluginId))));
  }
  return { services: live, dispose: () => root.dispose() };
}
