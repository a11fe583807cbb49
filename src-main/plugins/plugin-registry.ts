import { type Disposable, toDisposable } from '../base/disposable.js';
import type { Logger } from '../base/logger.js';
import type { ToolDefinition } from '../tools/tool.js';
import type { Contribution } from './sdk/contributions.js';
import type { BootstrapFilesHook, HearthPluginApi, PluginMethodContribution } from './sdk/plugin-api.js';

export type ContributionKind = 'provider' | 'channel' | 'memory' | 'context-engine' | 'cli-backend';

interface Owned<T> {
  pluginId: string;
  value: T;
}

/**
 * Everything plugins registered, by kind. Exclusive capabilities (memory, the
 * context engine) are slots: config names the plugin id to use, or 'none'.
 */
export class PluginRegistry implements Disposable {
  /** Every registration handed out, so disposing the registry releases what plugins never released themselves. */
  private readonly registrations = new Set<Disposable>();
  private readonly tools = new Map<string, Owned<ToolDefinition>>();
  private readonly contributions = new Map<ContributionKind, Map<string, Owned<Contribution<unknown, never>>>>();
  private readonly methods = new Map<string, Owned<PluginMethodContribution>>();
  private readonly bootstrapHooks = new Set<Owned<BootstrapFilesHook>>();

  constructor(private readonly slots: () => Record<string, string> = () => ({})) {}

  apiFor(pluginId: string, config: Record<string, unknown>, log: Logger): HearthPluginApi {
    const add = <T>(map: Map<string, Owned<T>>, key: string, value: T, what: string): Disposable => {
      if (map.has(key))
        throw new Error(`plugin ${pluginId}: ${what} "${key}" is already registered by ${map.get(key)!.pluginId}`);
      map.set(key, { pluginId, value });
      return this.own(() => map.delete(key));
    };
    const contribution = (kind: ContributionKind) => (value: Contribution<unknown, never>) => {
      let map = this.contributions.get(kind);
      if (!map) {
        map = new Map();
        this.contributions.set(kind, map);
      }
      return add(map, value.id, value, kind);
    };
    return {
      pluginId,
      config,
      log,
      registerTool: (tool) => add(this.tools, tool.name, tool as ToolDefinition, 'tool'),
      registerModelProvider: contribution('provider'),
      // Channels run in the channel host (src-main/channels, host/wire-channels.ts).
      registerChannel: contribution('channel'),
      registerMemoryBackend: contribution('memory'),
      registerContextEngine: contribution('context-engine'),
      // CLI engines run through src-main/cli-backends (host/wire-cli-backends.ts).
      registerCliBackend: contribution('cli-backend'),
      registerGatewayMethod: (method) => add(this.methods, `${pluginId}.${method.name}`, method, 'gateway method'),
      registerBootstrapFilesHook: (hook) => {
        const owned = { pluginId, value: hook };
        this.bootstrapHooks.add(owned);
        return this.own(() => this.bootstrapHooks.delete(owned));
      },
    };
  }

  listTools(): ToolDefinition[] {
    return [...this.tools.values()].map((t) => t.value);
  }

  list(kind: ContributionKind): { pluginId: string; id: string }[] {
    return [...(this.contributions.get(kind)?.values() ?? [])].map((c) => ({ pluginId: c.pluginId, id: c.value.id }));
  }

  /** Every contribution is created with the host's PluginServiceContext (installed-plugins' contextFor). */
  get<T>(kind: ContributionKind, id: string): Contribution<T> | undefined {
    return this.contributions.get(kind)?.get(id)?.value as Contribution<T> | undefined;
  }

  /**
   * The contribution chosen for an exclusive slot: the configured id, 'none' for
   * nothing, or `fallback` when the slot is unset. A configured id that no plugin
   * registered is an error, not a silent fallback.
   */
  slot<T>(kind: ContributionKind, slotName: string, fallback?: string): Contribution<T> | undefined {
    const chosen = this.slots()[slotName] ?? fallback;
    if (chosen === undefined || chosen === 'none') return undefined;
    const found = this.get<T>(kind, chosen);
    if (!found) {
      const known = this.list(kind).map((c) => c.id);
      throw new Error(
        `plugins.slots.${slotName} is "${chosen}", but no plugin provides it (available: ${known.join(', ') || 'none'})`,
      );
    }
    return found;
  }

  /** Hooks that change the workspace files of a run, in registration order; a throwing hook is skipped. */
  bootstrapFilesHooks(): BootstrapFilesHook[] {
    return [...this.bootstrapHooks].map(({ pluginId, value }) => (files, selection) => {
      try {
        return value(files, selection);
      } catch (error) {
        this.onHookError?.(pluginId, error);
        return files;
      }
    });
  }

  onHookError?: (pluginId: string, error: unknown) => void;

  private own(release: () => void): Disposable {
    const registration = toDisposable(() => {
      this.registrations.delete(registration);
      release();
    });
    this.registrations.add(registration);
    return registration;
  }

  /** The host's shutdown: every plugin's registrations go with it. */
  dispose(): void {
    for (const registration of [...this.registrations]) registration.dispose();
  }

  gatewayMethods(): { name: string; method: PluginMethodContribution }[] {
    return [...this.methods.entries()].map(([name, owned]) => ({ name, method: owned.value }));
  }
}
