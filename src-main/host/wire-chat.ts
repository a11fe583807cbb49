import type { RuntimeServices } from '../agent/index.js';
import type { Clock } from '../base/clock.js';
import { type AsyncDisposable, AsyncDisposableStore, type Disposable } from '../base/disposable.js';
import type { Logger } from '../base/logger.js';
import type { ApprovalService } from '../exec/index.js';
import { answerApproveCommand } from '../exec/index.js';
import type { GatewayCore } from '../gateway/gateway-core.js';
import { registerAgentMethods } from '../gateway/methods/agent.js';
import { registerAuthProfilesMethods } from '../gateway/methods/auth-profiles.js';
import { type ChatCommandHandler, registerChatMethods } from '../gateway/methods/chat.js';
import { registerModelsMethods } from '../gateway/methods/models.js';
import { registerProvidersMethods } from '../gateway/methods/providers.js';
import { registerTraceMethods } from '../gateway/methods/trace.js';
import type { HearthPaths } from '../paths/index.js';
import { hasScope, invalidRequest } from '../protocol/index.js';
import type { SessionDefaults } from '../protocol/methods/openclaw-chat.js';
import { createAuthProber, detectOllama, localServerHostsFrom, resolveModelSelection } from '../providers/index.js';
import type { SecretStore } from '../secrets/index.js';
import { answerNewSessionCommand, type RouteInput, resolveRoute, type SessionStore } from '../sessions/index.js';
import { learnTurnMessage } from '../skills/index.js';
import type { HearthConfigService } from './hearth-config.js';
import { accountOfSession } from './session-person.js';
import type { WiredMemory } from './wire-memory.js';

/** The runtime on the wire: chat (with its commands and channel routing), agent, models, auth profiles, traces. */
export function wireChat(deps: {
  core: Pick<GatewayCore, 'registry' | 'bus'>;
  config: Pick<HearthConfigService, 'current' | 'patch'>;
  clock: Clock;
  paths: HearthPaths;
  log: Logger;
  env: Record<string, string | undefined>;
  services: RuntimeServices;
  secrets: SecretStore;
  sessions: SessionStore;
  approvals: Pick<ApprovalService, 'resolve'>;
  memory: WiredMemory;
  whenFirstClient(run: () => void): Disposable;
  /** The model a new turn would use, for OpenClaw clients (chat.history's `defaults`). */
  defaults?(agentId: string): SessionDefaults | undefined;
}): AsyncDisposable {
  const { core, config, log, services } = deps;
  const { runtime } = services;
  const root = new AsyncDisposableStore();

  const approve: ChatCommandHandler = (message, call) =>
    answerApproveCommand(
      message,
      { clientId: call.caller.clientId, mayResolveApprovals: hasScope(call.caller.scopes, 'operator.approvals') },
      deps.approvals,
    );
  const startAfresh: ChatCommandHandler = (message, _call, chat) =>
    answerNewSessionCommand(message, chat.sessionKey, {
      sessions: deps.sessions,
      log,
      archive: async ({ agentId, sessionKey, slug, markdown }) => {
        const memory = deps.memory.current();
        if (!memory) return undefined;
        const engine = await memory.service.engine(agentId);
        return engine.archiveSession(engine.scopeFor(accountOfSession(sessionKey)), slug, markdown);
      },
    });
  const route = (input: RouteInput) => {
    try {
      return resolveRoute({ agents: config.current.agents, session: config.current.session }, input);
    } catch (error) {
      throw invalidRequest(`cannot route this message: ${(error as Error).message}`);
    }
  };
  root.add(
    registerChatMethods(core.registry, {
      runtime,
      commands: [approve, startAfresh],
      // `/learn [focus]`: a turn that proposes a skill from the conversation (skills/learn-command.ts).
      turnCommands: [learnTurnMessage],
      route,
      defaults: deps.defaults,
    }),
  );
  root.add(registerAgentMethods(core.registry, { runtime, bus: core.bus }));
  root.add(
    registerModelsMethods(core.registry, {
      runtime,
      modelSelection: () => resolveModelSelection(config.current.agents, 'main'),
      detectOllama: () =>
        detectOllama({
          baseURL: config.current.providers.ollama?.baseURL ?? deps.env.OLLAMA_HOST ?? 'http://127.0.0.1:11434',
          fetch,
        }),
    }),
  );
  root.add(
    registerAuthProfilesMethods(core.registry, {
      auth: services.auth,
      secrets: deps.secrets,
      bus: core.bus,
      // The health view's probes: the provider's model list, at most once per 10 minutes unless asked.
      prober: createAuthProber({ auth: services.auth, models: services.models, fetch, clock: deps.clock }),
      isKnownProvider: (id: string) => {
        try {
          services.models.provider(id);
          return true;
        } catch {
          return false;
        }
      },
    }),
  );
  root.add(
    registerProvidersMethods(core.registry, {
      config: deps.config,
      auth: services.auth,
      fetch,
      localHosts: localServerHostsFrom(deps.env),
      bus: core.bus,
    }),
  );
  root.add(registerTraceMethods(core.registry, { cacheTraceDir: deps.paths.cacheTraceDir }));
  root.add(
    deps.whenFirstClient(
      () => void runtime.warmUp().catch((error) => log.warn('model warm-up failed', { error: String(error) })),
    ),
  );
  return root;
}
