import { randomUUID } from 'node:crypto';
import type { Clock } from '../base/clock.js';
import { type Disposable, toDisposable } from '../base/disposable.js';
import type { Logger } from '../base/logger.js';
import { GatewayError } from '../protocol/errors.js';
import type { EventSink } from '../protocol/events.js';
import type { Finding, Reason } from './analysis-types.js';
import type { ApprovalHistory } from './approval-history.js';
import {
  type AlwaysScope,
  type ApprovalAnswer,
  type ApprovalDecision,
  type ApprovalGate,
  type ApprovalInput,
  type ApprovalPrompter,
  type ApprovalRequest,
  type ApprovalResolution,
  type ApprovalSubject,
  approvalDecisions,
  approvalView,
} from './approval-types.js';
import type { PermissionRule, PermissionStore } from './permission-store.js';
import { alwaysScopesFor, gradeRisk, type RiskGrade } from './risk-grade.js';
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
  /**
   * Resolves once `screen` can run (the host's bash parser loads on the first command):
   * `request` awaits it, and callers of the synchronous `refusal` / `screen` await `ready()`.
   */
  screenReady?: () => Promise<void> | undefined;
  /** Smart triage (createSmartTriage); used for requests with `smart: true`. */
  smartTriage?: (command: string, signal?: AbortSignal, reasons?: Reason[]) => Promise<SmartVerdict>;
  /**
   * Every "allow always" rule (state/permissions.json): the service saves the rules people answer
   * and answers tool calls a rule covers without asking. Without it, "always" is the caller's to keep.
   */
  permissions?: PermissionStore;
  newId?: () => string;
  defaultTimeoutMs?: number;
  /** The user's home, so the risk grade knows `~/x` lies outside the workspace (risk-grade.ts). */
  home?: string;
}

interface Pending {
  request: ApprovalRequest;
  input: ApprovalInput;
  /** Every caller waiting on this request (identical requests of a session share one). */
  waiters: Set<(resolution: ApprovalResolution) => void>;
  grantKey: string;
  batchKey: string;
  timer: Disposable;
  prompters: AbortController;
}

/** "Allow for this session": what was allowed, in which session, until the host stops or it is revoked. */
export interface SessionGrant {
  id: string;
  agentId: string;
  sessionKey: string;
  kind: ApprovalSubject['kind'];
  tool: string;
  /** Exec: the command line; files: the path; MCP: absent (the whole tool, for the session). */
  args?: string;
  origin: string;
  grantedAtMs: number;
}

/** Deciders that are not a person: their allow is not remembered for the session. */
const notPeople = new Set(['expiry', 'cancelled', 'no-approver', 'smart-judge', 'session']);
const isPerson = (resolvedBy: string) => !notPeople.has(resolvedBy) && !resolvedBy.startsWith('rule:');

/** Sessions whose grants are kept (the oldest session's are dropped beyond that). */
const rememberSessions = 500;

const defaultScopes: Record<ApprovalSubject['kind'], AlwaysScope[]> = {
  exec: ['binary', 'exact', 'folder'],
  mcp: ['tool', 'server', 'exact'],
  file: ['exact'],
  network: ['tool', 'exact'],
};

