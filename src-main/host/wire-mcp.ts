import { join } from 'node:path';
import type { Clock } from '../base/clock.js';
import { type AsyncDisposable, DisposableStore } from '../base/disposable.js';
import { HearthError } from '../base/errors.js';
import type { Logger } from '../base/logger.js';
import type { ConfigService } from '../config/index.js';
import type { ApprovalGate } from '../exec/index.js';
import type { GatewayCore } from '../gateway/gateway-core.js';
import { registerMcpMethods } from '../gateway/methods/mcp.js';
import { type AgentMcpConfig, McpAlwaysAllowed, McpHub, type McpSecretSource, planMcpImport } from '../mcp/index.js';
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
  core: Pick<GatewayCore, 'registry' | 'bus'>;
  paths: Pick<HearthPaths, 'stateDir'>;
  config: Pick<ConfigService, 'current' | 'onDidChange' | 'patch'>;
  secrets: McpSecretSource;
  approvals: ApprovalGate;
  /** The exec hard floor's reasons against a command line (`ApprovalService.screen`). */
  floorReasons?(commandLine: string): string[];
  clock: Clock;
  log: Logger;
  env: Record<string, string | undefined>;
}): Promise<WiredMcp> {
  const { config } = deps;
  const store = new DisposableStore();
  const log = deps.log.child({ part: 'mcp' });
  const file = join(deps.paths.stateDir, 'mcp-approvals.json');
  // "Allow always" is a rule of the approvals' permission store (which imported the older file);
  // a damaged older file, used only without that store, costs "allow always", never the host's start.
  const permissions = deps.approvals.permissions;
  const alwaysAllowed = permissions
    ? McpAlwaysAllowed.over(permissions)
    : await McpAlwaysAllowed.open(file).catch((error: unknown) => {
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
    ...(deps.floorReasons ? { refuseCommand: deps.floorReasons } : {}),
  });
  store.add(hub);
  store.add(hub.onDidChange((server) => deps.core.bus.publish('mcp.servers.changed', { server })));
  // A removed or edited server stops now (an edited one starts again when next used).
  store.add(config.onDidChange(['mcp'], () => hub.reconcile()));
  store.add(
    registerMcpMethods(deps.core.registry, {
      list: () => hub.list(),
      test: (name, raw) => hub.test(name, raw),
      alwaysAllowed: () => hub.alwaysAllowed(),
      revoke: (tool) => hub.revoke(tool),
      importServers: async (json, apply) => {
        const plan = planMcpImport(json, config.current.mcp.servers);
        const adding = Object.keys(plan.servers).length > 0;
        if (apply && adding)
          await config.patch({ mcp: { servers: plan.servers } }).catch((error: unknown) => {
            throw new HearthError('bad_request', `hearth.json refused the import: ${errorText(error)}`);
          });
        return { ...plan, applied: apply && adding };
      },
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

function errorText(error: unknown): string {
  const problems = (error as { errors?: { path?: string; message?: string }[] }).errors;
  if (Array.isArray(problems) && problems.length > 0)
    return problems.map((problem) => `${problem.path ?? ''}: ${problem.message ?? ''}`).join('; ');
  return error instanceof Error ? error.message : String(error);
}
