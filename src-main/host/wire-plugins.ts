import type { BootstrapFilesHook } from '../agent/bootstrap/index.js';
import type { Disposable } from '../base/disposable.js';
import type { Logger } from '../base/logger.js';
import type { GatewayCore } from '../gateway/gateway-core.js';
import type { HearthPaths } from '../paths/index.js';
import { bundledPluginsDir, type InstalledPlugins, loadInstalledPlugins } from '../plugins/index.js';
import type { ToolDefinition } from '../tools/tool.js';
import type { HearthConfigService } from './hearth-config.js';
import { wirePluginMethods } from './wire-plugin-methods.js';

export interface WiredPlugins extends Disposable {
  plugins: InstalledPlugins;
}

/**
 * Plugins: bundled (extensions/; built with the bundled CLI, or to dist/extensions/ by tsc) and the user's own.
 * The CLI loads them through the same function, so a slot means the same in both. Their tools
 * join the host's list, their bootstrap hooks the workspace's, their gateway methods the router.
 */
export async function wirePlugins(deps: {
  core: Pick<GatewayCore, 'registry'>;
  config: Pick<HearthConfigService, 'current'>;
  paths: HearthPaths;
  log: Logger;
  appRoot: string;
  tools: ToolDefinition[];
  bootstrapHooks: BootstrapFilesHook[];
}): Promise<WiredPlugins> {
  const { config, paths, log } = deps;
  const plugins = await loadInstalledPlugins({
    bundledDir: bundledPluginsDir(import.meta.url, deps.appRoot),
    userExtensionsDir: paths.userExtensionsDir,
    config: () => config.current.plugins,
    home: paths.home,
    log: log.child({ part: 'plugins' }),
    uid: process.getuid?.(),
  });
  deps.tools.push(...plugins.registry.listTools().map((tool) => ({ source: 'plugin' as const, ...tool })));
  plugins.registry.onHookError = (pluginId, error) =>
    log.warn('a plugin bootstrap hook failed; ignored', { plugin: pluginId, error: String(error) });
  deps.bootstrapHooks.push(...plugins.registry.bootstrapFilesHooks());
  const methods = wirePluginMethods(deps.core.registry, plugins.registry);
  return { plugins, dispose: () => methods.dispose() };
}
