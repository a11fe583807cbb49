import { spawn } from 'node:child_process';
import { join } from 'node:path';
import type { Clock } from '../base/clock.js';
import { AsyncDisposableStore, toDisposable } from '../base/disposable.js';
import type { Logger } from '../base/logger.js';
import type { ConfigService, HearthPaths } from '../config/index.js';
import type { ApprovalPrompter } from '../exec/index.js';
import type { GatewayCore } from '../gateway/gateway-core.js';
import { hasScope, invalidRequest } from '../protocol/index.js';
import type { SecretStore } from '../secrets/secret-store.js';
import type { ToolDefinition } from '../tools/tool.js';
import { resolveMemoryBackend } from './memory-backend-slot.js';

export interface ComposeOptions {
  core: GatewayCore;
  config: ConfigService;
  paths: HearthPaths;
  clock: Clock;
  log: Logger;
  env: Record<string, string | undefined>;
  /** Folder of the app (resources/, extensions/). */
  appRoot: string;
  /** The desktop's native dialog, and any other surface that can answer approvals. */
  approvalPrompters?: ApprovalPrompter[];
  /** A secret store chosen by the shell (e.g. Electron safeStorage); else keychain → encrypted file. */
  secretStore?: SecretStore;
}

export interface Capabilities {
  secrets: SecretStore;
  sessionCount(): number;
  dispose(): Promise<void>;
}

/**
 * Builds every capability and binds it to the gateway. Heavy modules (AI SDK, node-pty,
 * the bash parser, LanceDB) are imported here, after the gateway already listens, so a
 * cold start is not held up by them; until this resolves their methods answer
 * UNAVAILABLE (startup-sidecars).
 */