type Outcome = Omit<ApprovalAnswer, 'resolvedBy'> & { resolvedBy: string; ruleId?: string };

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
  /** Each registered prompter with its registration, so dispose() can release those still held. */
  private readonly prompters = new Map<ApprovalPrompter, Disposable>();
  /** sessionKey → grant key → grant. */
  private readonly grants = new Map<string, Map<string, SessionGrant>>();
  private grantIds = 0;
  private readonly newId: () => string;
  private readonly defaultTimeoutMs: number;

  constructor(private readonly deps: ApprovalServiceDeps) {
    this.newId = deps.newId ?? randomUUID;
    this.defaultTimeoutMs = deps.defaultTimeoutMs ?? 30 * 60_000;
  }

  get permissions(): PermissionStore | undefined {
    return this.deps.permissions;
  }

  registerPrompter(prompter: ApprovalPrompter): Disposable {
    // The same prompter registered again replaces its earlier registration (it is asked once).
    this.prompters.get(prompter)?.dispose();
    const registration = toDisposable(() => {
      if (this.prompters.get(prompter) === registration) this.prompters.delete(prompter);
    });
    this.prompters.set(prompter, registration);
    return registration;
  }

  /** Someone (a prompter or a connected client) could answer right now (this request, when given). */
  hasApprovers(request?: Pick<ApprovalRequest, 'agentId' | 'sessionKey'>): boolean {
    const prompter = [...this.prompters.keys()].some((p) =>
      p.covers ? request !== undefined && p.covers(request) : true,
    );
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

  /** Undefined once `refusal` and `screen` can run; until then, a promise to await before calling them. */
  ready(): Promise<void> | undefined {
    return this.deps.screenReady?.();
  }

  /** `onPending` fires once the request waits for an answer (two-phase callers acknowledge then). */
  async request(
    input: ApprovalInput,
    signal?: AbortSignal,
    onPending?: (request: ApprovalRequest) => void,
  ): Promise<ApprovalResolution> {
    // Only a parser still loading costs a tick: with one loaded, a request is published at once.
    const loading = this.ready();
    if (loading) await loading;
    const refused = this.refusal(input);
    if (refused) return refused;
    const screened = this.screen(input.command, input.cwd, input.stdin);
    const personOnly =
      screened.person.length > 0 || input.analysis.findings.some((finding) => finding.severity === 'person');
    const now = this.deps.clock.now();
    const subject: ApprovalSubject = input.subject ?? {
      kind: 'exec',
      tool: 'exec',
      args: input.command,
      access: 'write',
    };
    const risk: RiskGrade | undefined =
      subject.kind === 'exec' ? gradeRisk(input.analysis, { cwd: input.cwd, home: this.deps.home }) : undefined;
    const destructive = risk?.level === 'destructive';
    // A destructive command is only ever remembered for these exact arguments, never the whole binary.
    const narrowAlways = destructive ? input.allowAlwaysExact : input.allowAlways;
    // "Always" cannot cover what must be asked every time, nor a destructive command that cannot be pinned.
    const allowedDecisions = (input.allowedDecisions ?? [...approvalDecisions]).filter(
      (decision) =>
        decision !== 'allow-always' || (!personOnly && !(destructive && (input.allowAlwaysExact ?? []).length === 0)),
    );
    // "In this folder" is offered only where the caller said what it would save (the exec host does).
    const scopes = (input.alwaysScopes ?? defaultScopes[subject.kind]).filter(
      (scope) => scope !== 'folder' || (input.allowAlwaysFolder ?? []).length > 0,
    );
    const allowSession = !personOnly && subject.access !== 'dangerous' && allowedDecisions.includes('allow-once');
    // Identical: same caller, same call, same rules for what happens when nobody answers.
    const batchKey = [
      input.agentId,
      input.sessionKey,
      input.command,
      input.cwd,
      input.host ?? '',
      input.stdin ?? '',
      subject.tool,
      input.askFallback,
      String(input.allowlistSatisfied),
    ].join('\u0000');

    // Identical requests of a session wait on the one already asked: one answer settles them all.
    const twin = [...this.pending.values()].find((entry) => entry.batchKey === batchKey);
    if (twin) return this.join(twin, signal, onPending);

    const request: ApprovalRequest = {
      id: this.newId(),
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
      allowedDecisions,
      ...(narrowAlways && !personOnly ? { allowAlways: narrowAlways } : {}),
      ...(input.allowAlwaysExact && !personOnly ? { allowAlwaysExact: input.allowAlwaysExact } : {}),
      ...(input.allowAlwaysFolder && !personOnly ? { allowAlwaysFolder: input.allowAlwaysFolder } : {}),
      subject,
      allowSession,
      ...(allowedDecisions.includes('allow-always')
        ? { alwaysScopes: destructive ? alwaysScopesFor('destructive', scopes) : scopes }
        : {}),
      suggested: allowSession && subject.access === 'read' ? 'session' : 'once',
      ...(risk ? { risk } : {}),
    };
    const id = request.id;
    const grantKey = grantKeyOf(request, input.stdin);

    // Already answered for this session, or by an "always" rule: no question.
    if (!personOnly) {
      const grant = this.grants.get(input.sessionKey)?.get(grantKey);
      if (grant && subject.access !== 'dangerous')
        return this.finish(request, {
          decision: 'allow-once',
          resolvedBy: 'session',
          remember: 'session',
          ruleId: grant.id,
          reason: `allowed for this session by ${grant.origin}`,
        });
      const rule = this.deps.permissions?.match(subject, input.agentId);
      if (rule)
        return this.finish(request, {
          decision: 'allow-always',
          resolvedBy: `rule:${rule.id}`,
          ruleId: rule.id,
          reason: `allowed always by ${rule.origin}`,
        });
    }

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
        waiters: new Set([resolve]),
        grantKey,
        batchKey,
        prompters,
        timer: this.deps.clock.setTimeout(
          () => this.settle(id, { ...this.fallback(input, personOnly), resolvedBy: 'expiry' }, true),
          request.expiresAtMs - now,
        ),
      };
      this.pending.set(id, entry);
      this.cancelOnAbort(entry, resolve, signal);
      this.deps.events.publish('exec.approval.requested', approvalView(request));
      for (const prompter of this.prompters.keys()) this.ask(prompter, request, prompters.signal);
      onPending?.(request);
    });
  }

  /** A second identical call waits on the pending request; its own abort only cancels its own wait. */
  private join(
    entry: Pending,
    signal: AbortSignal | undefined,
    onPending?: (request: ApprovalRequest) => void,
  ): Promise<ApprovalResolution> {
    return new Promise<ApprovalResolution>((resolve) => {
      entry.waiters.add(resolve);
      entry.request.waiting = entry.waiters.size;
      this.deps.logger.info('approval request batched', { id: entry.request.id, waiting: entry.waiters.size });
      this.cancelOnAbort(entry, resolve, signal);
      onPending?.(entry.request);
    });
  }

  private cancelOnAbort(
    entry: Pending,
    waiter: (resolution: ApprovalResolution) => void,
    signal: AbortSignal | undefined,
  ): void {
    signal?.addEventListener(
      'abort',
      () => {
        const id = entry.request.id;
        if (!this.pending.has(id) || !entry.waiters.has(waiter)) return;
        if (entry.waiters.size > 1) {
          // Others still wait on the same request: only this caller stops waiting.
          entry.waiters.delete(waiter);
          entry.request.waiting = entry.waiters.size;
          waiter({
            id,
            decision: 'deny',
            resolvedBy: 'cancelled',
            reason: 'the run was cancelled',
            resolvedAtMs: this.deps.clock.now(),
          });
          return;
        }
        this.settle(id, { decision: 'deny', resolvedBy: 'cancelled', reason: 'the run was cancelled' });
      },
      { once: true },
    );
  }

  /** A wire, chat or CLI answer. Throws the protocol's errors for late or unknown ids. */
  resolve(
    id: string,
    decision: ApprovalDecision,
    resolvedBy: string,
    reason?: string,
    allowAlwaysScope?: AlwaysScope,
    more: Pick<ApprovalAnswer, 'remember' | 'untilMs'> = {},
  ): ApprovalResolution {
    return this.answer(id, {
      decision,
      resolvedBy,
      ...(reason ? { reason } : {}),
      ...(allowAlwaysScope ? { allowAlwaysScope } : {}),
      ...more,
    });
  }

  /** An answer with everything a person can choose: once, for the session, always (scope, until), deny. */
  answer(id: string, answer: ApprovalAnswer): ApprovalResolution {
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
    const { request } = entry;
    const { decision } = answer;
    if (!request.allowedDecisions.includes(decision))
      throw new GatewayError('INVALID_REQUEST', `decision ${decision} is not allowed for approval ${id}`, {
        allowedDecisions: request.allowedDecisions,
      });
    if (answer.remember === 'session') {
      if (decision !== 'allow-once')
        throw new GatewayError('INVALID_REQUEST', `remember "session" goes with allow-once, not ${decision}`);
      if (!request.allowSession)
        throw new GatewayError(
          'INVALID_REQUEST',
          `approval ${id} cannot be allowed for the session (${request.subject?.access === 'dangerous' ? 'a dangerous tool asks every time' : 'only a person may allow it, each time'})`,
        );
    }
    if (
      decision === 'allow-always' &&
      answer.allowAlwaysScope &&
      !request.alwaysScopes?.includes(answer.allowAlwaysScope) &&
      request.risk?.level === 'destructive'
    )
      throw new GatewayError(
        'INVALID_REQUEST',
        `allowAlwaysScope ${answer.allowAlwaysScope} would allow every use of ${request.analysis.commands.map((c) => c.name).join(', ') || 'the program'}, and approval ${id} is a destructive command (${request.risk.because.map((b) => b.detail).join('; ')}): allow it always only for these exact arguments (allowAlwaysScope ${(request.alwaysScopes ?? ['exact']).map((scope) => `"${scope}"`).join(' or ')})`,
        { reason: 'ALWAYS_TOO_BROAD', alwaysScopes: request.alwaysScopes ?? [], risk: request.risk.level },
      );
    if (
      decision === 'allow-always' &&
      answer.allowAlwaysScope &&
      !request.alwaysScopes?.includes(answer.allowAlwaysScope)
    )
      throw new GatewayError(
        'INVALID_REQUEST',
        `allowAlwaysScope ${answer.allowAlwaysScope} does not apply to approval ${id} (use ${(request.alwaysScopes ?? []).join(' or ')})`,
        { alwaysScopes: request.alwaysScopes ?? [] },
      );
    if (answer.untilMs !== undefined) {
      if (decision !== 'allow-always')
        throw new GatewayError('INVALID_REQUEST', `until goes with allow-always, not ${decision}`);
      if (!(answer.untilMs > this.deps.clock.now()))
        throw new GatewayError(
          'INVALID_REQUEST',
          `until ${new Date(answer.untilMs).toISOString()} is not in the future`,
        );
    }
    const resolution = this.settle(id, {
      decision,
      resolvedBy: answer.resolvedBy,
      ...(answer.reason ? { reason: answer.reason } : {}),
      ...(decision === 'allow-always' && answer.allowAlwaysScope ? { allowAlwaysScope: answer.allowAlwaysScope } : {}),
      ...(decision === 'allow-always' && answer.untilMs !== undefined ? { untilMs: answer.untilMs } : {}),
      ...(answer.remember ? { remember: answer.remember } : {}),
    });
    if (!resolution) throw new GatewayError('INTERNAL', `approval ${id} could not be resolved`);
    return resolution;
  }

  /** The "allow for this session" grants in force (every session, newest last). */
  sessionGrants(): SessionGrant[] {
    return [...this.grants.values()].flatMap((bySession) => [...bySession.values()]);
  }

  /** Forgets one session grant; false when no grant has that id. */
  revokeSessionGrant(id: string): boolean {
    for (const [sessionKey, bySession] of this.grants)
      for (const [key, grant] of bySession)
        if (grant.id === id) {
          bySession.delete(key);
          if (bySession.size === 0) this.grants.delete(sessionKey);
          return true;
        }
    return false;
  }

  dispose(): void {
    for (const id of [...this.pending.keys()])
      this.settle(id, { decision: 'deny', resolvedBy: 'cancelled', reason: 'the host is shutting down' });
    // Like Emitter.dispose: registrations their owners still hold are released with the service.
    for (const registration of [...this.prompters.values()]) registration.dispose();
  }

  /** Decisions are recorded without blocking the caller; this waits until they are on disk. */
  flushHistory(): Promise<void> {
    return this.deps.history.flush();
  }

  private ask(prompter: ApprovalPrompter, request: ApprovalRequest, signal: AbortSignal): void {
    prompter.prompt(request, signal).then(
      (answer) => {
        if (answer === undefined || signal.aborted || !this.pending.has(request.id)) return;
        const resolvedBy = `prompter:${prompter.name}`;
        if (typeof answer === 'string') {
          this.settle(request.id, { decision: answer, resolvedBy });
          return;
        }
        try {
          this.answer(request.id, { ...answer, resolvedBy });
        } catch (error) {
          this.deps.logger.warn('approval prompter answered what the request does not offer', {
            prompter: prompter.name,
            error: String(error),
          });
        }
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

  private settle(id: string, outcome: Outcome, expired = false): ApprovalResolution | undefined {
    const entry = this.pending.get(id);
    if (!entry) return undefined;
    this.pending.delete(id);
    entry.timer.dispose();
    entry.prompters.abort();
    const { outcome: remembered, ready } = this.remember(entry, outcome);
    const resolution = this.finish(entry.request, remembered, true);
    if (expired) this.deps.logger.info('approval expired', { id, decision: resolution.decision });
    // The callers go on once an "always" rule is on disk, so a crash right after cannot lose it.
    void ready.then(
      () => {
        for (const waiter of entry.waiters) waiter(resolution);
      },
      (error: unknown) => {
        this.deps.logger.error('cannot save an "allow always" rule', { id, error: String(error) });
        for (const waiter of entry.waiters) waiter(resolution);
      },
    );
    return resolution;
  }

  /**
   * What a person's allow leaves behind: a session grant ("allow for this session", or any allow of a
   * read-only request), or a rule in the permission store ("allow always").
   */
  private remember(entry: Pending, outcome: Outcome): { outcome: Outcome; ready: Promise<void> } {
    const { request } = entry;
    if (!isPerson(outcome.resolvedBy) || outcome.decision === 'deny') return { outcome, ready: Promise.resolve() };
    if (outcome.decision === 'allow-once') {
      const session = outcome.remember === 'session' || (request.suggested === 'session' && request.allowSession);
      if (!session) return { outcome, ready: Promise.resolve() };
      const grant = this.grant(request, entry.grantKey, outcome.resolvedBy);
      return { outcome: { ...outcome, remember: 'session', ruleId: grant.id }, ready: Promise.resolve() };
    }
    const store = this.deps.permissions;
    const subject = request.subject;
    // The scope is settled here even without a store: the exec host saves what it says.
    const scope = outcome.allowAlwaysScope ?? request.alwaysScopes?.[0];
    if (!scope) return { outcome, ready: Promise.resolve() };
    if (!store || !subject) return { outcome: { ...outcome, allowAlwaysScope: scope }, ready: Promise.resolve() };
    const common = {
      agentId: request.agentId,
      origin: outcome.resolvedBy,
      example: request.command,
      ...(outcome.untilMs !== undefined ? { expiresAtMs: outcome.untilMs } : {}),
    };
    const saved: { rule: PermissionRule; ready: Promise<void> }[] = [];
    if (subject.kind === 'exec') {
      // The allowlist entries the request showed; the exec policy reads them back from the store.
      const entries =
        (scope === 'folder'
          ? request.allowAlwaysFolder
          : scope === 'exact'
            ? request.allowAlwaysExact
            : request.allowAlways) ?? [];
      for (const item of entries)
        saved.push(
          store.add(
            {
              kind: 'exec',
              scope: item.cwdWithin !== undefined ? 'folder' : item.argPattern === undefined ? 'binary' : 'exact',
              pattern: item.pattern,
              ...(item.argPattern !== undefined ? { argPattern: item.argPattern } : {}),
              ...(item.cwdWithin !== undefined ? { cwdWithin: item.cwdWithin } : {}),
              ...common,
            },
            { update: true },
          ),
        );
    } else if (subject.access !== 'dangerous') {
      saved.push(
        store.add(
          {
            kind: subject.kind,
            scope,
            ...(scope === 'server' ? {} : { tool: subject.tool }),
            ...(subject.server !== undefined ? { server: subject.server } : {}),
            ...(scope === 'exact' ? { args: subject.args } : {}),
            ...common,
          },
          { update: true },
        ),
      );
    }
    const first = saved[0]?.rule;
    if (first) this.deps.logger.info('allow-always rule saved', { id: request.id, rules: saved.map((s) => s.rule.id) });
    return {
      outcome: { ...outcome, allowAlwaysScope: scope, ...(first ? { ruleId: first.id } : {}) },
      ready: Promise.all(saved.map((s) => s.ready)).then(() => undefined),
    };
  }

  private grant(request: ApprovalRequest, key: string, origin: string): SessionGrant {
    const bySession = this.grants.get(request.sessionKey) ?? new Map<string, SessionGrant>();
    this.grants.delete(request.sessionKey);
    this.grants.set(request.sessionKey, bySession);
    if (this.grants.size > rememberSessions) {
      const oldest = this.grants.keys().next().value;
      if (oldest !== undefined) this.grants.delete(oldest);
    }
    const subject = request.subject;
    const grant: SessionGrant = {
      id: `session_${++this.grantIds}`,
      agentId: request.agentId,
      sessionKey: request.sessionKey,
      kind: subject?.kind ?? 'exec',
      tool: subject?.tool ?? 'exec',
      ...(subject?.kind === 'mcp' ? {} : { args: subject?.args ?? request.command }),
      origin,
      grantedAtMs: this.deps.clock.now(),
    };
    bySession.set(key, grant);
    return grant;
  }

  private finish(request: ApprovalRequest, outcome: Outcome, published = false): ApprovalResolution {
    const resolution: ApprovalResolution = {
      id: request.id,
      decision: outcome.decision,
      resolvedBy: outcome.resolvedBy,
      ...(outcome.reason ? { reason: outcome.reason } : {}),
      ...(outcome.allowAlwaysScope ? { allowAlwaysScope: outcome.allowAlwaysScope } : {}),
      ...(outcome.remember ? { remember: outcome.remember } : {}),
      ...(outcome.untilMs !== undefined ? { untilMs: outcome.untilMs } : {}),
      ...(outcome.ruleId ? { ruleId: outcome.ruleId } : {}),
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
        ...(resolution.remember ? { remember: resolution.remember } : {}),
        ...(resolution.allowAlwaysScope ? { allowAlwaysScope: resolution.allowAlwaysScope } : {}),
        ...(resolution.untilMs !== undefined ? { untilMs: resolution.untilMs } : {}),
        ...(resolution.ruleId ? { ruleId: resolution.ruleId } : {}),
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
        ...(resolution.remember ? { remember: resolution.remember } : {}),
        ...(resolution.allowAlwaysScope ? { allowAlwaysScope: resolution.allowAlwaysScope } : {}),
        ...(resolution.untilMs !== undefined ? { untilMs: resolution.untilMs } : {}),
        ...(resolution.ruleId ? { ruleId: resolution.ruleId } : {}),
        ...(request.subject && request.subject.kind !== 'exec' ? { tool: request.subject.tool } : {}),
        requestedAtMs: request.createdAtMs,
        decidedAtMs: resolution.resolvedAtMs,
      })
      .catch((error: unknown) => this.deps.logger.error('cannot record approval decision', { error: String(error) }));
    return resolution;
  }
}

/** What "allow for this session" remembers: the exact call for exec and files, the whole tool for MCP. */
function grantKeyOf(request: ApprovalRequest, stdin: string | undefined): string {
  const subject = request.subject;
  if (!subject || subject.kind === 'exec')
    return ['exec', request.agentId, request.cwd, request.command, stdin ?? ''].join('\u0000');
  if (subject.kind === 'mcp') return ['mcp', request.agentId, subject.tool].join('\u0000');
  return [subject.kind, request.agentId, subject.tool, subject.args].join('\u0000');
}

function mergeReasons(reasons: Reason[], extra: Reason[]): Reason[] {
  const seen = new Set(reasons.map((reason) => `${reason.code}\u0000${reason.detail}`));
  return [...reasons, ...extra.filter((reason) => !seen.has(`${reason.code}\u0000${reason.detail}`))];
}
