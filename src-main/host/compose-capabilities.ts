import type { BootstrapFilesHook } from '../agent/bootstrap/index.js';
import type { RuntimeServices } from '../agent/index.js';
import type { Clock } from '../base/clock.js';
import { AsyncDisposableStore } from '../base/disposable.js';
import type { Logger } from '../base/logger.js';
import type { ApprovalPrompter } from '../exec/index.js';
import type { GatewayCore } from '../gateway/gateway-core.js';
import type { HearthPaths } from '../paths/index.js';
import { resolveModelSelection } from '../providers/index.js';
import type { SecretStore } from '../secrets/index.js';
import { openSecretStore } from '../secrets/index.js';
import { createChannelOutbox } from './channel-outbox.js';
import { createChannelToolsSlot } from './channel-tools-slot.js';
import type { HearthConfigService } from './hearth-config.js';
import { modelTextOf } from './model-text-of.js';
import { whenFirstClient } from './when-first-client.js';
import { wireAgent } from './wire-agent.js';
import { wireChat } from './wire-chat.js';
import { wireCliBackends } from './wire-cli-backends.js';
import { wireCron } from './wire-cron.js';
import { execConfigFor, wireExec } from './wire-exec.js';
import { wireHeartbeat } from './wire-heartbeat.js';
import { wireImport } from './wire-import.js';
import { wireMcp } from './wire-mcp.js';
import { type WiredMemory, wireMemory } from './wire-memory.js';
import { createSessionDefaultsSlot, wireOpenClawUi } from './wire-openclaw-ui.js';
import { wirePlugins } from './wire-plugins.js';
import { wireRoster } from './wire-roster.js';
import { wireSessions } from './wire-sessions.js';
import { wireSubagents } from './wire-subagents.js';
import { wireTools } from './wire-tools.js';
import { wireUsage } from './wire-usage.js';
import { wireWorkspace } from './wire-workspace.js';

export interface ComposeOptions {
  core: GatewayCore;
  config: HearthConfigService;
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
  /** The gateway's own URL, for URLs handed to clients (OpenClaw's canvas surface, system.info). */
  gatewayUrl?: () => string;
}

export interface Capabilities {
  secrets: SecretStore;
  sessionCount(): number;
  /** The machine woke: missed cron runs are caught up now (once each, per cron.catchUp). */
  wake(): void;
  dispose(): Promise<void>;
}

/**
 * Builds every capability and binds it to the gateway; it only wires (each wire-*.ts binds one
 * capability, and behaviour lives in the capabilities). start-hearth imports this module after
 * the gateway already listens, so the heavy modules it pulls in (AI SDK, node-pty, the bash
 * parser, LanceDB) do not hold up a cold start; until this resolves their methods answer
 * UNAVAILABLE (startup-sidecars). Disposal runs in reverse: chat stops, turns abort, memory
 * closes, PTYs end, sessions flush.
 */
