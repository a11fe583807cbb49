import type { Logger } from '../base/logger.js';
import type { MemoryBackend } from '../memory/index.js';
import type { LoadReport, PluginRegistry } from '../plugins/index.js';
import type { PluginServiceContext } from '../plugins/sdk/contributions.js';

/** The backend used when `plugins.slots.memory` is not set. */
export const DEFAULT_MEMORY_BACKEND = 'memory-lancedb';

export interface MemoryBackendSlotOptions {
  plugins: PluginRegistry;
  /** `plugins.slots` of the config. */
  slots: Record<string, string>;
  pluginContext(pluginId: string): PluginServiceContext;
  log: Logger;
  /** What plugin loading reported, so a missing backend says why (denied, refused, failed to load). */
  report?: LoadReport;
}

/**
 * The memory backend named by `plugins.slots.memory` (default: the bundled `memory-lancedb`),
 * or `undefined` when the slot is `"none"` and memory is off. The gateway and `hearth memory`
 * both choose through here, so they always read and write the same index. A slot naming a
 * backend no plugin provides is an error naming it and the available ones, never a fallback.
 */
export async function resolveMemoryBackend(options: MemoryBackendSlotOptions): Promise<MemoryBackend | undefined> {
  const { plugins, log } = options;
  const chosen = options.slots.memory ?? DEFAULT_MEMORY_BACKEND;
  if (chosen === 'none') {
    log.info('memory is off (plugins.slots.memory is "none")');
    return undefined;
  }
  const contribution = plugins.get<MemoryBackend>('memory', chosen);
  if (!contribution) {
    const available = plugins.list('memory').map((entry) => entry.id);
    throw new Error(
      `plugins.slots.memory is "${chosen}", but no plugin provides it (available: ${available.join(', ') || 'none'})${whyNotLoaded(options.report, chosen)}`,
    );
  }
  const owner = plugins.list('memory').find((entry) => entry.id === chosen)?.pluginId ?? chosen;
  return contribution.create(options.pluginContext(owner));
}

// A backend's id is usually its plugin's id: when a plugin of that id did not load, say why.
function whyNotLoaded(report: LoadReport | undefined, id: string): string {
  const skipped = report?.skipped.find((entry) => entry.id === id);
  if (skipped) return `; plugin ${id} was skipped: ${skipped.reason}`;
  const refused = report?.refused.find((entry) => entry.id === id);
  if (refused)
    return `; plugin ${id} was refused: ${refused.refusals.map((refusal) => `${refusal.file}: ${refusal.reason}`).join('; ')}`;
  const failed = report?.failed.find((entry) => entry.id === id);
  if (failed) return `; plugin ${id} failed to load: ${failed.error}`;
  return '';
}
