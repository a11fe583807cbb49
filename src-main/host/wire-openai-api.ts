import type { Clock } from '../base/clock.js';
import { type Disposable, DisposableStore } from '../base/disposable.js';
import type { Logger } from '../base/logger.js';
import type { ConfigService } from '../config/index.js';
import type { GatewayCore } from '../gateway/gateway-core.js';
import { createMcpHttpRoute } from '../mcp-server/index.js';
import { createOpenAiApiRoute } from '../openai-api/index.js';
import { configuredAgentIds } from './agent-roster.js';
import { HEARTH_VERSION } from './version.js';

/**
 * The HTTP APIs on the gateway's port: the OpenAI-compatible API (while `gateway.openaiApi.enabled`)
 * and MCP over Streamable HTTP at `/mcp` (while `gateway.mcpHttp.enabled`).
 */
export function wireOpenAiApi(deps: {
  core: Pick<GatewayCore, 'httpRoutes' | 'authenticateBearer' | 'callAs' | 'subscribeAs'>;
  config: Pick<ConfigService, 'current'>;
  clock: Clock;
  log: Logger;
}): Disposable {
  const { core, config } = deps;
  const store = new DisposableStore();
  store.add(
    core.httpRoutes.add(
      createOpenAiApiRoute({
        gateway: core,
        enabled: () => config.current.gateway.openaiApi.enabled,
        agents: () => configuredAgentIds(config.current.agents),
        clock: deps.clock,
        log: deps.log.child({ part: 'openai-api' }),
      }),
    ),
  );
  store.add(
    core.httpRoutes.add(
      createMcpHttpRoute({ core, enabled: () => config.current.gateway.mcpHttp.enabled, version: HEARTH_VERSION }),
    ),
  );
  return store;
}
