import type { Logger } from '../../base/logger.js';

/** What a plugin's factories receive when the host instantiates a contribution. */
export interface PluginServiceContext {
  pluginId: string;
  /** The plugin's own config block (`plugins.entries.<id>.config`). */
  config: Record<string, unknown>;
  log: Logger;
  /** HEARTH_HOME */
  home: string;
}

/** A contribution of some kind (memory backend, context engine, …), created lazily by the host. */
export interface Contribution<Service, Deps = PluginServiceContext> {
  id: string;
  description?: string;
  create(deps: Deps): Service | Promise<Service>;
}
