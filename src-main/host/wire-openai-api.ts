import type { Clock } from '../base/clock.js';
import type { Disposable } from '../base/disposable.js';
import type { Logger } from '../base/logger.js';
import type { ConfigService } from '../config/index.js';
import type { GatewayCore } from '../gateway/gateway-core.js';
import { createOpenAiApiRoute } from '../openai-api/index.js';
import { configuredAgentIds } from './agent-roster.js';

/** The OpenAI-compatible API on the gateway's port; answers only while `gateway.openaiApi.enabled`. */
export function wireOpenAiApi(deps: {
  core: Pick<GatewayCore, 'httpRoutes' | 'authenticateBearer' | 'callAs' | 'subscribeAs'>;
  config: Pick<ConfigService, 'current'>;
  clock: Clock;
  log: Logger;
}): Disposable {
  const { core, config } = deps;
  return core.httpRoutes.add(
    createOpenAiApiRoute({
      gateway: core,
      enabled: () => config.current.gateway.openaiApi.enabled,
      agents: () => configuredAgentIds(config.current.agents),
      clock: deps.clock,
      log: deps.log.child({ part: 'openai-api' }),
    }),
  );
}
