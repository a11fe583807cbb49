import { join } from 'node:path';
import type { Clock } from '../base/clock.js';
import { type AsyncDisposable, DisposableStore } from '../base/disposable.js';
import type { Logger } from '../base/logger.js';
import type { ConfigService } from '../config/index.js';
import type { ApprovalGate } from '../exec/index.js';
import type { GatewayCore } from '../gateway/gateway-core.js';
import { registerMcpMethods } from '../gateway/methods/mcp.js';
import { type AgentMcpConfig, McpAlwaysAllowed, McpHub, type McpSecretSource } from '../mcp/index.js';
import type { HearthPaths } from '../paths/index.js';
import type { ToolDefinition } from '../tools/tool.js';
import { HEARTH_VERSION } from './version.js';

export interface WiredMcp extends AsyncDisposable {
  /** The agent's MCP tools for this turn (starting the servers it enables); [] when it enables none. */
  toolsFor(agentId: string): Promise<ToolDefinition[]>;
  /** Stops every server and waits for stdio children to end. */
  dispose(): Promise<void>;
}

/**
 * The MCP client (docs/MCP.md): `mcp.servers` from hearth.json, each agent's `mcp` (its own, else
 * `agents.defaults.mcp`), write tools asked through the exec approval queue, and the
 * `mcp.servers.*` methods. Servers start when a turn of an agent that enables them begins.
 */
export async function wireMcp(deps: {
  core: Pick<GatewayCore, 'registry'>;
  paths: Pick<HearthPaths, 'stateDir'>;
  config: Pick<ConfigService, 'current' | 'onDidChange'>;
  secrets: McpSecretSource;
  approvals: ApprovalGate;
  clock: Clock;
  log: Logger;
  env: Record<string, string | undefined>;
}): Promise<WiredMcp> {
  const { config } = deps;
  const store = new DisposableStore();
  const log = deps.log.child({ part: 'mcp' });
  const file = join(deps.paths.stateDir, 'mcp-approvals.json');
  // A damaged file costs "allow always" (every write asks), never the host's start.
  const alwaysAllowed = await McpAlwaysAllowed.open(file).catch((error: unknown) => {
    log.warn('MCP "allow always" list unreadable; every write tool asks', { file, error: String(error) });
    return undefined;
  });
  const hub = new McpHub({
    config: () => config.current.mcp,
    agentConfig: (agentId): AgentMcpConfig | undefined => {
      const { agents } = config.current;
      return agents.list.find((agent) => agent.id === agentId)?.mcp ?? agents.defaults?.mcp;
    },
    secrets: deps.secrets,
    approvals: deps.approvals,
    ...(alwaysAllowed ? { alwaysAllowed } : {}),
    clock: deps.clock,
    log,
    baseEnv: deps.env,
    clientVersion: HEARTH_VERSION,
  });
  store.add(hub);
  // A removed or edited server stops now (an edited one starts again when next used).
  store.add(config.onDidChange(['mcp'], () => hub.reconcile()));
  store.add(
    registerMcpMethods(deps.core.registry, {
      list: () => hub.list(),
      test: (name, raw) => hub.test(name, raw),
      alwaysAllowed: () => hub.alwaysAllowed(),
      revoke: (tool) => hub.revoke(tool),
    }),
  );
  return {
    toolsFor: (agentId) => hub.toolsFor(agentId),
    dispose: async () => {
      await hub.close();
      store.dispose();
    },
  };
}