export async function composeCapabilities(options: ComposeOptions): Promise<Capabilities> {
  const { core, config, paths, clock, log, env, appRoot } = options;
  const root = new AsyncDisposableStore();
  try {
    let services: RuntimeServices | undefined;
    const modelText = modelTextOf(() => services);
    const primaryModel = (agentId: string) => resolveModelSelection(config.current.agents, agentId)?.primary;
    const firstClient = (run: () => void) => whenFirstClient(core, run);
    /** What nearly every wire-*.ts takes. */
    const base = { core, config, paths, clock, log, env };

    const secrets =
      options.secretStore ?? (await openSecretStore({ paths, log: log.child({ part: 'secrets' }), env })).store;
    if (secrets.warning) log.warn('secret store fallback', { backend: secrets.backend, warning: secrets.warning });

    const openClawDefaults = createSessionDefaultsSlot();
    const sessions = root.add(await wireSessions({ ...base, defaults: openClawDefaults.get }));
    const usage = root.add(await wireUsage(base));
    const prompters = options.approvalPrompters ?? [];
    const { exec, floorReasons } = root.add(await wireExec({ ...base, prompters, modelText, primaryModel }));
    const approvals = exec.approvals;
    const gatewayUrl = options.gatewayUrl;
    const mcp = root.add(
      await wireMcp({ ...base, secrets, approvals, floorReasons, ...(gatewayUrl ? { gatewayUrl } : {}) }),
    );
    const catalog = () => services?.catalog;
    const { tools, skills } = root.add(wireTools({ ...base, appRoot, secrets, exec, sessions, catalog }));

    // Workspace files (seeded before memory watches them); plugins fill in the bootstrap hooks.
    const bootstrapHooks: BootstrapFilesHook[] = [];
    let memory: WiredMemory | undefined;
    const memorySettings = (agentId: string) => memory?.settings(agentId);
    const workspace = root.add(await wireWorkspace({ ...base, appRoot, hooks: bootstrapHooks, memorySettings }));
    const { plugins } = root.add(await wirePlugins({ ...base, appRoot, tools, bootstrapHooks }));
    root.add(plugins.registry);

    memory = root.add(
      await wireMemory({
        ...base,
        plugins,
        secrets,
        sessions: sessions.store,
        tools,
        whenFirstClient: firstClient,
        completeText: modelText,
        meterEmbedding: usage.recordEmbedding,
        primaryModel,
      }),
    );
    // Agents whose engine is a CLI (Claude Code, Codex) instead of the model loop (src-main/cli-backends).
    const cliBackends = await wireCliBackends({ ...base, plugins, usage, approvals });
    // A channel session's tools (channels.<id>.agentTools); the channels bind it when they start.
    const channelTools = createChannelToolsSlot();
    const agent = root.add(
      await wireAgent({
        ...base,
        secrets,
        sessions: sessions.store,
        lanes: sessions.lanes,
        plugins,
        workspace,
        memory,
        tools,
        usage,
        mcpTools: mcp.toolsFor,
        sessionTools: channelTools.forSession,
        skillsPrompt: (agentId) => skills.promptListing(agentId),
        engineFor: cliBackends.engineFor,
      }),
    );
    services = agent.services;
    // Cron's and the heartbeat's results for a channel go here; the channels bind it when they start.
    const outbox = createChannelOutbox();
    const { cron } = root.add(await wireCron({ ...base, services, tools, outbox }));
    // Import from OpenClaw / Hermes (the onboarding button) through the stores wired above.
    root.add(
      wireImport({
        ...base,
        appRoot: options.appRoot,
        sessions: sessions.store,
        auth: services.auth,
        cron,
        allowlist: exec.permissions.allowlist(),
      }),
    );
    root.add(wireHeartbeat({ ...base, services, outbox }));
    // sessions_send (agents-talk) and sessions_spawn (subagents): their tools, methods and events.
    root.add(wireSubagents({ ...base, services, sessions: sessions.store, lanes: sessions.lanes, usage, tools }));
    root.add(
      wireChat({
        ...base,
        services,
        secrets,
        sessions: sessions.store,
        approvals,
        memory,
        whenFirstClient: firstClient,
        defaults: openClawDefaults.get,
      }),
    );
    root.add(
      await (await import('./wire-channels.js')).wireChannels({
        ...base,
        secrets,
        plugins,
        approvals,
        outbox,
        channelTools,
        tools,
      }),
    );
    const execConfig = (agentId: string) => execConfigFor(config, agentId);
    root.add(wireRoster(base));
    root.add(
      wireOpenClawUi({
        ...base,
        services,
        approvals,
        execConfig,
        gatewayUrl: gatewayUrl ?? (() => 'http://127.0.0.1'),
        defaultsSlot: openClawDefaults,
      }),
    );
    return { secrets, sessionCount: sessions.count, wake: () => cron.wake(), dispose: () => root.dispose() };
  } catch (error) {
    await root.dispose().catch(() => {});
    throw error;
  }
}
