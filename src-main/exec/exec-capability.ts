import { accessSync, readdirSync, statSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Clock } from '../base/clock.js';
import type { AsyncDisposable } from '../base/disposable.js';
import type { Logger } from '../base/logger.js';
import type { HearthPaths } from '../paths/index.js';
import type { ToolDefinition } from '../tools/tool.js';
import type { AnalysisSummary } from './analysis-types.js';
import { summariseAnalysis } from './analysis-types.js';
import { approvalsHistoryPath, createApprovalHistory } from './approval-history.js';
import { type ApprovalEventSink, ApprovalService } from './approval-service.js';
import { lazyBashParser } from './bash-parser.js';
import { buildChildEnv } from './child-env.js';
import { createCommandChecker } from './command-checker.js';
import { createCommandScreen, type ScreenPlace } from './command-screen.js';
import type { ExecConfig } from './exec-config.js';
import { ExecHost, type ExecRequest } from './exec-host.js';
import { defaultExecPolicy } from './exec-policy.js';
import { createExecTool } from './exec-tool.js';
import { usualTopLevel } from './floor-targets.js';
import { createFsExecutableCheck, createPathResolver } from './path-resolver.js';
import { PermissionStore } from './permission-store.js';
import type { SpawnFn } from './process-runner.js';
import type { PtySpawnFn } from './pty-session.js';
import { createBubblewrapSandbox, createDockerSandbox, createLocalSandbox } from './sandbox.js';
import { createSmartTriage, type SmartJudge } from './smart-approval.js';
import { type TerminalEventSink, TerminalManager } from './terminal-manager.js';

export interface ExecCapabilityDeps {
  paths: HearthPaths;
  clock: Clock;
  logger: Logger;
  /** The gateway's EventBus. */
  events: ApprovalEventSink & TerminalEventSink;
  /** The process environment at the edge; children get a filtered copy. */
  env: Record<string, string | undefined>;
  /** `tools.exec` of an agent (parsed with execConfigSchema). */
  configFor(agentId: string): ExecConfig;
  spawn: SpawnFn;
  spawnPty: PtySpawnFn;
  /** The cheap model behind smart approval; without it `smart` behaves like `human`. */
  judge?: SmartJudge;
  /** Whether a connected client holds operator.approvals (the gateway knows). */
  hasWireApprovers?: () => boolean;
  shell?: string;
}

export interface ExecCapability extends AsyncDisposable {
  host: ExecHost;
  approvals: ApprovalService;
  /** Every "allow always" rule (exec, MCP, files): `state/permissions.json`. */
  permissions: PermissionStore;
  terminals: TerminalManager;
  tool: ToolDefinition<ExecRequest>;
  /** For `exec.approval.request` over the wire; after `approvals.ready()` (it parses). */
  describe(command: string, cwd: string): AnalysisSummary;
  /** The filtered environment for terminals. */
  terminalEnv(): Record<string, string>;
}

/** Builds the exec host, approvals and terminals from the composition root's dependencies. */
export async function createExecCapability(deps: ExecCapabilityDeps): Promise<ExecCapability> {
  const shell = deps.shell ?? '/bin/bash';
  // Loads on the first command (ExecHost.execute, ApprovalService.request, terminal.open await
  // it), not while composing: web-tree-sitter's WASM and the grammar are off the path to Ready.
  const parser = lazyBashParser();
  const resolver = createPathResolver({
    path: deps.env.PATH ?? '/usr/local/bin:/usr/bin:/bin',
    isExecutable: createFsExecutableCheck({ accessSync, statSync }),
  });
  // What the floor and the person-only reads judge against: this machine's root and Hearth's own secrets.
  const place: ScreenPlace = {
    ...(deps.env.HOME ? { home: deps.env.HOME } : {}),
    topLevel: [...new Set([...usualTopLevel, ...rootEntries()])],
    sensitivePaths: [deps.paths.identityDir, join(deps.paths.stateDir, 'secrets.enc.json')],
  };
  const screen = createCommandScreen(parser, place);
  const permissions = await PermissionStore.open(deps.paths.stateDir, deps.clock);
  const approvals = new ApprovalService({
    clock: deps.clock,
    screen,
    screenReady: parser.ready,
    permissions,
    events: deps.events,
    history: createApprovalHistory(approvalsHistoryPath(deps.paths.stateDir)),
    logger: deps.logger.child({ capability: 'approvals' }),
    ...(deps.env.HOME ? { home: deps.env.HOME } : {}),
    ...(deps.hasWireApprovers ? { hasWireApprovers: deps.hasWireApprovers } : {}),
    ...(deps.judge
      ? {
          smartTriage: createSmartTriage({
            judge: deps.judge,
            clock: deps.clock,
            parser,
            timeoutMs: deps.configFor('main').approvals.timeoutMs,
          }),
        }
      : {}),
  });
  const host = new ExecHost({
    parser,
    resolver,
    approvals,
    // Exec's "allow always" entries are rules of the one permission store (listed and revoked there).
    allowlist: permissions.allowlist(),
    configFor: deps.configFor,
    sandboxes: {
      local: createLocalSandbox({ shell }),
      bubblewrap: createBubblewrapSandbox({ shell, spawn: deps.spawn }),
      docker: createDockerSandbox({ shell, spawn: deps.spawn, image: deps.configFor('main').sandbox.image }),
    },
    spawn: deps.spawn,
    spawnPty: deps.spawnPty,
    baseEnv: deps.env,
    ...(deps.env.HOME ? { home: deps.env.HOME } : {}),
    place,
    readScript: (path) => readFile(path, 'utf8').catch(() => undefined),
    clock: deps.clock,
    logger: deps.logger.child({ capability: 'exec' }),
  });
  const terminals = new TerminalManager({
    spawnPty: deps.spawnPty,
    events: deps.events,
    shell,
    screen,
    screenReady: parser.ready,
  });
  const checker = createCommandChecker(parser, resolver);
  return {
    host,
    approvals,
    permissions,
    terminals,
    tool: createExecTool(host),
    describe: (command, cwd) =>
      summariseAnalysis(checker.check(command, defaultExecPolicy, { ...place, cwd }).analysis),
    terminalEnv: () => buildChildEnv(deps.env, deps.configFor('main').envPassthrough),
    async dispose() {
      approvals.dispose();
      terminals.dispose();
      await approvals.flushHistory();
      await permissions.flush();
    },
  };
}

function rootEntries(): string[] {
  try {
    return readdirSync('/');
  } catch {
    return [];
  }
}
