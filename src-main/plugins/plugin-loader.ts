import { existsSync } from 'node:fs';
import { cp, mkdir, readdir, readFile, stat } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Logger } from '../base/logger.js';
import { PLUGIN_MANIFEST_FILE, type PluginManifest, pluginManifestSchema } from './plugin-manifest.js';
import type { PluginRegistry } from './plugin-registry.js';
import { checkPluginFiles, type PluginRefusal, scanPluginSource } from './plugin-safety.js';
import type { PluginsConfig } from './plugins-config.js';
import type { HearthPlugin } from './sdk/plugin-api.js';

export interface DiscoveredPlugin {
  root: string;
  source: 'bundled' | 'user';
  manifest?: PluginManifest;
  /** Why the manifest could not be used. */
  problem?: string;
}

export interface LoadReport {
  loaded: { id: string; source: string }[];
  skipped: { id: string; reason: string }[];
  refused: { id: string; refusals: PluginRefusal[] }[];
  failed: { id: string; error: string }[];
}

/** Finds plugin folders (each with a hearth.plugin.json) under the given roots. */
export async function discoverPlugins(
  roots: { dir: string; source: 'bundled' | 'user' }[],
): Promise<DiscoveredPlugin[]> {
  const found: DiscoveredPlugin[] = [];
  for (const { dir, source } of roots) {
    let names: string[];
    try {
      names = await readdir(dir);
    } catch {
      continue;
    }
    for (const name of names.sort()) {
      const root = join(dir, name);
      const manifestPath = join(root, PLUGIN_MANIFEST_FILE);
      if (!existsSync(manifestPath)) continue;
      try {
        const parsed = pluginManifestSchema.safeParse(JSON.parse(await readFile(manifestPath, 'utf8')));
        if (parsed.success) found.push({ root, source, manifest: parsed.data });
        else
          found.push({
            root,
            source,
            problem: `${manifestPath}: ${parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`,
          });
      } catch (error) {
        found.push({ root, source, problem: `${manifestPath}: ${(error as Error).message}` });
      }
    }
  }
  return found;
}

/** The entry to import: the manifest's `main`, or its compiled `.js` twin (built app, dist mirror). */
export function resolveEntry(root: string, main: string, distMirror?: string): string | undefined {
  const candidates = [resolve(root, main), resolve(root, main.replace(/\.ts$/, '.js'))];
  if (distMirror) candidates.push(resolve(distMirror, main.replace(/\.ts$/, '.js')));
  return candidates.find((path) => existsSync(path));
}

export interface LoadPluginsOptions {
  discovered: DiscoveredPlugin[];
  config: PluginsConfig;
  registry: PluginRegistry;
  log: Logger;
  uid?: number;
  /** Where compiled bundled plugins live when running from dist/. */
  distMirror?: (root: string) => string | undefined;
}

/** Loads allowed plugins, refusing unsafe ones; every refusal names the file and the reason. */
export async function loadPlugins(options: LoadPluginsOptions): Promise<LoadReport> {
  const report: LoadReport = { loaded: [], skipped: [], refused: [], failed: [] };
  const { config, registry, log } = options;
  if (!config.enabled) return report;
  for (const plugin of options.discovered) {
    if (!plugin.manifest) {
      report.failed.push({ id: plugin.root, error: plugin.problem ?? 'invalid manifest' });
      continue;
    }
    const { id, main } = plugin.manifest;
    const entryConfig = config.entries[id];
    if (config.deny.includes(id)) {
      report.skipped.push({ id, reason: 'denied by plugins.deny' });
      continue;
    }
    if (config.allow.length > 0 && !config.allow.includes(id)) {
      report.skipped.push({ id, reason: 'not in plugins.allow' });
      continue;
    }
    if (entryConfig?.enabled === false) {
      report.skipped.push({ id, reason: `plugins.entries.${id}.enabled is false` });
      continue;
    }
    const refusals = await checkPluginFiles(plugin.root, main, options.uid);
    if (refusals.length > 0) {
      report.refused.push({ id, refusals });
      for (const r of refusals) log.warn('plugin refused', { plugin: id, file: r.file, reason: r.reason });
      continue;
    }
    const entry = resolveEntry(plugin.root, main, options.distMirror?.(plugin.root));
    if (!entry) {
      report.failed.push({ id, error: `entry ${main} not found in ${plugin.root}` });
      continue;
    }
    try {
      const module = (await import(pathToFileURL(entry).href)) as { default?: HearthPlugin };
      const definition = module.default;
      if (!definition || typeof definition.register !== 'function')
        throw new Error(`${entry} has no default export made with definePlugin()`);
      if (definition.id !== id)
        throw new Error(`${entry} declares id "${definition.id}" but its manifest says "${id}"`);
      await definition.register(registry.apiFor(id, entryConfig?.config ?? {}, log.child({ plugin: id })));
      report.loaded.push({ id, source: plugin.source });
    } catch (error) {
      report.failed.push({ id, error: (error as Error).message });
      log.error('plugin failed to load', { plugin: id, error: (error as Error).message });
    }
  }
  return report;
}

export class PluginInstallRefused extends Error {
  constructor(readonly findings: PluginRefusal[]) {
    super(`plugin refused:\n${findings.map((f) => `  ${f.file}: ${f.reason}`).join('\n')}`);
    this.name = 'PluginInstallRefused';
  }
}

/** Installs a plugin folder into HEARTH_HOME/extensions after the static scan; nothing is copied if it is refused. */
export async function installPlugin(sourceDir: string, userExtensionsDir: string): Promise<PluginManifest> {
  const manifestPath = join(sourceDir, PLUGIN_MANIFEST_FILE);
  const parsed = pluginManifestSchema.safeParse(JSON.parse(await readFile(manifestPath, 'utf8')));
  if (!parsed.success) throw new Error(`${manifestPath}: ${parsed.error.issues.map((i) => i.message).join('; ')}`);
  const findings = await scanPluginSource(sourceDir);
  if (findings.length > 0) throw new PluginInstallRefused(findings);
  const target = join(userExtensionsDir, parsed.data.id);
  if (existsSync(target) && (await stat(target)).isDirectory())
    throw new Error(`a plugin "${parsed.data.id}" is already installed at ${target}`);
  await mkdir(userExtensionsDir, { recursive: true, mode: 0o700 });
  await cp(sourceDir, target, { recursive: true, filter: (src) => !src.includes('node_modules') });
  return parsed.data;
}
