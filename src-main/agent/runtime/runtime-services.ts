import type { Clock } from '../../base/clock.js';
import { type AsyncDisposable, DisposableStore } from '../../base/disposable.js';
import type { Logger } from '../../base/logger.js';
import type { HearthPaths } from '../../paths/index.js';
import {
  type AgentsWithModels,
  type AuthConfig,
  type AuthProfileManager,
  createAuthProfileManager,
  createModelCatalog,
  createModelFactory,
  createProviderRegistry,
  type ModelCatalog,
  type ModelFactory,
  type ModelFactoryDeps,
  type OAuthRefresher,
  type ProviderRegistry,
  type ProvidersConfig,
  registerBuiltinProviders,
  resolveModelSelection,
} from '../../providers/index.js';
import type { SecretStore } from '../../secrets/index.js';
import type { Lanes, SessionStore } from '../../sessions/index.js';
import { agentPausePath, pauseSavingAt } from './agent-pause-file.js';
import { type AgentRuntime, type AgentRuntimeDeps, createAgentRuntime } from './agent-runtime.js';
import type { RuntimeEventSink } from './run-events.js';

export interface RuntimeServicesDeps
  extends Pick<
    AgentRuntimeDeps,
    | 'tools'
    | 'onDemandTools'
    | 'systemPrompt'
    | 'hooks'
    | 'userFor'
    | 'maxWaitMs'
    | 'historyLimit'
    | 'newId'
    | 'aroundTurn'
    | 'engineFor'
  > {
  paths: HearthPaths;
  clock: Clock;
  log: Logger;
  secrets: SecretStore;
  events: RuntimeEventSink;
  sessions: SessionStore;
  lanes: Lanes;
  /** Live config sections (read on every use, so a config reload applies to the next turn). */
  providers(): ProvidersConfig;
  auth(): AuthConfig;
  /** The raw `agents` section: `agents.defaults.model` and `agents.list[].model` are read from it. */
  agents(): AgentsWithModels | undefined;
  refreshers?: Record<string, OAuthRefresher>;
  fetch?: typeof globalThis.fetch;
  /** Wraps every model the factory creates (the usage meter: src-main/usage). */
  wrapModel?: ModelFactoryDeps['wrapModel'];
}

/** Disposing aborts running turns, then writes pending auth-profile stats. */
export interface RuntimeServices extends AsyncDisposable {
  runtime: AgentRuntime;
  auth: AuthProfileManager;
  providerRegistry: ProviderRegistry;
  models: ModelFactory;
  catalog: ModelCatalog;
}

/** The composition of the runtime from config: provider registry with the built-ins, auth profiles, catalog, runtime. */
export async function createRuntimeServices(deps: RuntimeServicesDeps): Promise<RuntimeServices> {
  const store = new DisposableStore();
  const providerRegistry = createProviderRegistry();
  store.add(registerBuiltinProviders(providerRegistry));
  const auth = await createAuthProfileManager({
    stateDir: deps.paths.stateDir,
    secrets: deps.secrets,
    clock: deps.clock,
    log: deps.log.child({ part: 'auth-profiles' }),
    config: deps.auth,
    refreshers: deps.refreshers,
  });
  const models = createModelFactory({
    registry: providerRegistry,
    providers: deps.providers,
    fetch: deps.fetch,
    wrapModel: deps.wrapModel,
  });
  const catalog = createModelCatalog({ registry: providerRegistry, providers: deps.providers, log: deps.log });
  const runtime = store.add(
    createAgentRuntime({
      ...deps,
      log: deps.log.child({ part: 'agent' }),
      models,
      catalog,
      auth,
      modelSelection: (agentId) => resolveModelSelection(deps.agents(), agentId),
      workspaceDir: (agentId) => deps.paths.workspaceDir(agentId),
      // Read before any turn can start, so a paused Hearth comes back paused (heartbeat, cron, channels).
      pauseSaving: await pauseSavingAt(agentPausePath(deps.paths.stateDir), deps.log.child({ part: 'agent-pause' })),
    }),
  );
  return {
    runtime,
    auth,
    providerRegistry,
    models,
    catalog,
    async dispose() {
      store.dispose();
      await auth.flush();
    },
  };
}
