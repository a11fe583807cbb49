import { isAbsolute, resolve } from 'node:path';
import type { Clock } from '../base/clock.js';
import type { Logger } from '../base/logger.js';
import type { ApprovalMarker } from '../protocol/approval-marker.js';
import { allowAlwaysEntries } from './allow-always.js';
import type { AllowlistStore } from './allowlist-store.js';
import { summariseAnalysis } from './analysis-types.js';
import type { ApprovalGate } from './approval-types.js';
import type { BashParser } from './bash-parser.js';
import { buildChildEnv } from './child-env.js';
import { type CheckResult, createCommandChecker } from './command-checker.js';
import type { ScreenPlace } from './command-screen.js';
import type { ExecConfig } from './exec-config.js';
import type { ExecPolicy } from './exec-policy.js';
import { OutputBuffer } from './output-buffer.js';
import type { PathResolver } from './path-resolver.js';
import { evaluatePolicy } from './policy-evaluator.js';
import { type RunResult, runProcess, type SpawnFn } from './process-runner.js';
import { PtySession, type PtySpawnFn } from './pty-session.js';
import type { Sandbox } from './sandbox.js';
import { preflightScripts } from './script-preflight.js';

export interface ExecRequest {
  command: string;
  /** Relative to the agent's workspace. */
  cwd?: string;
  timeoutMs?: number;
  /** Run in a pseudo-terminal (TUIs, prompts, programs that need a TTY). */
  pty?: boolean;
  /** PTY only: keys typed once the program started (e.g. answers to prompts). */
  input?: string;
}

export interface ExecCaller {
  agentId: string;
  sessionKey: string;
  workspaceDir: string;
  signal: AbortSignal;
  onOutput?(text: string): void;
}

export type ExecOutcome =
  | { status: 'denied'; reasons: CheckResult['reasons']; by: string; approval?: ApprovalMarker }
  | { status: 'preflight'; issues: { code: string; detail: string }[]; approval?: ApprovalMarker }
  | { status: 'ran'; result: RunResult; sandbox: string; reasons: CheckResult['reasons']; approval?: ApprovalMarker };

export interface ExecHostDeps {
  parser: BashParser;
  /** Resolves bare names over the PATH commands run with. */
  resolver: PathResolver;
  approvals: ApprovalGate;
  allowlist: AllowlistStore;
  configFor(agentId: string): ExecConfig;
  sandboxes: Partial<Record<'local' | 'bubblewrap' | 'docker', Sandbox>> & { local: Sandbox };
  spawn: SpawnFn;
  spawnPty: PtySpawnFn;
  /** The environment commands start from (filtered through the env allowlist). */
  baseEnv: Record<string, string | undefined>;
  home?: string;
  /** Secret paths and the root's entries, for the hard floor and person-only reads. */
  place?: ScreenPlace;
  readScript(path: string): Promise<string | undefined>;
  clock: Clock;
  logger: Logger;
  killGroup?: (pid: number, signal: NodeJS.Signals) => void;
}

/**
 * The exec host: analyse → decide (policy, then the approval gate) → preflight →
 * run, locally or in a sandbox, as a child process or in a PTY. The hard floor is
 * denied before any approval is requested, so no human or judge can wave it through.
 */
export class ExecHost {
  private readonly checker;

  constructor(private readonly deps: ExecHostDeps) {
    this.checker = createCommandChecker(deps.parser, deps.resolver);
  }

  /** The policy in force for an agent: config, saved "allow always" entries, and any sandbox relaxation. */
  effectivePolicy(agentId: string): { policy: ExecPolicy; relaxed?: string } {
    const config = this.deps.configFor(agentId);
    const policy: ExecPolicy = {
      security: config.security,
      ask: config.ask,
      askFallback: config.askFallback,
      allowlist: [...config.allowlist, ...this.deps.allowlist.entries(agentId)],
    };
    const relax = config.sandbox.relaxPolicy;
    if (config.sandbox.mode === 'local' || !relax) return { policy };
    return {
      policy: { ...policy, security: relax.security ?? policy.security, ask: relax.ask ?? policy.ask },
      relaxed: `policy relaxed inside the ${config.sandbox.mode} sandbox by tools.exec.sandbox.relaxPolicy (${JSON.stringify(relax)})`,
    };
  }

  private where(cwd: string) {
    return { resolver: this.deps.resolver, cwd, home: this.deps.home };
  }

  /**
   * `stdin`: keys a PTY run types into the program; a shell reading them runs them.
   * Parses: with a parser that loads on first use, only after its `ready()` (execute awaits it).
   */
  check(agentId: string, command: string, cwd: string, stdin?: string): CheckResult {
    const { policy, relaxed } = this.effectivePolicy(agentId);
    const result = this.checker.check(command, policy, {
      ...this.deps.place,
      cwd,
      home: this.deps.home,
      ...(stdin === undefined ? {} : { stdin }),
    });
    if (relaxed && result.decision !== 'deny')
      result.reasons = [...result.reasons, { code: 'sandbox-relaxed', detail: relaxed }];
    return result;
  }

