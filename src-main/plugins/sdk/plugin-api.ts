import type { Disposable } from '../../base/disposable.js';
import type { Logger } from '../../base/logger.js';
import type { ChannelContribution } from './channels.js';
import type { CliBackendContribution } from './cli-backends.js';
import type { ContextEngineContribution } from './context.js';
import type { MemoryBackendContribution } from './memory.js';
import type { ModelProviderContribution } from './providers.js';
import type { ToolDefinition } from './tools.js';

/** A gateway method contributed by a plugin: namespaced `<pluginId>.<name>`, admin scope unless stated. */
export interface PluginMethodContribution {
  name: string;
  scope?: 'operator.read' | 'operator.write' | 'operator.admin';
  handle(params: unknown, caller: { connId: string; scopes: string[] }): Promise<unknown> | unknown;
}

/** Everything a plugin may register ("everything is a plugin"). Each call returns a Disposable. */
export interface HearthPluginApi {
  readonly pluginId: string;
  readonly config: Record<string, unknown>;
  readonly log: Logger;
  registerTool(tool: ToolDefinition): Disposable;
  registerModelProvider(provider: ModelProviderContribution): Disposable;
  registerChannel(channel: ChannelContribution): Disposable;
  registerMemoryBackend(backend: MemoryBackendContribution): Disposable;
  registerContextEngine(engine: ContextEngineContribution): Disposable;
  registerCliBackend(backend: CliBackendContribution): Disposable;
  registerGatewayMethod(method: PluginMethodContribution): Disposable;
  /** Changes which workspace files are injected for a run (add, drop, reorder; names relative to the workspace). */
  registerBootstrapFilesHook(hook: BootstrapFilesHook): Disposable;
}

/** Called with the files chosen for a run (by run kind and session kind); returns the list to inject. */
export type BootstrapFilesHook = (
  files: readonly string[],
  selection: { agentId: string; runKind: 'default' | 'heartbeat' | 'cron'; sessionKind: 'main' | 'subagent' | 'cron' },
) => readonly string[];

export interface HearthPlugin {
  id: string;
  name?: string;
  register(api: HearthPluginApi): void | Promise<void>;
}

/** Identity function that gives plugin authors type checking. */
export function definePlugin(plugin: HearthPlugin): HearthPlugin {
  return plugin;
}
