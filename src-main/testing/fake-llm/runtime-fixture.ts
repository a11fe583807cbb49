// Test and benchmark fixture: the real agent runtime, registered on a real MethodRegistry with a
// real GatewayEventBus, talking to the fake LLM server through the real AI SDK. Never shipped.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type AgentRuntime, createRuntimeServices, type TurnScope } from '../../agent/index.js';
import type { AgentLoopHooks } from '../../agent/loop/agent-loop.js';
import type { RunnerContextHooks } from '../../agent/runner/runner-types.js';
import { type Clock, DisposableStore, type Logger, silentLogger, systemClock } from '../../base/index.js';
import type { CallerIdentity } from '../../gateway/caller.js';
import { GatewayEventBus, type PublishedEvent } from '../../gateway/event-bus.js';
import { type CallContext, type DispatchOutcome, MethodRegistry } from '../../gateway/method-router.js';
import { registerAgentMethods } from '../../gateway/methods/agent.js';
import { registerAuthProfilesMethods } from '../../gateway/methods/auth-profiles.js';
import { registerChatMethods } from '../../gateway/methods/chat.js';
import { registerModelsMethods } from '../../gateway/methods/models.js';
import { createHearthPaths, type HearthPaths } from '../../paths/index.js';
import { type AuthProfileManager, parseRuntimeConfig, type RuntimeConfig } from '../../providers/index.js';
import {
  createEncryptedFileSecretStore,
  keyFileKeySource,
  type SecretStore,
  secretFilePaths,
} from '../../secrets/index.js';
import { createLanes, createSessionStore } from '../../sessions/index.js';
import type { OnDemandTools, ToolDefinition } from '../../tools/tool.js';
import { type FakeLlmServer, startFakeLlmServer } from './fake-llm-server.js';

/** The real encrypted-file secret store under the fixture's home (no keychain in tests). */
export function fileSecretStore(home: string): SecretStore {
  const paths = createHearthPaths(home);
  const { file, keyFile } = secretFilePaths(paths);
  return createEncryptedFileSecretStore({ path: file, keySource: keyFileKeySource({ path: keyFile }) });
}

export interface RuntimeFixtureOptions {
  /** Runtime config (providers, auth, model); `{server}` placeholders are not needed: build it from `server`. */
  config?: (server: FakeLlmServer) => unknown;
  profiles?: { id: string; provider: string; type?: 'api_key' | 'token' | 'oauth'; secret: string }[];
  clock?: Clock;
  log?: Logger;
  /** Reuse across a simulated restart (the secret store lives there too). */
  home?: string;
  server?: FakeLlmServer;
  tools?: readonly ToolDefinition[];
  /** Per-turn core tools instead of `tools` (e.g. a tool catalogue's), and the ones loaded on demand. */
  toolsFor?: (scope: TurnScope) => readonly ToolDefinition[];
  onDemandTools?: (scope: TurnScope) => OnDemandTools | undefined;
  hooks?: (scope: TurnScope) => (AgentLoopHooks & RunnerContextHooks) | undefined;
  maxWaitMs?: number;
}

export interface RuntimeFixture {
  server: FakeLlmServer;
  registry: MethodRegistry;
  bus: GatewayEventBus;
  events: PublishedEvent[];
  runtime: AgentRuntime;
  auth: AuthProfileManager;
  secrets: SecretStore;
  paths: HearthPaths;
  home: string;
  config: RuntimeConfig;
  call(method: string, params: unknown, onAck?: (payload: unknown) => void): Promise<DispatchOutcome>;
  /** Resolves with the run's terminal `chat` event (final, aborted or error). */
  chatEnd(runId: string): Promise<Record<string, unknown>>;
  chatEvents(runId: string): Record<string, unknown>[];
  /** Stops the runtime; keeps home and server unless `everything`. */
  close(everything?: boolean): Promise<void>;
}

