import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Clock } from '../base/clock.js';
import { type Disposable, DisposableStore } from '../base/disposable.js';
import type { Logger } from '../base/logger.js';
import type { GatewayCore } from '../gateway/gateway-core.js';
import {
  agentScope,
  createActiveRecall,
  createAgentRewriters,
  createEmbedder,
  createMemoryTools,
  createModelRecall,
  DREAM_STALL_MS,
  type DreamRunView,
  DreamStallWatch,
  type Embedder,
  type EmbedderDeps,
  embedderMergePatch,
  LocalModels,
  type MemoryBackend,
  type MemoryConfig,
  type MemoryScope,
  MemoryService,
  modelCatalogue,
  nodeWatchSource,
  recallConfigFor,
  requireEmbedderSecret,
  scheduleDreaming,
  scopeSettingsFor,
  shareWatchSource,
  userScope,
  watchDreamRuns,
  watchMemoryFiles,
} from '../memory/index.js';
import type { HearthPaths } from '../paths/index.js';
import type { SecretStore } from '../secrets/index.js';
import type { SessionStore } from '../sessions/index.js';
import type { ToolDefinition } from '../tools/tool.js';
import { withUsageTag } from '../usage/index.js';
import { configuredAgentIds, followAgents } from './agent-roster.js';
import { registerDreamsMethods, registerMemoryMethods, registerMemoryModelMethods } from './capability-methods.js';
import type { HearthConfigService } from './hearth-config.js';
import { dreamEveryAgent } from './nightly-dreaming.js';
import { ingestRecentTranscripts, type RecentTranscriptsDeps, recentTranscriptScopes } from './recent-transcripts.js';
import { accountOfSession, personalScope } from './session-person.js';

export interface ComposeMemoryDeps {
  core: Pick<GatewayCore, 'registry' | 'bus'>;
  config: Pick<HearthConfigService, 'current' | 'onDidChange' | 'patch'>;
  /** The parsed `memory` block (read once at start). */
  memoryConfig: MemoryConfig;
  /** The plugin filling the `memory` slot. */
  backend: MemoryBackend;
  paths: HearthPaths;
  secrets: SecretStore;
  sessions: SessionStore;
  clock: Clock;
  log: Logger;
  /** Runs `run` once a client is connected: idle costs nothing (no index opened before). */
  whenFirstClient(run: () => void): Disposable;
  /** One short completion from a configured model; throws while the runtime is not ready. */
  completeText(
    modelRef: string,
    prompt: string,
    signal: AbortSignal,
    maxOutputTokens: number,
    /** The provider's token counts, when the host forwards them (memory's query rewrite counts its calls). */
    onUsage?: (usage: { inputTokens: number; outputTokens: number; cachedInputTokens: number }) => void,
  ): Promise<string>;
  /** An agent's primary model reference, when one is configured. */
  primaryModel(agentId: string): string | undefined;
  /** For downloading local embedding models (default: the global fetch). */
  fetch?: typeof globalThis.fetch;
  /** Counts provider embeddings requests (the usage meter). */
  meterEmbedding?: EmbedderDeps['onUsage'];
}

export interface HostMemory {
  service: MemoryService;
  config: MemoryConfig;
  /** `memory_search` and friends, for the runtime's tool list. */
  tools: ToolDefinition[];
  /**
   * Before a turn's first model call: what memory holds about the new message (active recall,
   * given the session's earlier user messages, oldest first), and the message is captured.
   * Never throws; undefined when nothing strong turned up or the session has no memory scope.
   */
  beforeTurn(turn: {
    agentId: string;
    sessionKey: string;
    message: string;
    history: string[];
  }): Promise<string | undefined>;
  dispose(): Promise<void>;
}

/**
 * Memory in the running host, for every configured agent (`main` plus `agents.list`): the
 * `memory.*` / `dreams.*` methods and tools, a watcher per workspace (hand edits re-index and
 * announce `memory.changed`), the first index when a client connects, one nightly Dreaming job
 * over every agent and scope, and active recall plus capture on each turn.
 */