export async function composeCapabilities(options: ComposeOptions): Promise<Capabilities> {
  const { core, config, paths, clock, log, env } = options;
  const root = new AsyncDisposableStore();
  try {
    const [
      secretsModule,
      sessionsModule,
      execModule,
      ptyModule,
      agentModule,
      contextModule,
      providersModule,
      methods,
      memoryModule,
      { composeMemory },
      { composeWorkspaceBootstrap },
      person,
    ] = await Promise.all([
      import('../secrets/index.js'),
      import('../sessions/index.js'),
      import('../exec/index.js'),
      import('node-pty'),
      import('../agent/runtime/runtime-services.js'),
      import('../agent/context/index.js'),
      import('../providers/index.js'),
      import('./capability-methods.js'),
      import('../memory/index.js'),
      import('./compose-memory.js'),
      import('./workspace-bootstrap.js'),
      import('./session-person.js'),
    ]);
    const pluginsModule = await import('../plugins/index.js');
    let services: import('../agent/runtime/runtime-services.js').RuntimeServices | undefined;
    // One short completion (the approval judge, the Dreams diary, model recall) once the runtime is up.
    const modelText = async (ref: string, prompt: string, signal: AbortSignal, maxOutputTokens?: number) => {
      if (!services) throw new Error('the model runtime is not ready');
      const { completeText } = await import('./model-text.js');
      return completeText(services, ref, prompt, signal, maxOutputTokens);
    };
    const primaryModel = (agentId: string) =>
      providersModule.resolveModelSelection(config.current.agents, agentId)?.primary;
    // Whose memory a session sees depends on it; replaced when hearth.json's `memory` changes (below).
    let memoryConfig = memoryModule.parseMemoryConfig(config.current.memory);

    const secrets =
      options.secretStore ??
      (await secretsModule.openSecretStore({ paths, log: log.child({ part: 'secrets' }), env })).store;
    if (secrets.warning) log.warn('secret store fallback', { backend: secrets.backend, warning: secrets.warning });

    // Sessions
    const sessions = sessionsModule.createSessionStore({ paths, clock, log: log.child({ part: 'sessions' }) });
    root.add({ dispose: () => sessions.flush() });
    let sessionTotal = (await sessions.list({ limit: 1 })).totalCount;
    root.add(
      sessions.onDidChange(() => {
        void sessions.list({ limit: 1 }).then((page) => {
          sessionTotal = page.totalCount;
        });
      }),
    );
    const lanes = sessionsModule.createLanes({});
    root.add(methods.registerSessionsMethods(core.registry, { store: sessions, bus: core.bus, clock }));

    // Exec host and approvals
    const execConfig = (agentId: string) => {
      const agents = config.current.agents as {
        list?: { id: string; tools?: { exec?: unknown } }[];
        defaults?: { tools?: { exec?: unknown } };
      };
      const raw =
        agents.list?.find((a) => a.id === agentId)?.tools?.exec ??
        agents.defaults?.tools?.exec ??
        (config.current.tools as { exec?: unknown }).exec;
      return execModule.execConfigSchema.parse(raw ?? {});
    };
    const exec = await execModule.createExecCapability({
      paths,
      clock,
      logger: log.child({ part: 'exec' }),
      events: core.bus,
      env,
      configFor: execConfig,
      spawn,
      spawnPty: ptyModule.spawn,
      // Smart approval: a cheaper model triages what would be asked (exec.approvals.mode "smart").
      judge: async (prompt, signal) => {
        const ref = execConfig('main').approvals.model ?? primaryModel('main');
        if (!ref) throw new Error('no model for smart approval (tools.exec.approvals.model)');
        return modelText(ref, prompt, signal);
      },
      hasWireApprovers: () =>
        core.callers().some((c) => c.role === 'operator' && hasScope(c.scopes, 'operator.approvals')),
    });
    root.add(toDisposable(() => exec.dispose()));
    for (const prompter of options.approvalPrompters ?? []) root.add(exec.approvals.registerPrompter(prompter));
    root.add(
      methods.registerExecMethods(core.registry, {
        approvals: exec.approvals,
        describe: exec.describe,
        defaultCwd: paths.workspaceDir('main'),
      }),
    );
    root.add(
      methods.registerTerminalMethods(core.registry, {
        terminals: exec.terminals,
        workspaceDir: paths.workspaceDir,
        env: exec.terminalEnv,
      }),
    );

    // Workspace files: each agent's own, seeded at start; USER.md / MEMORY.md follow the session's person.
    // Plugins may change the file list of a run; filled in once plugins have loaded (before any turn).
    const bootstrapHooks: import('../agent/bootstrap/index.js').BootstrapFilesHook[] = [];
    const workspace = root.add(
      await composeWorkspaceBootstrap({
        config,
        paths,
        log,
        templatesDir: join(options.appRoot, 'resources', 'workspace'),
        hooks: bootstrapHooks,
        personalFolders: ({ agentId, sessionKey }) => person.personalFolders(agentId, memoryConfig, sessionKey),
      }),
    );
    const engines = contextModule.createContextEngineRegistry();
    const persistedSummaries = new Map<string, Set<string>>();
    const sessionEngines = new Map<string, import('../agent/context/index.js').ContextEngine>();
    const tools: ToolDefinition[] = [exec.tool as ToolDefinition];

    // Plugins: bundled (extensions/, compiled to dist/extensions/ in a build) and the user's own.
    // The CLI loads them through the same function, so a slot means the same in both.
    const compiled = import.meta.url.endsWith('.js');
    const installed = await pluginsModule.loadInstalledPlugins({
      bundledDir: join(options.appRoot, ...(compiled ? ['dist', 'extensions'] : ['extensions'])),
      userExtensionsDir: paths.userExtensionsDir,
      config: () => config.current.plugins,
      home: paths.home,
      log: log.child({ part: 'plugins' }),
      uid: process.getuid?.(),
    });
    const plugins = installed.registry;
    const pluginContext = installed.contextFor;
    // Idle costs nothing: the model SDKs are warmed and the memory index (LanceDB) opened when
    // the first client connects (the desktop window, a browser, a phone), not at start-up.
    const whenFirstClient = (run: () => void) => {
      if (core.connectionCount > 0) {
        run();
        return toDisposable(() => {});
      }
      const listener = core.onDidChangeConnections((count) => {
        if (count === 0) return;
        listener.dispose();
        run();
      });
      return listener;
    };
    for (const { pluginId, id } of plugins.list('context-engine')) {
      const contribution = plugins.get<import('../agent/context/index.js').ContextEngineFactory>('context-engine', id)!;
      root.add(engines.register(await contribution.create(pluginContext(pluginId) as never)));
    }
    tools.push(...plugins.listTools());
    plugins.onHookError = (pluginId, error) =>
      log.warn('a plugin bootstrap hook failed; ignored', { plugin: pluginId, error: String(error) });
    bootstrapHooks.push(...plugins.bootstrapFilesHooks());

    // Memory: the backend fills the `memory` slot (default: the bundled LanceDB plugin; 'none' turns memory off).
    let memory: import('./compose-memory.js').HostMemory | undefined;
    const openMemory = async () => {
      const backend = await resolveMemoryBackend({
        plugins,
        slots: config.current.plugins.slots,
        pluginContext,
        log,
        report: installed.report,
      });
      if (!backend) return;
      memory = composeMemory({
        core,
        config,
        memoryConfig,
        backend,
        paths,
        secrets,
        sessions,
        clock,
        log,
        whenFirstClient,
        completeText: modelText,
        primaryModel,
      });
      tools.push(...memory.tools);
    };
    const closeMemory = async () => {
      const closing = memory;
      memory = undefined;
      if (!closing) return;
      for (const tool of closing.tools) {
        const index = tools.indexOf(tool);
        if (index >= 0) tools.splice(index, 1);
      }
      await closing.dispose();
    };
    await openMemory();
    // Memory settings apply without a restart (scope, identity links, embedder, Dreaming, the
    // backend slot): the running memory is closed and opened again with them. hearth.json was
    // validated before this fires, and the markdown files are the source of truth, so nothing is lost.
    let reopening = Promise.resolve();
    root.add(
      config.onDidChange(['memory', 'plugins.slots.memory'], () => {
        reopening = reopening
          .then(async () => {
            await closeMemory();
            memoryConfig = memoryModule.parseMemoryConfig(config.current.memory);
            await openMemory();
            core.bus.publish('memory.changed', { reason: 'config' });
            log.info('memory settings applied', { backend: config.current.plugins.slots.memory ?? 'memory-lancedb' });
          })
          .catch((error) => log.error('could not apply the new memory settings', { error: String(error) }));
      }),
    );
    root.add({
      dispose: async () => {
        await reopening;
        await closeMemory();
      },
    });

    const summarizer: import('../agent/context/index.js').Summarizer = async (input, signal) => {
      if (!services) throw new Error('the runtime is not ready');
      const selection = providersModule.resolveModelSelection(config.current.agents, 'main');
      if (!selection) throw new Error('no model is configured (agents.defaults.model)');
      const ref = providersModule.parseModelRef(selection.primary);
      const profile = services.auth.order(ref.provider)[0];
      const credential = profile ? await services.auth.credential(profile) : undefined;
      const model = services.models.create(ref, credential);
      return contextModule.createSdkSummarizer({ model })(input, signal);
    };
    const engineFor = (agentId: string, sessionKey: string) => {
      let engine = sessionEngines.get(sessionKey);
      if (!engine) {
        const agents = config.current.agents as {
          defaults?: { contextEngine?: string };
          list?: { id: string; contextEngine?: string }[];
        };
        const id =
          agents.list?.find((a) => a.id === agentId)?.contextEngine ?? agents.defaults?.contextEngine ?? 'linear';
        const factory = engines.get(id);
        engine = factory.createEngine({
          agentId,
          sessionKey,
          workspaceDir: paths.workspaceDir(agentId),
          // Per-user memory: the session's person's users/<id>/ folder, or no flush when no one is known.
          memoryFlushTarget: () =>
            person.memoryFlushTarget(paths.workspaceDir(agentId), agentId, memoryConfig, sessionKey),
          summarizer,
          clock,
          newId: () => crypto.randomUUID(),
          log: log.child({ part: 'context', sessionKey }),
        });
        sessionEngines.set(sessionKey, engine);
      }
      return engine;
    };

    const contextWindowFor = (agentId: string) => {
      const selection = providersModule.resolveModelSelection(config.current.agents, agentId);
      if (!selection || !services) return 32_000;
      try {
        return services.catalog.limits(providersModule.parseModelRef(selection.primary)).contextWindow;
      } catch {
        return 32_000;
      }
    };
    const baseTraceWriter = contextModule.createCacheTraceWriter({
      dir: paths.cacheTraceDir,
      clock,
      debug: env.HEARTH_TRACE_CONTENT === '1',
    });
    // Traces are written in the background; shutdown waits for them so nothing writes after it.
    const inFlightTraces = new Set<Promise<void>>();
    const traceWriter: typeof baseTraceWriter = {
      record(input) {
        const write = baseTraceWriter.record(input);
        inFlightTraces.add(write);
        void write.catch(() => {}).finally(() => inFlightTraces.delete(write));
        return write;
      },
    };
    root.add({ dispose: async () => void (await Promise.allSettled([...inFlightTraces])) });

    // The agent runtime
    services = await agentModule.createRuntimeServices({
      paths,
      clock,
      log,
      secrets,
      // A turn that ends may have moved a profile into (or out of) cooldown: the Auth view refreshes.
      events: {
        publish: (event, payload) => {
          core.bus.publish(event, payload);
          if (event === 'chat' && (payload.state === 'final' || payload.state === 'error')) {
            core.bus.publish('auth.profiles.changed', { reason: 'turn-ended', runId: payload.runId });
          }
        },
      },
      sessions,
      lanes,
      providers: () => config.current.providers as never,
      auth: () => config.current.auth as never,
      agents: () => config.current.agents,
      tools: () => tools,
      userFor: (scope) => person.accountOfSession(scope.sessionKey),
      systemPrompt: (scope) => workspace.systemPrompt(scope),
      hooks: (scope) => {
        const window = contextWindowFor(scope.agentId);
        const contextHooks = contextModule.createRunContextHooks({
          engine: engineFor(scope.agentId, scope.sessionKey),
          policy: contextModule.createCompactionPolicy(),
          log,
          contextWindow: window,
        });
        // One cache-trace record set per LLM call (a turn with tools makes several calls).
        const turnId = crypto.randomUUID().slice(0, 8);
        const calls = new Map<number, ReturnType<typeof contextModule.createCallTrace>>();
        // Active recall: before the first call of a turn, a short summary of what memory holds about
        // the new message rides along as a hidden prefix (never shown to the user); the message is captured.
        let recall: { messageId: string; prefix: string | undefined } | undefined;
        // Compaction summaries are written to the transcript, so a restart resumes from the
        // compacted history (applyCompactionSummaries) instead of losing what was summarised.
        const engine = engineFor(scope.agentId, scope.sessionKey);
        const persisted = persistedSummaries.get(scope.sessionKey) ?? new Set<string>();
        persistedSummaries.set(scope.sessionKey, persisted);
        const persistSummaries = async () => {
          const fresh = engine.history().filter((m) => m.kind === 'compaction_summary' && !persisted.has(m.id));
          if (fresh.length === 0) return;
          for (const m of fresh) persisted.add(m.id);
          await sessions.append(scope.agentId, scope.sessionId, fresh);
        };
        const compact: typeof contextHooks.compact = async (reason) => {
          const outcome = await contextHooks.compact(reason);
          await persistSummaries();
          return outcome;
        };
        const transformContext: typeof contextHooks.transformContext = async (loaded, budget) => {
          for (const m of loaded) if (m.kind === 'compaction_summary') persisted.add(m.id);
          const messages = contextModule.applyCompactionSummaries(loaded);
          const assembled = await contextHooks.transformContext(messages, budget);
          await persistSummaries();
          const lastUser = [...assembled].reverse().find((m) => m.kind === 'user');
          if (lastUser?.kind !== 'user') return assembled;
          if (!recall) {
            recall = { messageId: lastUser.id, prefix: undefined };
            // A workspace file cut to fit the budget: the model is told (once per change, by default)
            // so it reads the full file with a tool instead of trusting the cut copy.
            const warning = await workspace.truncationWarning(scope);
            // Recall modes `recent` and `full` read the session's earlier user messages too.
            const history = assembled.flatMap((m) => (m.kind === 'user' && m !== lastUser ? [m.text] : []));
            const remembered = await memory?.beforeTurn({
              agentId: scope.agentId,
              sessionKey: scope.sessionKey,
              message: lastUser.text,
              history,
            });
            recall.prefix = [warning, remembered].filter(Boolean).join('\n\n') || undefined;
          }
          const prefix = recall.prefix;
          if (!prefix) return assembled;
          return assembled.map((m) =>
            m.id === recall?.messageId && m.kind === 'user' ? { ...m, hiddenPrefix: prefix } : m,
          );
        };
        return {
          ...contextHooks,
          compact,
          transformContext,
          // Tool results are cut as they arrive (≤ 30% of the context, ≤ 16 000 chars), keeping errors in the tail.
          afterToolCall: (_call, result) => {
            const cut = contextModule.truncateToolOutput(result.output, contextModule.toolResultCharLimit(window));
            if (!cut.truncated) return result;
            return {
              ...result,
              output: cut.text,
              truncated: { originalChars: cut.originalChars, keptChars: cut.keptChars },
            };
          },
          traceContext: ({ step, stage, system, tools: toolNames, messages }) => {
            let call = calls.get(step);
            if (!call) {
              call = contextModule.createCallTrace({
                writer: traceWriter,
                sessionKey: scope.sessionKey,
                callId: `${turnId}-${step}`,
                log,
              });
              calls.set(step, call);
            }
            call.stage(stage, { system, tools: toolNames, messages });
          },
        };
      },
    });
    root.add(services);
    for (const { pluginId, id } of plugins.list('provider')) {
      const contribution = plugins.get<import('../providers/index.js').ModelProviderService>('provider', id)!;
      root.add(services.providerRegistry.register(await contribution.create(pluginContext(pluginId) as never)));
    }
    const runtime = services.runtime;
    // `/approve <id> allow-once|allow-always|deny` from any chat surface resolves an approval without a model turn.
    const approveCommand = (message: string, call: import('../gateway/method-router.js').CallContext) => {
      const parsed = execModule.parseApproveCommand(message);
      if (!parsed) return undefined;
      if (!parsed.ok) return { name: 'approve', ok: false, reply: parsed.error };
      if (!hasScope(call.caller.scopes, 'operator.approvals')) {
        return {
          name: 'approve',
          ok: false,
          reply: 'you cannot resolve approvals from here (missing scope: operator.approvals)',
        };
      }
      try {
        exec.approvals.resolve(parsed.id, parsed.decision, `chat:${call.caller.clientId}`);
        return { name: 'approve', ok: true, reply: `${parsed.decision} for approval ${parsed.id}` };
      } catch (error) {
        return { name: 'approve', ok: false, reply: (error as Error).message };
      }
    };
    const route = (input: Parameters<typeof sessionsModule.resolveRoute>[1]) => {
      try {
        return sessionsModule.resolveRoute(
          { agents: config.current.agents, session: config.current.session } as never,
          input,
        );
      } catch (error) {
        throw invalidRequest(`cannot route this message: ${(error as Error).message}`);
      }
    };
    // `/new`: start a fresh session; the old conversation is archived into memory
    // (memory/YYYY-MM-DD-<slug>.md) so nothing said in it is forgotten.
    const newSessionCommand = async (message: string, _call: unknown, chat: { sessionKey: string }) => {
      if (!/^\/(new|reset)(\s|$)/i.test(message.trim())) return undefined;
      const agentId = sessionsModule.parseSessionKey(chat.sessionKey).agentId;
      const previous = await sessions.get(agentId, chat.sessionKey);
      let archived: string | undefined;
      if (previous && memory) {
        const { messages } = await sessions.read(agentId, previous.sessionId, { limit: 2_000 });
        const lines = messages.flatMap((m) =>
          m.kind === 'user'
            ? [`**User:** ${m.text}`]
            : m.kind === 'assistant' && m.text
              ? [`**Assistant:** ${m.text}`]
              : [],
        );
        const firstUser = messages.find((m) => m.kind === 'user');
        if (lines.length > 0 && firstUser?.kind === 'user') {
          const slug =
            firstUser.text
              .toLowerCase()
              .replace(/[^a-z0-9]+/g, '-')
              .replace(/^-+|-+$/g, '')
              .slice(0, 40) || 'session';
          const engine = await memory.service.engine(agentId);
          try {
            archived = await engine.archiveSession(
              engine.scopeFor(person.accountOfSession(chat.sessionKey)),
              slug,
              `# ${previous.title ?? 'Session'}\n\n${lines.join('\n\n')}\n`,
            );
          } catch (error) {
            log.warn('could not archive the session into memory', { error: String(error) });
          }
        }
      }
      await sessions.reset(agentId, chat.sessionKey);
      return {
        name: 'new',
        ok: true,
        reply: archived ? `New session. The previous one is kept in ${archived}.` : 'New session.',
      };
    };
    root.add(
      methods.registerChatMethods(core.registry, { runtime, commands: [approveCommand, newSessionCommand], route }),
    );
    root.add(methods.registerAgentMethods(core.registry, { runtime }));
    root.add(
      methods.registerModelsMethods(core.registry, {
        runtime,
        modelSelection: () => providersModule.resolveModelSelection(config.current.agents, 'main'),
        detectOllama: () =>
          providersModule.detectOllama({
            baseURL:
              (config.current.providers as Record<string, { baseURL?: string }>).ollama?.baseURL ??
              env.OLLAMA_HOST ??
              'http://127.0.0.1:11434',
            fetch,
          }),
      }),
    );
    const live = services;
    root.add(
      methods.registerAuthProfilesMethods(core.registry, {
        auth: live.auth,
        secrets,
        bus: core.bus,
        isKnownProvider: (id: string) => {
          try {
            live.models.provider(id);
            return true;
          } catch {
            return false;
          }
        },
      }),
    );
    root.add(methods.registerTraceMethods(core.registry, { cacheTraceDir: paths.cacheTraceDir }));
    root.add(
      whenFirstClient(
        () => void runtime.warmUp().catch((error) => log.warn('model warm-up failed', { error: String(error) })),
      ),
    );

    return {
      secrets,
      sessionCount: () => sessionTotal,
      dispose: () => root.dispose(),
    };
  } catch (error) {
    await root.dispose().catch(() => {});
    throw error;
  }
}