  async execute(request: ExecRequest, caller: ExecCaller): Promise<ExecOutcome> {
    // The host's parser loads on the first command; `check` below cannot run before it has.
    await this.deps.parser.ready?.();
    const config = this.deps.configFor(caller.agentId);
    const cwd = request.cwd
      ? isAbsolute(request.cwd)
        ? resolve(request.cwd)
        : resolve(caller.workspaceDir, request.cwd)
      : caller.workspaceDir;
    const checked = this.check(caller.agentId, request.command, cwd, request.pty ? request.input : undefined);
    if (checked.decision === 'deny') return { status: 'denied', reasons: checked.reasons, by: 'policy' };

    let approval: ApprovalMarker | undefined;
    if (checked.decision === 'ask') {
      const { policy } = this.effectivePolicy(caller.agentId);
      // For askFallback `allowlist`: would the allowlist alone have allowed it (ask was `always`)?
      const alone = evaluatePolicy(checked.analysis, { ...policy, ask: 'on-miss' }, { ...this.where(cwd) });
      const allowlistSatisfied = alone.decision === 'allow';
      const alwaysEntries = allowAlwaysEntries(checked.analysis, policy, {
        resolver: this.deps.resolver,
        cwd,
        home: this.deps.home,
      });
      const where = { resolver: this.deps.resolver, cwd, home: this.deps.home };
      const exactEntries = allowAlwaysEntries(checked.analysis, policy, where, 'exact');
      const folderEntries = allowAlwaysEntries(checked.analysis, policy, where, 'folder');
      const resolution = await this.deps.approvals.request(
        {
          allowAlways: alwaysEntries,
          allowAlwaysExact: exactEntries,
          allowAlwaysFolder: folderEntries,
          agentId: caller.agentId,
          sessionKey: caller.sessionKey,
          command: request.command,
          analysis: summariseAnalysis(checked.analysis),
          reasons: checked.reasons,
          cwd,
          ...(request.pty && request.input !== undefined ? { stdin: request.input } : {}),
          askFallback: config.askFallback,
          allowlistSatisfied,
          smart: config.approvals.mode === 'smart',
          timeoutMs: config.approvalTimeoutMs,
        },
        caller.signal,
      );
      // Who answered travels with the result into the transcript (protocol/approval-marker.ts).
      approval = {
        decision:
          resolution.decision === 'allow-once' && resolution.remember === 'session'
            ? 'allow-session'
            : resolution.decision,
        by: resolution.resolvedBy,
      };
      if (resolution.decision === 'deny')
        return {
          status: 'denied',
          reasons: [{ code: 'approval-denied', detail: resolution.reason ?? `denied by ${resolution.resolvedBy}` }],
          by: resolution.resolvedBy,
          approval,
        };
      if (resolution.decision === 'allow-always') {
        const entries =
          resolution.allowAlwaysScope === 'folder'
            ? folderEntries
            : resolution.allowAlwaysScope === 'exact'
              ? exactEntries
              : alwaysEntries;
        for (const entry of entries) await this.deps.allowlist.add(caller.agentId, entry);
        this.deps.logger.info('allow-always saved', { agentId: caller.agentId, entries });
      }
    }

    const issues = await preflightScripts(checked.analysis, cwd, { readScript: this.deps.readScript });
    if (issues.length > 0) return { status: 'preflight', issues, ...(approval ? { approval } : {}) };

    const sandbox = this.deps.sandboxes[config.sandbox.mode];
    if (!sandbox) throw new Error(`the ${config.sandbox.mode} sandbox is not available on this host`);
    const env = buildChildEnv(this.deps.baseEnv, config.envPassthrough, { PWD: cwd });
    const launch = sandbox.wrap({
      command: request.command,
      cwd,
      env,
      workspaceDir: caller.workspaceDir,
      network: config.sandbox.network,
    });
    const timeoutMs = Math.min(request.timeoutMs ?? config.timeoutMs, config.maxTimeoutMs);
    const result = request.pty
      ? await this.runInPty(launch, timeoutMs, config.maxOutputBytes, request.input, caller)
      : await runProcess(
          {
            ...launch,
            timeoutMs,
            maxOutputBytes: config.maxOutputBytes,
            signal: caller.signal,
            onOutput: caller.onOutput,
          },
          { spawn: this.deps.spawn, killGroup: this.deps.killGroup, clock: this.deps.clock },
        );
    return {
      status: 'ran',
      result,
      sandbox: sandbox.name,
      reasons: checked.reasons,
      ...(approval ? { approval } : {}),
    };
  }

  private async runInPty(
    launch: { file: string; args: string[]; env: Record<string, string>; cwd: string },
    timeoutMs: number,
    maxOutputBytes: number,
    input: string | undefined,
    caller: ExecCaller,
  ): Promise<RunResult> {
    const session = new PtySession(
      this.deps.spawnPty,
      { ...launch, env: { ...launch.env, TERM: 'xterm-256color' } },
      this.deps.killGroup,
    );
    const output = new OutputBuffer(maxOutputBytes);
    let timedOut = false;
    let aborted = false;
    const listener = session.onData((text) => {
      output.append(text);
      caller.onOutput?.(text);
    });
    const timer = this.deps.clock.setTimeout(() => {
      timedOut = true;
      session.kill();
    }, timeoutMs);
    const onAbort = () => {
      aborted = true;
      session.kill();
    };
    caller.signal.addEventListener('abort', onAbort, { once: true });
    if (caller.signal.aborted) onAbort();
    if (input !== undefined) session.write(input);
    try {
      const exit = await session.exited;
      return {
        exitCode: exit.signal ? null : exit.exitCode,
        signal: exit.signal ? String(exit.signal) : null,
        output: output.text(),
        truncated: output.truncated,
        timedOut,
        aborted,
      };
    } finally {
      timer.dispose();
      caller.signal.removeEventListener('abort', onAbort);
      listener.dispose();
      session.dispose();
    }
  }
}
