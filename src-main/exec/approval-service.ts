import { randomUUID } from 'node:crypto';
import type { Clock } from '../base/clock.js';
import { type Disposable, toDisposable } from '../base/disposable.js';
import type { Logger } from '../base/logger.js';
import { GatewayError } from '../protocol/errors.js';
import type { EventSink } from '../protocol/events.js';
import type { Finding, Reason } from './analysis-types.js';
import type { ApprovalHistory } from './approval-history.js';
import {
  type ApprovalDecision,
  type ApprovalGate,
  type ApprovalInput,
  type ApprovalPrompter,
  type ApprovalRequest,
  type ApprovalResolution,
  approvalDecisions,
  approvalView,
} from './approval-types.js';
import type { SmartVerdict } from './smart-approval.js';

/** The events the service publishes; the gateway's EventBus satisfies this. */
export type ApprovalEventSink = EventSink<'exec.approval.requested' | 'exec.approval.resolved'>;

export interface ApprovalServiceDeps {
  clock: Clock;
  events: ApprovalEventSink;
  history: ApprovalHistory;
  logger: Logger;
  /** Whether a connected client can answer (holds operator.approvals); the gateway knows. */
  hasWireApprovers?: () => boolean;
  /**
   * The hard floor and the person-only checks, run by the service itself on the
   * command of every request, whoever asks (exec tool, wire, terminals, cron,
   * channels, MCP): a floor command is refused before any request exists, and a
   * person-only one can only be answered by a person. Required, so no caller can
   * build a service that skips it.
   */
  screen: (command: string, cwd: string, stdin?: string) => Finding[];
  /** Smart triage (createSmartTriage); used for requests with `smart: true`. */
  smartTriage?: (command: string, signal?: AbortSignal, reasons?: Reason[]) => Promise<SmartVerdict>;
  newId?: () => string;
  defaultTimeoutMs?: number;
}

interface Pending {
  request: ApprovalRequest;
  input: ApprovalInput;
  settle(resolution: ApprovalResolution): void;
  timer: Disposable;
  prompters: AbortController;
}

/** Resolved ids are remembered a while so a late second answer gets "already resolved", not "unknown". */
const rememberResolved = 1000;

/**
 * Every approval request in one place: published as `exec.approval.requested`,
 * offered to every registered prompter, answerable over the wire or from chat.
 * The first answer wins; the others are cancelled. Unanswered requests expire
 * into the askFallback. Every decision lands in the history file.
 */
export class ApprovalService implements ApprovalGate, Disposable {
  private readonly pending = new Map<string, Pending>();
  private readonly resolved = new Map<string, { request: ApprovalRequest; resolution: ApprovalResolution }>();
  private readonly prompters = new Set<ApprovalPrompter>();
  private readonly newId: () => string;
  private readonly defaultTimeoutMs: number;

  constructor(private readonly deps: ApprovalServiceDeps) {
    this.newId = deps.newId ?? randomUUID;
    this.defaultTimeoutMs = deps.defaultTimeoutMs ?? 30 * 60_000;
  }

  registerPrompter(prompter: ApprovalPrompter): Disposable {
    this.prompters.add(prompter);
    return toDisposable(() => this.prompters.delete(prompter));
  }

  /** Someone (a prompter or a connected client) could answer right now (this request, when given). */
  hasApprovers(request?: Pick<ApprovalRequest, 'agentId' | 'sessionKey'>): boolean {
    const prompter = [...this.prompters].some((p) => (p.covers ? request !== undefined && p.covers(request) : true));
    return prompter || (this.deps.hasWireApprovers?.() ?? false);
  }

  list(): ApprovalRequest[] {
    return [...this.pending.values()].map((entry) => entry.request);
  }

  get(id: string): { request: ApprovalRequest; resolution?: ApprovalResolution } | undefined {
    const open = this.pending.get(id);
    if (open) return { request: open.request };
    return this.resolved.get(id);
  }

