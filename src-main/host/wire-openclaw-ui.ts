import { join } from 'node:path';
import type { RuntimeServices } from '../agent/index.js';
import type { Clock } from '../base/clock.js';
import type { Disposable } from '../base/disposable.js';
import { type ApprovalService, approvalsHistoryPath, createApprovalHistory, type ExecConfig } from '../exec/index.js';
import type { GatewayCore } from '../gateway/gateway-core.js';
import { openClawDefaults, registerOpenClawUiMethods } from '../gateway/methods/openclaw-ui.js';
import type { HearthPaths } from '../paths/index.js';
import type { SessionDefaults } from '../protocol/methods/openclaw-chat.js';
import { resolveModelSelection } from '../providers/index.js';
import { configuredAgentIds } from './agent-roster.js';
import type { HearthConfigService } from './hearth-config.js';
import { HEARTH_VERSION } from './version.js';

/**
 * `defaults` for sessions.list, which is wired before the model runtime exists: filled in once
 * wireOpenClawUi runs, and absent (not guessed) until then.
 */
export interface SessionDefaultsSlot {
  get(agentId: string): SessionDefaults | undefined;
}

export function createSessionDefaultsSlot(): SessionDefaultsSlot & {
  fill(source: (agentId: string) => SessionDefaults): void;
} {
  let source: ((agentId: string) => SessionDefaults) | undefined;
  return {
    get: (agentId) => source?.(agentId),
    fill: (next) => {
      source = next;
    },
  };
}

/** What OpenClaw's own Control UI and apps call beyond Hearth's own methods (docs/GATEWAY.md "OpenClaw clients"). */
export function wireOpenClawUi(deps: {
  core: Pick<GatewayCore, 'registry' | 'bus' | 'callers' | 'uptimeMs' | 'version'>;
  config: Pick<HearthConfigService, 'current'>;
  paths: HearthPaths;
  clock: Clock;
  services: RuntimeServices;
  approvals: Pick<ApprovalService, 'list'>;
  execConfig(agentId: string): ExecConfig;
  /** The gateway's own URL (http://127.0.0.1:<port>); known once the server listens. */
  gatewayUrl(): string;
  defaultsSlot?: ReturnType<typeof createSessionDefaultsSlot>;
}): Disposable {
  const { core, config, paths, clock } = deps;
  const { runtime } = deps.services;
  const history = createApprovalHistory(approvalsHistoryPath(paths.stateDir));
  const modelSelection = (agentId: string) => resolveModelSelection(config.current.agents, agentId);
  deps.defaultsSlot?.fill(openClawDefaults({ runtime, modelSelection }));
  const names = () => new Map(config.current.agents.list.map((a) => [a.id, a.name]));
  return registerOpenClawUiMethods(core.registry, {
    runtime,
    bus: core.bus,
    approvals: deps.approvals,
    approvalHistory: () => history.read(),
    agents: () => {
      const named = names();
      return configuredAgentIds(config.current.agents).map((id) => ({ id, name: named.get(id) }));
    },
    modelSelection,
    workspaceDir: (agentId) => paths.workspaceDir(agentId),
    execConfig: deps.execConfig,
    logFile: join(paths.logsDir, 'gateway.log'),
    callers: () => core.callers(),
    uptimeMs: () => core.uptimeMs,
    origin: () => new URL(deps.gatewayUrl()).origin,
    port: () => Number(new URL(deps.gatewayUrl()).port) || 0,
    version: HEARTH_VERSION,
    home: paths.home,
    now: () => clock.now(),
  });
}
