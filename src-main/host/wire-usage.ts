import { join } from 'node:path';
import type { Clock } from '../base/clock.js';
import { DisposableStore } from '../base/disposable.js';
import type { Logger } from '../base/logger.js';
import type { GatewayCore } from '../gateway/gateway-core.js';
import { registerUsageMethods } from '../gateway/methods/usage.js';
import type { HearthPaths } from '../paths/index.js';
import { createUsageService, type UsageService } from '../usage/index.js';
import type { HearthConfigService } from './hearth-config.js';

export interface WiredUsage extends UsageService {}

/**
 * The usage meter (docs/USAGE.md): built before the agent so every model the factory makes is
 * metered; ledgers in state/usage/, caps from `usage` in hearth.json (a change applies to the
 * next call), `usage.limit` on the bus when a cap crosses its warning line or runs out.
 */
export async function wireUsage(deps: {
  core: Pick<GatewayCore, 'registry' | 'bus'>;
  config: Pick<HearthConfigService, 'current' | 'patch' | 'onDidChange'>;
  paths: HearthPaths;
  clock: Clock;
  log: Logger;
}): Promise<WiredUsage> {
  const { core, config } = deps;
  const store = new DisposableStore();
  const usage = store.add(
    await createUsageService({
      dir: join(deps.paths.stateDir, 'usage'),
      clock: deps.clock,
      log: deps.log.child({ part: 'usage' }),
      config: () => config.current.usage,
      patchConfig: (patch) => config.patch(patch),
      onLimit: (event) => core.bus.publish('usage.limit', event),
    }),
  );
  store.add(config.onDidChange(['usage'], () => usage.meter.reevaluate()));
  store.add(registerUsageMethods(core.registry, usage));
  return { ...usage, dispose: () => store.dispose() };
}