  /** `onPending` fires once the request waits for an answer (two-phase callers acknowledge then). */
  async request(
    input: ApprovalInput,
    signal?: AbortSignal,
    onPending?: (request: ApprovalRequest) => void,
  ): Promise<ApprovalResolution> {
    const refused = this.refusal(input);
    if (refused) return refused;
    const screened = this.screen(input.command, input.cwd, input.stdin);
    const personOnly =
      screened.person.length > 0 || input.analysis.findings.some((finding) => finding.severity === 'person');
    const now = this.deps.clock.now();
    const id = this.newId();
    const request: ApprovalRequest = {
      id,
      agentId: input.agentId,
      sessionKey: input.sessionKey,
      command: input.command,
      analysis: input.analysis,
      // The person (and the judge) always see why a person is needed, with its code.
      reasons: mergeReasons(input.reasons, screened.person),
      cwd: input.cwd,
      ...(input.host ? { host: input.host } : {}),
      createdAtMs: now,
      expiresAtMs: now + (input.timeoutMs ?? this.defaultTimeoutMs),
      // "Always" cannot cover what must be asked every time.
      allowedDecisions: (input.allowedDecisions ?? [...approvalDecisions]).filter(
        (decision) => !personOnly || decision !== 'allow-always',
      ),
      ...(input.allowAlways && !personOnly ? { allowAlways: input.allowAlways } : {}),
      ...(input.allowAlwaysExact && !personOnly ? { allowAlwaysExact: input.allowAlwaysExact } : {}),
    };

    if (input.smart && this.deps.smartTriage) {
      const verdict = await this.deps.smartTriage(input.command, signal, request.reasons);
      // On a person-only request the judge may deny, never approve: a model is not a person.
      if (verdict.verdict === 'approve' && personOnly)
        this.deps.logger.info('smart approval cannot approve a person-only request', { id });
      else if (verdict.verdict !== 'escalate') {
        const resolution = this.finish(request, {
          decision: verdict.verdict === 'approve' ? 'allow-once' : 'deny',
          resolvedBy: 'smart-judge',
          reason: verdict.reason,
        });
        return resolution;
      }
      this.deps.logger.info('smart approval escalated', { id, reason: verdict.reason });
    }

    if (!this.hasApprovers(request)) {
      return this.finish(request, { ...this.fallback(input, personOnly), resolvedBy: 'no-approver' });
    }
    return new Promise<ApprovalResolution>((resolve) => {
      const prompters = new AbortController();
      const entry: Pending = {
        request,
        input,
        settle: resolve,
        prompters,
        timer: this.deps.clock.setTimeout(
          () => this.settle(id, { ...this.fallback(input, personOnly), resolvedBy: 'expiry' }, true),
          request.expiresAtMs - now,
        ),
      };
      this.pending.set(id, entry);
      signal?.addEventListener(
        'abort',
        () => this.settle(id, { decision: 'deny', resolvedBy: 'cancelled', reason: 'the run was cancelled' }),
        { once: true },
      );
      this.deps.events.publish('exec.approval.requested', approvalView(request));
      for (const prompter of this.prompters) this.ask(prompter, request, prompters.signal);
      onPending?.(request);
    });
  }

  /** A wire, chat or CLI answer. Throws the protocol's errors for late or unknown ids. */
  resolve(
    id: string,
    decision: ApprovalDecision,
    resolvedBy: string,
    reason?: string,
    allowAlwaysScope?: 'binary' | 'exact',
  ): ApprovalResolution {
    const entry = this.pending.get(id);
    if (!entry) {
      const done = this.resolved.get(id);
      if (done && done.resolution.resolvedBy !== 'expiry')
        throw new GatewayError('INVALID_REQUEST', `approval ${id} was already resolved (${done.resolution.decision})`, {
          reason: 'APPROVAL_ALREADY_RESOLVED',
          decision: done.resolution.decision,
          resolvedBy: done.resolution.resolvedBy,
        });
      throw new GatewayError('INVALID_REQUEST', 'unknown or expired approval id', { reason: 'APPROVAL_NOT_FOUND', id });
    }
    if (!entry.request.allowedDecisions.includes(decision))
      throw new GatewayError('INVALID_REQUEST', `decision ${decision} is not allowed for approval ${id}`, {
        allowedDecisions: entry.request.allowedDecisions,
      });
    const resolution = this.settle(id, {
      decision,
      resolvedBy,
      ...(reason ? { reason } : {}),
      ...(decision === 'allow-always' && allowAlwaysScope ? { allowAlwaysScope } : {}),
    });
    if (!resolution) throw new GatewayError('INTERNAL', `approval ${id} could not be resolved`);
    return resolution;
  }

  dispose(): void {
    for (const id of [...this.pending.keys()])
      this.settle(id, { decision: 'deny', resolvedBy: 'cancelled', reason: 'the host is shutting down' });
  }

  /** Decisions are recorded without blocking the caller; this waits until they are on disk. */
  flushHistory(): Promise<void> {
    return this.deps.history.flush();
  }

  private ask(prompter: ApprovalPrompter, request: ApprovalRequest, signal: AbortSignal): void {
    prompter.prompt(request, signal).then(
      (decision) => {
        if (decision === undefined || signal.aborted || !this.pending.has(request.id)) return;
        this.settle(request.id, { decision, resolvedBy: `prompter:${prompter.name}` });
      },
      (error: unknown) =>
        this.deps.logger.warn('approval prompter failed', { prompter: prompter.name, error: String(error) }),
    );
  }

  /** The floor and person-only findings of a command, by the service's own analysis. */
  screen(command: string, cwd: string, stdin?: string): { floor: Reason[]; person: Reason[] } {
    const findings = this.deps.screen(command, cwd, stdin);
    const pick = (severity: Finding['severity']) =>
      findings.filter((finding) => finding.severity === severity).map(({ code, detail }) => ({ code, detail }));
    return { floor: pick('deny'), person: pick('person') };
  }

