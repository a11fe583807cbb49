import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { appRootFrom, runsCompiled } from '../base/app-root.js';
import type { Logger } from '../base/logger.js';
import { discoverPlugins, type LoadReport, loadPlugins } from './plugin-loader.js';
import { PluginRegistry } from './plugin-registry.js';
import type { PluginsConfig } from './plugins-config.js';
import type { PluginServiceContext } from './sdk/contributions.js';

/**
 * The bundled plugins folder, for the layout this module runs in:
 * - the sources (tsx, Vitest): `<app>/extensions/`;
 * - the bundled CLI (dist/bundle/): `extensions/` beside its own chunk, where scripts/bundle-main.mjs
 *   builds each plugin's entry with the host, so zod, the AI SDK and the plugin SDK are one copy;
 * - the tsc build (the desktop app, dist/src-main/): `<app>/dist/extensions/`, compiled with it.
 * `moduleUrl` and `appRoot` default to this module's own; a test gives another layout's.
 */
export function bundledPluginsDir(moduleUrl: string = import.meta.url, appRoot?: string): string {
  const root = appRoot ?? appRootFrom(moduleUrl);
  if (!runsCompiled(moduleUrl)) return join(root, 'extensions');
  const besideBundle = join(dirname(fileURLToPath(moduleUrl)), 'extensions');
  return existsSync(besideBundle) ? besideBundle : join(root, 'dist', 'extensions');
}

export interface InstalledPluginsOptions {
  /** Where the bundled plugins are (`bundledPluginsDir()` unless a test or shell says otherwise). */
  bundledDir: string;
  /** The user's own plugins (`HEARTH_HOME/extensions`). */
  userExtensionsDir: string;
  /** Read at each use, so a reloaded config is seen by later contributions. */
  config(): PluginsConfig;
  /** HEARTH_HOME, handed to every contribution's factory. */
  home: string;
  log: Logger;
  /** Owner a user plugin's files must have (the safety check); `process.getuid()` in real use. */
  uid?: number;
}

export interface InstalledPlugins {
  registry: PluginRegistry;
  /** What loaded, and why anything did not (skipped, refused, failed). */
  report: LoadReport;
  /** What a contribution's factory receives for the plugin that registered it. */
  contextFor(pluginId: string): PluginServiceContext;
}

/**
 * Discovers and loads the bundled and the user's plugins into a fresh registry. The gateway
 * and the CLI both start here, so a slot (`plugins.slots.memory`…) means the same in both.
 * Refused and failed plugins are logged and reported, never thrown: one bad plugin does not
 * take the rest down.
 */
export async function loadInstalledPlugins(options: InstalledPluginsOptions): Promise<InstalledPlugins> {
  const { config, log } = options;
  const registry = new PluginRegistry(() => config().slots);
  const discovered = await discoverPlugins([
    { dir: options.bundledDir, source: 'bundled' },
    { dir: options.userExtensionsDir, source: 'user' },
  ]);
  const report = await loadPlugins({ discovered, config: config(), registry, log, uid: options.uid });
  for (const refused of report.refused) log.warn('plugin refused', { plugin: refused.id, refusals: refused.refusals });
  for (const failed of report.failed) log.error('plugin failed', { plugin: failed.id, error: failed.error });
  return {
    registry,
    report,
    contextFor: (pluginId) => ({
      pluginId,
      config: config().entries[pluginId]?.config ?? {},
      log: log.child({ plugin: pluginId }),
      home: options.home,
    }),
  };
}
