import type { TurnEngine } from '../agent/index.js';
import type { Clock } from '../base/clock.js';
import { HearthError } from '../base/errors.js';
import type { Logger } from '../base/logger.js';
import {
  type CliEngineDeps,
  type CliUsageMeter,
  createCliEngine,
  createCliSessionStore,
} from '../cli-backends/index.js';
import type { ApprovalGate } from '../exec/index.js';
import type { HearthPaths } from '../paths/index.js';
import type { InstalledPlugins } from '../plugins/index.js';
import type { CliBackendService } from '../plugins/sdk/index.js';
import { parseSessionKey } from '../sessions/index.js';
import { currentUsageTag, type UsageService } from '../usage/index.js';
import type { HearthConfigService } from './hearth-config.js';

export interface WiredCliBackends {
  /** The engine of an agent's turn in a session when its config names one (`engine`), else undefined (the model loop). */
  engineFor(agentId: string, sessionKey: string): TurnEngine | undefined;
}

/**
 * CLI backends (src-main/cli-backends): the backends plugins registered (the bundled
 * extensions/cli-backends gives "claude-code" and "codex"), each agent's `engine` read from
 * config at every turn, the CLI session ids beside the agent's sessions, and the usage meter
 * counting what the CLI reports under the turn's tag (the runtime's aroundTurn sets it).
 */
export async function wireCliBackends(deps: {
  config: Pick<HearthConfigService, 'current'>;
  paths: HearthPaths;
  clock: Clock;
  log: Logger;
  plugins: InstalledPlugins;
  usage?: Pick<UsageService, 'meter'>;
  /** Hearth's approvals: a CLI that can hand over its permission prompts (Claude Code) asks the person here. */
  approvals?: ApprovalGate;
  /** Told each CLI's pid as it starts. */
  onSpawn?(pid: number): void;
}): Promise<WiredCliBackends> {
  const backends = new Map<string, CliBackendService>();
  for (const { pluginId, id } of deps.plugins.registry.list('cli-backend')) {
    const contribution = deps.plugins.registry.get<CliBackendService>('cli-backend', id)!;
    try {
      backends.set(id, await contribution.create(deps.plugins.contextFor(pluginId)));
    } catch (error) {
      deps.log.error('a CLI backend failed to start; agents using it get an error', {
        plugin: pluginId,
        backend: id,
        error: String(error),
      });
    }
  }
  const sessions = createCliSessionStore({
    agentDir: (agentId) => deps.paths.agentDir(agentId),
    now: () => deps.clock.now(),
  });
  const approvals = deps.approvals;
  const meter: CliUsageMeter | undefined = deps.usage && {
    check: (target) => deps.usage!.meter.check(currentUsageTag(), target),
    record: (call) => void deps.usage!.meter.record(call, currentUsageTag()),
  };
  return {
    engineFor(agentId, sessionKey) {
      const { agents } = deps.config.current;
      const own = agents.list.find((agent) => agent.id === agentId);
      const settings = own?.engine ?? agents.defaults?.engine;
      if (!settings) return undefined;
      if (settings.for === 'subagents' && !isSubagentSession(sessionKey)) return undefined;
      const backend = backends.get(settings.cli);
      if (!backend) {
        const where = own?.engine ? `agents.list[id=${agentId}].engine.cli` : 'agents.defaults.engine.cli';
        throw new HearthError(
          'bad_request',
          `${where} is "${settings.cli}", but no CLI backend has that id (available: ${[...backends.keys()].join(', ') || 'none'})`,
        );
      }
      return createCliEngine({
        backend,
        settings,
        sessions,
        ...(meter ? { meter } : {}),
        env: process.env,
        newId: () => crypto.randomUUID(),
        now: () => deps.clock.now(),
        ...(deps.onSpawn ? { onSpawn: deps.onSpawn } : {}),
        ...(approvals ? { approve: askThePerson(approvals, backend) } : {}),
      });
    },
  };
}

/**
 * A CLI's permission prompt as an approval request, like an MCP tool's: the person sees which CLI
 * asks for which tool with which input; allow-once or deny (nothing is remembered for a CLI's
 * tools: the CLI's own settings are where a standing permission belongs). Nobody to ask, or no
 * answer in time: denied.
 */
function askThePerson(approvals: ApprovalGate, backend: CliBackendService): NonNullable<CliEngineDeps['approve']> {
  return async (request, signal) => {
    const json = JSON.stringify(request.input);
    const command = `${backend.id} ${request.toolName} ${json}`;
    const resolution = await approvals.request(
      {
        agentId: request.agentId,
        sessionKey: request.sessionKey,
        command,
        analysis: {
          commands: [{ name: backend.id, args: [request.toolName, json], via: [], source: command }],
          findings: [],
          parseError: false,
        },
        reasons: [{ code: 'cli-permission', detail: `${backend.label} asks to use ${request.toolName}` }],
        cwd: request.cwd,
        host: `cli:${backend.id}`,
        askFallback: 'deny',
        allowlistSatisfied: false,
        subject: {
          kind: 'mcp',
          tool: `${backend.id}__${request.toolName}`,
          server: backend.id,
          args: json,
          access: 'write',
        },
        allowedDecisions: ['allow-once', 'deny'],
      },
      signal,
    );
    if (resolution.decision !== 'deny') return { allow: true };
    const why = resolution.reason ? `: ${resolution.reason}` : '';
    return {
      allow: false,
      message: `the Hearth user did not allow ${request.toolName} (${resolution.resolvedBy})${why}`,
    };
  };
}

function isSubagentSession(sessionKey: string): boolean {
  const key = parseSessionKey(sessionKey);
  return key.kind === 'task' && key.scope === 'subagent';
}