  /**
   * The refusal of a floor command, or undefined when the command is not on the floor.
   * No id is handed out, nothing is published or offered; only the history records it.
   */
  refusal(
    input: Pick<ApprovalInput, 'agentId' | 'sessionKey' | 'command' | 'cwd'> &
      Partial<Pick<ApprovalInput, 'analysis' | 'stdin'>>,
  ): ApprovalResolution | undefined {
    const { floor } = this.screen(input.command, input.cwd, input.stdin);
    if (floor.length === 0) return undefined;
    const now = this.deps.clock.now();
    const reason = `hard floor: ${floor.map((found) => `${found.code}: ${found.detail}`).join('; ')}`;
    this.deps.logger.warn('approval refused: hard floor', { agentId: input.agentId, codes: floor.map((f) => f.code) });
    this.deps.history
      .append({
        id: `floor:${this.newId()}`,
        agentId: input.agentId,
        sessionKey: input.sessionKey,
        command: input.command,
        programs: (input.analysis?.commands ?? []).map((command) => ({ name: command.name, args: command.args })),
        decision: 'deny',
        resolvedBy: 'hard-floor',
        reason,
        requestedAtMs: now,
        decidedAtMs: now,
      })
      .catch((error: unknown) => this.deps.logger.error('cannot record approval decision', { error: String(error) }));
    return { id: '', decision: 'deny', resolvedBy: 'hard-floor', reason, floor, resolvedAtMs: now };
  }

  private fallback(input: ApprovalInput, personOnly = false): { decision: ApprovalDecision; reason: string } {
    if (personOnly) return { decision: 'deny', reason: 'nobody answered, and only a person may allow this' };
    if (input.askFallback === 'full') return { decision: 'allow-once', reason: 'nobody answered; askFallback is full' };
    if (input.askFallback === 'allowlist' && input.allowlistSatisfied)
      return {
        decision: 'allow-once',
        reason: 'nobody answered; every command is allowlisted (askFallback allowlist)',
      };
    return { decision: 'deny', reason: `nobody answered; askFallback is ${input.askFallback}` };
  }

  private settle(
    id: string,
    outcome: { decision: ApprovalDecision; resolvedBy: string; reason?: string; allowAlwaysScope?: 'binary' | 'exact' },
    expired = false,
  ): ApprovalResolution | undefined {
    const entry = this.pending.get(id);
    if (!entry) return undefined;
    this.pending.delete(id);
    entry.timer.dispose();
    entry.prompters.abort();
    const resolution = this.finish(entry.request, outcome, true);
    if (expired) this.deps.logger.info('approval expired', { id, decision: resolution.decision });
    entry.settle(resolution);
    return resolution;
  }

  private finish(
    request: ApprovalRequest,
    outcome: { decision: ApprovalDecision; resolvedBy: string; reason?: string; allowAlwaysScope?: 'binary' | 'exact' },
    published = false,
  ): ApprovalResolution {
    const resolution: ApprovalResolution = {
      id: request.id,
      decision: outcome.decision,
      resolvedBy: outcome.resolvedBy,
      ...(outcome.reason ? { reason: outcome.reason } : {}),
      ...(outcome.allowAlwaysScope ? { allowAlwaysScope: outcome.allowAlwaysScope } : {}),
      resolvedAtMs: this.deps.clock.now(),
    };
    this.resolved.set(request.id, { request, resolution });
    if (this.resolved.size > rememberResolved) {
      const oldest = this.resolved.keys().next().value;
      if (oldest !== undefined) this.resolved.delete(oldest);
    }
    if (published)
      this.deps.events.publish('exec.approval.resolved', {
        id: request.id,
        decision: resolution.decision,
        resolvedBy: resolution.resolvedBy,
        ts: resolution.resolvedAtMs,
        ...(resolution.reason ? { reason: resolution.reason } : {}),
      });
    this.deps.history
      .append({
        id: request.id,
        agentId: request.agentId,
        sessionKey: request.sessionKey,
        command: request.command,
        programs: request.analysis.commands.map((command) => ({ name: command.name, args: command.args })),
        decision: resolution.decision,
        resolvedBy: resolution.resolvedBy,
        ...(resolution.reason ? { reason: resolution.reason } : {}),
        requestedAtMs: request.createdAtMs,
        decidedAtMs: resolution.resolvedAtMs,
      })
      .catch((error: unknown) => this.deps.logger.error('cannot record approval decision', { error: String(error) }));
    return resolution;
  }
}

function mergeReasons(reasons: Reason[], extra: Reason[]): Reason[] {
  const seen = new Set(reasons.map((reason) => `${reason.code}\u0000${reason.detail}`));
  return [...reasons, ...extra.filter((reason) => !seen.has(`${reason.code}\u0000${reason.detail}`))];
}