export function composeMemory(deps: ComposeMemoryDeps): HostMemory {
  const { core, config, memoryConfig, paths, clock, log } = deps;
  const store = new DisposableStore();
  let sharedEmbedder: Promise<Embedder> | undefined;
  // Every run state told (this process's runs and, from their run file, others'), and a run that
  // went silent told again as stalled once its heartbeat is stale (dreams.changed progress).
  const stalls = store.add(
    new DreamStallWatch({
      clock,
      stallAfterMs: DREAM_STALL_MS,
      onStalled: (key, run) => {
        const [agentId, userId] = key.split('\0') as [string, string];
        publishRun(agentId, userId || undefined, run);
      },
    }),
  );
  const publishRun = (agentId: string, userId: string | undefined, run: DreamRunView) => {
    core.bus.publish('dreams.changed', { agentId, ...(userId ? { userId } : {}), reason: 'progress', run });
    stalls.seen(
      `${agentId}\0${userId ?? ''}`,
      run,
      (): Promise<DreamRunView | undefined> =>
        service.dreamRun(agentId, userId ? userScope(userId) : agentScope(agentId)),
    );
  };
  const service = new MemoryService({
    paths,
    backend: deps.backend,
    config: memoryConfig,
    agentScope: (agentId) => scopeSettingsFor(memoryConfig, config.current.agents, agentId).scope,
    // One embedder for every agent (a local model is loaded once, in one thread); a failed
    // start is retried by the next agent that asks. A named secret that is missing is an error
    // naming it, not an unauthenticated request.
    embedder: () => {
      sharedEmbedder ??= createEmbedder(memoryConfig.embedder, {
        resolveSecret: requireEmbedderSecret(deps.secrets),
        onUsage: deps.meterEmbedding,
      }).catch((error) => {
        sharedEmbedder = undefined;
        throw error;
      });
      return sharedEmbedder;
    },
    clock,
    log: log.child({ part: 'memory' }),
    onProgress: (agentId, progress) => core.bus.publish('memory.changed', { agentId, progress }),
    // After every index run, whatever started it: views refresh, and whoever waits on the index
    // (a test, a script) waits on this instead of polling.
    onSynced: (agentId) => core.bus.publish('memory.changed', { agentId, reason: 'files' }),
    // Every step of a Dreaming run, whoever started it (the Dreams view shows the phases live).
    onDreamProgress: (agentId, scope, run) =>
      publishRun(agentId, scope.root ? scope.id.slice('user:'.length) : undefined, run),
    // Each run that may write first files the scope's conversations of the last day (its ingest phase).
    ingest: (agentId, scope, progress): Promise<void> =>
      ingestRecentTranscripts(transcripts(), agentId, { scope, progress }),
    // With a model configured, the diary entry is written by it; any failure falls back to the plain summary.
    writeDiary: async (summary, agentId) => {
      const ref = deps.primaryModel(agentId);
      if (!ref) throw new Error('no model for the diary');
      const facts = [
        `Notes looked at: ${summary.notesSeen}; recalls: ${summary.recalls}.`,
        summary.reflections.length > 0
          ? `Themes: ${summary.reflections.map((r) => `${r.tag} (${r.count})`).join(', ')}.`
          : '',
        summary.truths.length > 0 ? `Candidate truths: ${summary.truths.map((t) => t.text).join(' | ')}` : '',
        summary.promoted.length > 0
          ? `Promoted to long-term memory: ${summary.promoted.join(' | ')}`
          : 'Nothing was promoted tonight.',
      ]
        .filter(Boolean)
        .join('\n');
      return withUsageTag({ purpose: 'dreaming', agentId }, () =>
        deps.completeText(
          ref,
          `Write tonight's entry of the assistant's dream diary (DREAMS.md): 3-5 sentences, first person, warm and curious, only about these facts, no invented details.\n\n${facts}`,
          AbortSignal.timeout(30_000),
          400,
        ),
      );
    },
  });
  const transcripts = (): RecentTranscriptsDeps => ({
    sessions: deps.sessions,
    memory: service,
    clock,
    accountOf: accountOfSession,
  });

  store.add(registerMemoryMethods(core.registry, { memory: service, queryRewrite: () => rewriters.usage() }));
  // Local embedding models: installing one writes memory.embedder, and the config reload that
  // follows reopens memory with it (every file re-embedded in the background, with progress).
  const models = new LocalModels({
    modelsDir: join(paths.home, 'models'),
    catalogue: modelCatalogue(memoryConfig.models),
    fetch: deps.fetch ?? globalThis.fetch,
    now: () => clock.now(),
    currentEmbedder: () => memoryConfig.embedder,
    switchEmbedder: async (embedder) => {
      await config.patch({ memory: { embedder: embedderMergePatch(embedder) } });
    },
    log: log.child({ part: 'memory-models' }),
  });
  store.add(models);
  store.add(models.onDidChange((model) => core.bus.publish('memory.changed', { reason: 'model', model })));
  store.add(registerMemoryModelMethods(core.registry, { models }));
  store.add(registerDreamsMethods(core.registry, { memory: service }));

  // Per agent, following hearth.json: hand edits are re-indexed, and the first index builds in the background.
  store.add(
    followAgents(config, (agentId) => {
      const agent = new DisposableStore();
      const workspaceDir = paths.workspaceDir(agentId);
      try {
        // Seeding creates it too; an agent a config reload just added may get here first.
        mkdirSync(workspaceDir, { recursive: true });
        const source = agent.add(shareWatchSource(nodeWatchSource(workspaceDir)));
        // A run by another process (`hearth memory promote`) is shown live too, from its run file.
        agent.add(
          watchDreamRuns({
            source,
            workspaceDir,
            pid: process.pid,
            onRun: (userId, run) => publishRun(agentId, userId, run),
          }),
        );
        agent.add(
          watchMemoryFiles({
            source,
            clock,
            sync: async () => {
              await (await service.engine(agentId)).sync();
            },
          }),
        );
      } catch (error) {
        log.warn('cannot watch the memory files of an agent; hand edits there wait for the next start', {
          agentId,
          error: String(error),
        });
      }
      agent.add(
        deps.whenFirstClient(() => {
          void service
            .engine(agentId)
            .then((engine) => engine.sync())
            .catch((error) => log.warn('initial memory index failed', { agentId, error: String(error) }));
        }),
      );
      return agent;
    }),
  );

  store.add(
    scheduleDreaming({
      enabled: memoryConfig.dreaming.enabled,
      cron: memoryConfig.dreaming.cron,
      run: () =>
        dreamEveryAgent({
          memory: service,
          agentIds: () => configuredAgentIds(config.current.agents),
          recentScopes: (agentId) => recentTranscriptScopes(transcripts(), agentId),
          dreamed: (agentId: string, scope: MemoryScope) =>
            core.bus.publish('dreams.changed', {
              agentId,
              ...(scope.root ? { userId: scope.id.slice('user:'.length) } : {}),
              reason: 'scheduled',
            }),
          log,
        }),
      onError: (error) => log.error('scheduled Dreaming failed', { error: String(error) }),
    }),
  );

  // Query rewrite (opt-in): the model widens memory_search and active recall; its tokens are counted.
  const rewriters = createAgentRewriters({
    config: memoryConfig.queryRewrite,
    clock,
    primaryModel: deps.primaryModel,
    complete: (model, prompt, signal, onUsage) =>
      withUsageTag({ purpose: 'query_rewrite' }, () => deps.completeText(model, prompt, signal, 160, onUsage)),
    onUsage: (usage, context) =>
      log.info('memory query rewrite', {
        agentId: context.agentId,
        model: context.model,
        inputTokens: usage.inputTokens,
        outputTokens: usage.outputTokens,
        estimated: usage.estimated,
      }),
  });

  // One recaller per agent and settings: `memory.recall` with the agent's own override, re-read
  // each turn so an edit of agents.list[].memory.recall applies to the next turn.
  const recallers = new Map<string, Promise<ReturnType<typeof createActiveRecall>>>();
  const recallFor = (agentId: string) => {
    const settings = recallConfigFor(memoryConfig.recall, config.current.agents, agentId);
    const key = `${agentId}\u0000${JSON.stringify(settings)}`;
    let recaller = recallers.get(key);
    if (!recaller) {
      for (const existing of recallers.keys()) if (existing.startsWith(`${agentId}\u0000`)) recallers.delete(existing);
      recaller = service.engine(agentId).then((engine) =>
        createActiveRecall({
          engine,
          config: settings,
          clock,
          rewrite: async (query, signal) => (await rewriters.forAgent(agentId)?.rewrite(query, signal)) ?? [],
          // Only when the cheap lexical/vector pass found nothing strong: a model reads the weaker hits.
          modelRecall: createModelRecall({
            model: settings.model,
            primaryModel: () => deps.primaryModel(agentId),
            complete: (ref, prompt, signal, maxOutputTokens) =>
              withUsageTag({ purpose: 'recall', agentId }, () =>
                deps.completeText(ref, prompt, signal, maxOutputTokens),
              ),
          }),
        }),
      );
      recallers.set(key, recaller);
      recaller.catch(() => recallers.delete(key));
    }
    return recaller;
  };

  return {
    service,
    config: memoryConfig,
    tools: createMemoryTools(service, { rewriter: (agentId) => rewriters.forAgent(agentId) }),
    async beforeTurn({ agentId, sessionKey, message, history }) {
      // Per-user memory and no known person (a group chat): no one's memory is read or written.
      const scope = personalScope(agentId, scopeSettingsFor(memoryConfig, config.current.agents, agentId), sessionKey);
      if (!scope) return undefined;
      let remembered: string | undefined;
      try {
        remembered = await (await recallFor(agentId)).recall({ scope, message, history });
      } catch (error) {
        log.warn('active recall failed; the turn goes on without it', { error: String(error) });
      }
      if (memoryConfig.capture.enabled) {
        void service
          .engine(agentId)
          .then((engine) => engine.capture(scope, message, 'user'))
          .catch(() => undefined);
      }
      return remembered;
    },
    async dispose() {
      store.dispose();
      await service.close();
    },
  };
}
