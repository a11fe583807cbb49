import { spawn } from 'node:child_process';
import * as pty from 'node-pty';
import type { Clock } from '../base/clock.js';
import { type AsyncDisposable, AsyncDisposableStore } from '../base/disposable.js';
import type { Logger } from '../base/logger.js';
import {
  type ApprovalPrompter,
  createExecCapability,
  type ExecCapability,
  type ExecConfig,
  execConfigSchema,
} from '../exec/index.js';
import type { GatewayCore } from '../gateway/gateway-core.js';
import { registerExecMethods } from '../gateway/methods/exec.js';
import { registerPermissionsMethods } from '../gateway/methods/permissions.js';
import { registerTerminalMethods } from '../gateway/methods/terminal.js';
import type { HearthPaths } from '../paths/index.js';
import { hasScope } from '../protocol/index.js';
import { withUsageTag } from '../usage/index.js';
import type { HearthConfigService } from './hearth-config.js';

export interface WiredExec extends AsyncDisposable {
  exec: ExecCapability;
  /** A command line's hard-floor findings: an MCP server's command line meets the same floor as exec's. */
  floorReasons(commandLine: string): Promise<string[]>;
}

/**
 * An agent's exec settings: its own `agents.list[].tools.exec`, else `agents.defaults.tools.exec`,
 * else the root `tools.exec`; read on every use, so an edit applies to the next command.
 */
export function execConfigFor(config: Pick<HearthConfigService, 'current'>, agentId: string): ExecConfig {
  const { agents, tools } = config.current;
  const own = agents.list.find((agent) => agent.id === agentId)?.tools?.exec;
  return execConfigSchema.parse(own ?? agents.defaults?.tools?.exec ?? tools.exec ?? {});
}

/** The exec host, approvals (wire, native dialogs, smart triage) and terminals, with their methods. */
export async function wireExec(deps: {
  core: Pick<GatewayCore, 'registry' | 'bus' | 'callers'>;
  config: Pick<HearthConfigService, 'current'>;
  paths: HearthPaths;
  clock: Clock;
  log: Logger;
  env: Record<string, string | undefined>;
  prompters: readonly ApprovalPrompter[];
  /** One short completion (the smart-approval judge's verdict). */
  modelText(ref: string, prompt: string, signal: AbortSignal): Promise<string>;
  primaryModel(agentId: string): string | undefined;
}): Promise<WiredExec> {
  const { core, config, paths } = deps;
  const root = new AsyncDisposableStore();
  const exec = await createExecCapability({
    paths,
    clock: deps.clock,
    logger: deps.log.child({ part: 'exec' }),
    events: core.bus,
    env: deps.env,
    configFor: (agentId) => execConfigFor(config, agentId),
    spawn,
    spawnPty: pty.spawn,
    // Smart approval: a cheaper model triages what would be asked (exec.approvals.mode "smart").
    judge: async (prompt, signal) => {
      const ref = execConfigFor(config, 'main').approvals.model ?? deps.primaryModel('main');
      if (!ref) throw new Error('no model for smart approval (tools.exec.approvals.model)');
      return withUsageTag({ purpose: 'approval' }, () => deps.modelText(ref, prompt, signal));
    },
    hasWireApprovers: () =>
      core.callers().some((c) => c.role === 'operator' && hasScope(c.scopes, 'operator.approvals')),
  });
  // Settling pending approvals records them; shutdown waits until those lines are on disk.
  root.add({ dispose: () => exec.dispose() });
  for (const prompter of deps.prompters) root.add(exec.approvals.registerPrompter(prompter));
  root.add(
    registerExecMethods(core.registry, {
      approvals: exec.approvals,
      describe: exec.describe,
      defaultCwd: paths.workspaceDir('main'),
    }),
  );
  // One list of what was allowed always or for a session, for every tool (the Permissions view).
  root.add(registerPermissionsMethods(core.registry, { store: exec.permissions, approvals: exec.approvals }));
  root.add(
    registerTerminalMethods(core.registry, {
      terminals: exec.terminals,
      workspaceDir: paths.workspaceDir,
      env: exec.terminalEnv,
    }),
  );
  const floorReasons = async (line: string) => {
    await exec.approvals.ready();
    return exec.approvals.screen(line, deps.env.HOME ?? '/').floor.map((reason) => reason.detail);
  };
  return { exec, floorReasons, dispose: () => root.dispose() };
}