export const operatorCaller: CallerIdentity = {
  connId: 'test-conn',
  role: 'operator',
  scopes: ['operator.admin'],
  clientId: 'test',
  clientMode: 'test',
  authMethod: 'token',
  isLocal: true,
  caps: [],
};

export function defaultFixtureConfig(server: FakeLlmServer) {
  return {
    providers: { openai: { kind: 'openai', baseURL: server.baseUrlFor('openai') } },
    model: { primary: 'openai/gpt-4o', fallbacks: [] },
  };
}

export async function createRuntimeFixture(options: RuntimeFixtureOptions = {}): Promise<RuntimeFixture> {
  const ownServer = !options.server;
  const server = options.server ?? (await startFakeLlmServer());
  const ownHome = !options.home;
  const home = options.home ?? (await mkdtemp(join(tmpdir(), 'hearth-runtime-')));
  const paths = createHearthPaths(home);
  const clock = options.clock ?? systemClock;
  const log = options.log ?? silentLogger;
  const secrets = fileSecretStore(home);
  const config = parseRuntimeConfig((options.config ?? defaultFixtureConfig)(server));
  const store = new DisposableStore();

  const sessions = createSessionStore({ paths, clock, log });
  const bus = new GatewayEventBus();
  const events: PublishedEvent[] = [];
  store.add(bus.onDidPublish((event) => events.push(event)));
  const services = await createRuntimeServices({
    paths,
    clock,
    log,
    secrets,
    events: bus,
    sessions,
    lanes: createLanes(),
    providers: () => config.providers,
    auth: () => config.auth,
    agents: () => ({ defaults: { model: config.model } }),
    tools: (scope) => options.toolsFor?.(scope) ?? options.tools ?? [],
    onDemandTools: options.onDemandTools,
    hooks: options.hooks,
    maxWaitMs: options.maxWaitMs ?? 0,
  });
  const { runtime, auth } = services;
  for (const profile of options.profiles ?? []) {
    await auth.set({
      id: profile.id,
      provider: profile.provider,
      type: profile.type ?? 'api_key',
      secret: profile.secret,
    });
  }
  const registry = new MethodRegistry();
  store.add(registerChatMethods(registry, { runtime }));
  store.add(registerAgentMethods(registry, { runtime }));
  store.add(registerModelsMethods(registry, { runtime, modelSelection: () => config.model }));
  store.add(
    registerAuthProfilesMethods(registry, {
      auth,
      secrets,
      bus,
      isKnownProvider: (id) => {
        try {
          services.models.provider(id);
          return true;
        } catch {
          return false;
        }
      },
    }),
  );

  const chatEvents = (runId: string) =>
    events
      .filter((e) => e.event === 'chat' && (e.payload as { runId?: string }).runId === runId)
      .map((e) => e.payload as Record<string, unknown>);
  let requestCounter = 0;

  return {
    server,
    registry,
    bus,
    events,
    runtime,
    auth,
    secrets,
    paths,
    home,
    config,
    call(method, params, onAck) {
      const context: CallContext = {
        caller: operatorCaller,
        requestId: `req-${++requestCounter}`,
        signal: new AbortController().signal,
        acknowledge: (payload) => onAck?.(payload),
      };
      return registry.dispatch(method, params, context);
    },
    chatEvents,
    chatEnd(runId) {
      const terminal = (p: Record<string, unknown>) =>
        p.state === 'final' || p.state === 'aborted' || p.state === 'error';
      const found = chatEvents(runId).find(terminal);
      if (found) return Promise.resolve(found);
      return new Promise((resolve) => {
        const listener = bus.onDidPublish((event) => {
          const payload = event.payload as Record<string, unknown>;
          if (event.event === 'chat' && payload.runId === runId && terminal(payload)) {
            listener.dispose();
            resolve(payload);
          }
        });
      });
    },
    async close(everything = true) {
      store.dispose();
      await services.dispose();
      await sessions.flush();
      if (everything && ownServer) await server.close();
      if (everything && ownHome) await rm(home, { recursive: true, force: true });
    },
  };
}
