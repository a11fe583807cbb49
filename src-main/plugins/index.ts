export {
  bundledPluginsDir,
  type InstalledPlugins,
  type InstalledPluginsOptions,
  loadInstalledPlugins,
} from './installed-plugins.js';
export {
  type DiscoveredPlugin,
  discoverPlugins,
  installPlugin,
  type LoadReport,
  loadPlugins,
  PluginInstallRefused,
  resolveEntry,
} from './plugin-loader.js';
export { PLUGIN_MANIFEST_FILE, type PluginManifest, pluginManifestSchema } from './plugin-manifest.js';
export { type ContributionKind, PluginRegistry } from './plugin-registry.js';
export { checkPluginFiles, type PluginRefusal, scanPluginSource, scanSourceText } from './plugin-safety.js';
export { type PluginsConfig, pluginsConfigSchema } from './plugins-config.js';
