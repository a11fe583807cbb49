import type { Disposable } from '../base/disposable.js';
import type { GatewayCore } from '../gateway/gateway-core.js';
import { registerAgentsAdminMethods } from '../gateway/methods/agents-admin.js';
import type { HearthPaths } from '../paths/index.js';
import { createRoster } from '../roster/index.js';
import type { HearthConfigService } from './hearth-config.js';

/** `agents.create|update|delete` over hearth.json's agents section (docs/AGENT.md "Your agents"). */
export function wireRoster(deps: {
  core: Pick<GatewayCore, 'registry'>;
  config: HearthConfigService;
  paths: HearthPaths;
}): Disposable {
  return registerAgentsAdminMethods(deps.core.registry, createRoster({ config: deps.config, paths: deps.paths }));
}
