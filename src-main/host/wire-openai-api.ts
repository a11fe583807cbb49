import type { Clock } from '../base/clock.js';
import { type Disposable, DisposableStore } from '../base/disposable.js';
import type { Logger } from '../base/logger.js';
import type { GatewayCore } from '../gateway/gateway-core.js';
import type { HttpRoute } from '../gateway/http-route-registry.js';
import { configuredAgentIds } from './agent-roster.js';
import type { HearthConfigService } from './hearth-config.js';
import { HEARTH_VERSION } from './version.js';

/** A route whose module loads on its first request: the gateway's cold start pays nothing for it. */
function lazyRoute(paths: readonly string[], load: () => Promise<HttpRoute>): HttpRoute {
  let route: Promise<HttpRoute> | undefined;
  return {
    paths,
    async handle(request, response, peer) {
      route ??= load();
      return (await route).handle(request, response, peer);
    },
  };
}

/**
 * The HTTP APIs on the gateway's port: the OpenAI-compatible API under `/v1/` (while
 * `gateway.openaiApi.enabled`) and MCP over Streamable HTTP at `/mcp` (while `gateway.mcpHttp.enabled`).
 * Added with the gateway, so while capabilities load a turn is refused as "starting" (503).
 */
export function wireOpenAiApi(deps: {
  core: Pick<GatewayCore, 'httpRoutes' | 'authenticateBearer' | 'callAs' | 'subscribeAs'>;
  config: Pick<HearthConfigService, 'current'>;
  clock: Clock;
  log: Logger;
}): Disposable {
  const { core, config } = deps;
  const store = new DisposableStore();
  store.add(
    core.httpRoutes.add(
      lazyRoute(['/v1/'], async () =>
        (await import('../openai-api/index.js')).createOpenAiApiRoute({
          gateway: core,
          enabled: () => config.current.gateway.openaiApi.enabled,
          agents: () => configuredAgentIds(config.current.agents),
          clock: deps.clock,
          log: deps.log.child({ part: 'openai-api' }),
        }),
      ),
    ),
  );
  store.add(
    core.httpRoutes.add(
      // The path is mcp-server's MCP_PATH, spelled here so the module loads only when asked for.
      lazyRoute(['/mcp'], async () =>
        (await import('../mcp-server/index.js')).createMcpHttpRoute({
          core,
          enabled: () => config.current.gateway.mcpHttp.enabled,
          version: HEARTH_VERSION,
        }),
      ),
    ),
  );
  return store;
}
