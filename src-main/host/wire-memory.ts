import type { Clock } from '../base/clock.js';
import type { AsyncDisposable, Disposable } from '../base/disposable.js';
import type { Logger } from '../base/logger.js';
import type { GatewayCore } from '../gateway/gateway-core.js';
import { type MemoryConfig, parseMemoryConfig, scopeSettingsFor } from '../memory/index.js';
import type { HearthPaths } from '../paths/index.js';
import type { InstalledPlugins } from '../plugins/index.js';
import type { SecretStore } from '../secrets/index.js';
import type { SessionStore } from '../sessions/index.js';
import type { ToolDefinition } from '../tools/tool.js';
import { type ComposeMemoryDeps, composeMemory, type HostMemory } from './compose-memory.js';
import type { HearthConfigService } from './hearth-config.js';
import { resolveMemoryBackend } from './memory-backend-slot.js';

export interface WiredMemory extends AsyncDisposable {
  /** The running memory; undefined when the slot is "none" or while settings are being applied. */
  current(): HostMemory | undefined;
  /**
   * The parsed `memory` block now in force (whose memory a session sees depends on it); with an
   * agent, its own `memory.scope` (agents.list[].memory.scope) laid over it.
   */
  settings(agentId?: string): MemoryConfig;
}

/**
 * Memory fills the `memory` slot (default: the bundled LanceDB plugin; "none" turns it off), and
 * its settings apply without a restart (scope, identity links, embedder, Dreaming, the backend
 * slot): the running memory is closed and opened again with them. hearth.json was validated
 * before the change fires, and the markdown files are the source of truth, so nothing is lost.
 * Its tools join `tools` while it runs.
 */
export async function wireMemory(deps: {
  core: Pick<GatewayCore, 'registry' | 'bus' | 'connectionCount' | 'onDidChangeConnections'>;
  config: Pick<HearthConfigService, 'current' | 'onDidChange' | 'patch'>;
  plugins: InstalledPlugins;
  paths: HearthPaths;
  secrets: SecretStore;
  sessions: SessionStore;
  clock: Clock;
  log: Logger;
  tools: ToolDefinition[];
  whenFirstClient(run: () => void): Disposable;
  completeText: ComposeMemoryDeps['completeText'];
  primaryModel(agentId: string): string | undefined;
  meterEmbedding?: ComposeMemoryDeps['meterEmbedding'];
}): Promise<WiredMemory> {
  const { core, config, log, tools } = deps;
  let settings = parseMemoryConfig(config.current.memory);
  let memory: HostMemory | undefined;

  const open = async () => {
    const backend = await resolveMemoryBackend({
      plugins: deps.plugins.registry,
      slots: config.current.plugins.slots,
      pluginContext: deps.plugins.contextFor,
      log,
      report: deps.plugins.report,
    });
    if (!backend) return;
    memory = composeMemory({ ...deps, memoryConfig: settings, backend });
    tools.push(...memory.tools);
  };
  const close = async () => {
    const closing = memory;
    memory = undefined;
    if (!closing) return;
    for (const tool of closing.tools) {
      const index = tools.indexOf(tool);
      if (index >= 0) tools.splice(index, 1);
    }
    await closing.dispose();
  };

  await open();
  let reopening = Promise.resolve();
  const listener = config.onDidChange(['memory', 'plugins.slots.memory'], () => {
    reopening = reopening
      .then(async () => {
        await close();
        settings = parseMemoryConfig(config.current.memory);
        await open();
        core.bus.publish('memory.changed', { reason: 'config' });
        log.info('memory settings applied', { backend: config.current.plugins.slots.memory ?? 'memory-lancedb' });
      })
      .catch((error) => log.error('could not apply the new memory settings', { error: String(error) }));
  });
  return {
    current: () => memory,
    settings: (agentId) => (agentId ? scopeSettingsFor(settings, config.current.agents, agentId) : settings),
    async dispose() {
      listener.dispose();
      await reopening;
      await close();
    },
  };
}
