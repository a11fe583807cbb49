import { randomUUID } from 'node:crypto';
import type { Clock } from '../../base/clock.js';
import type { Disposable } from '../../base/disposable.js';
import { HearthError } from '../../base/errors.js';
import type { Logger } from '../../base/logger.js';
import { markTurnPhase } from '../../base/turn-phases.js';
import {
  type AuthProfileManager,
  type ModelCatalog,
  type ModelFactory,
  type ModelSelection,
  parseModelRef,
} from '../../providers/index.js';
import {
  type LaneName,
  type Lanes,
  normalizeSessionKey,
  parseSessionKey,
  type SessionStore,
} from '../../sessions/index.js';
import type { OnDemandTools, ToolDefinition } from '../../tools/tool.js';
import { withoutReplaced } from '../../transcript/index.js';
import type { AgentLoopHooks } from '../loop/agent-loop.js';
import type { Attachment } from '../messages.js';
import { runTurn } from '../runner/run-turn.js';
import type { RunnerContextHooks, RunnerDeps, TurnOutcome } from '../runner/runner-types.js';
import type { TurnEngine } from '../runner/turn-engine.js';
import { type AgentPause, createAgentPause, type PauseSaving } from './agent-pause.js';
import { listModelRows, type ModelRowView } from './list-models.js';
import { RunEventPublisher, type RuntimeEventSink } from './run-events.js';
import { type RunRecord, RunRegistry } from './run-registry.js';
import { turnMessages } from './turn-messages.js';
import { warmUpModels } from './warm-up.js';

export interface TurnScope {
  agentId: string;
  sessionKey: string;
  sessionId: string;
  /** Who started the turn; `cron` runs get the cron lane, and tools may refuse them (cron tools do). */
  runKind?: RunKind;
}

export type RunKind = 'default' | 'heartbeat' | 'cron';

export interface AgentRuntimeDeps {
  clock: Clock;
  log: Logger;
  sessions: SessionStore;
  lanes: Lanes;
  events: RuntimeEventSink;
  models: ModelFactory;
  catalog: ModelCatalog;
  auth: AuthProfileManager;
  /** `agents.defaults.model` (or a per-agent override). */
  modelSelection(agentId: string): ModelSelection | undefined;
  workspaceDir(agentId: string): string;
  /** May be async: MCP servers an agent enables start (on demand) before its turn's tools are known. */
  tools?(scope: TurnScope): readonly ToolDefinition[] | Promise<readonly ToolDefinition[]>;
  /** The turn's tools beyond the core, loaded by the model on demand (tools/catalogue). */
  onDemandTools?(scope: TurnScope): OnDemandTools | undefined | Promise<OnDemandTools | undefined>;
  /** The system prompt (bootstrap files, identity…), built by agent/bootstrap. */
  systemPrompt?(scope: TurnScope): Promise<string | undefined> | string | undefined;
  /** The person a turn speaks for (per-user memory scope); undefined when it cannot be told. */
  userFor?(scope: TurnScope): string | undefined;
  /** Context engine, approvals and truncation hooks for one turn. */
  hooks?(scope: TurnScope):
    | (AgentLoopHooks &
        RunnerContextHooks & {
          /** The user message is durable: work that needs only it (active recall) may start now. */
          userDurable?(user: { id: string; text: string }, earlierUserTexts: string[]): void;
          /** The turn's end event is out: deferred diagnostics (the cache trace) are recorded now. */
          afterTurn?(): void;
        })
    | undefined;
  newId?(): string;
  /** Longest wait for a cooldown / retry-after inside one turn (default 30 s). */
  maxWaitMs?: number;
  /** Transcript messages loaded per turn before the context engine fits them (default 1000). */
  historyLimit?: number;
  /** Runs the turn's model work inside it (the usage meter tags every call of the turn with its scope). */
  aroundTurn?<T>(scope: TurnScope, run: () => Promise<T>): Promise<T>;
  /**
   * The engine of an agent's turn in a session when it is not Hearth's model loop
   * (`agents.list[].engine`: a CLI such as Claude Code), or undefined for the model loop. Throws
   * for an engine config it cannot honour.
   */
  engineFor?(agentId: string, sessionKey: string): TurnEngine | undefined;
  /** Where "Pause agent" is kept across restarts (state/agent-pause.json); without it, in memory only. */
  pauseSaving?: PauseSaving;
}

export interface StartTurnInput {
  /** The idempotency key. */
  runId: string;
  sessionKey: string;
  message: string;
  attachments?: Attachment[];
  timeoutMs?: number;
  thinking?: string;
  /** Default: the run kind's own lane (`cron` for cron runs), else `default`. */
  lane?: LaneName;
  runKind?: RunKind;
  /**
   * `last-answer` (Retry, Regenerate): answer the chat's last message of the person again, without
   * storing it twice; `message` is ignored and the old answer is replaced. `last-message` (edit
   * and resend): `message` replaces the chat's last message of the person and its answer.
   */
  replace?: 'last-answer' | 'last-message';
}

export interface AgentRuntime extends Disposable {
  /**
   * Starts a turn, or returns the run already registered under this runId for the same
   * request (`reused`). Throws for a bad key or model config and on an idempotency conflict.
   */
  start(input: StartTurnInput): { run: RunRecord; reused: boolean };
  abort(sessionKey: string, runId?: string): string[];
  /** Resolves with the run once it ends, or as it is when `timeoutMs` passes first. */
  wait(runId: string, timeoutMs?: number): Promise<RunRecord | undefined>;
  getRun(runId: string): RunRecord | undefined;
  /** Switches the model of a session's running turn if nothing visible happened yet, and of later turns. */
  switchModel(sessionKey: string, modelRef: string | undefined): void;
  listModels(provider?: string): ModelRowView[];
  /**
   * One in-process call per provider kind of the selected models (canned replies, no network),
   * so the first real turn does not pay the SDK's lazy set-up. Resolves with the kinds warmed.
   */
  warmUp(): Promise<string[]>;
  readonly auth: AuthProfileManager;
  readonly sessions: SessionStore;
  /** "Pause agent": while paused, start() refuses every new turn (chat, channel, heartbeat, cron). */
  readonly pause: AgentPause;
}

export function createAgentRuntime(deps: AgentRuntimeDeps): AgentRuntime {
  const newId = deps.newId ?? (() => randomUUID());
  const runs = new RunRegistry({ clock: deps.clock });
  const liveModels = new Map<string, string>();
  const runnerDeps: RunnerDeps = {
    models: deps.models,
    catalog: deps.catalog,
    auth: deps.auth,
    clock: deps.clock,
    log: deps.log,
    newId,
    maxWaitMs: deps.maxWaitMs,
  };

  function modelsFor(agentId: string, sessionKey: string, sessionModel?: string): string[] {
    const selection = deps.modelSelection(agentId);
    const primary = liveModels.get(sessionKey) ?? sessionModel ?? selection?.primary;
    if (!primary)
      throw new HearthError('bad_request', 'no model configured: set agents.defaults.model.primary in hearth.json');
    return [primary, ...(selection?.fallbacks ?? []).filter((m) => m !== primary)];
  }

  async function execute(run: RunRecord, input: StartTurnInput, agentId: string): Promise<void> {
    const publisher = new RunEventPublisher(deps.events, run.runId, run.sessionKey, () => deps.clock.now());
    const log = deps.log.child({ runId: run.runId, sessionKey: run.sessionKey });
    const end = (status: RunRecord['status'], error?: Error) => {
      run.status = status;
      run.error = error;
      run.text = publisher.text;
      run.endedAt = deps.clock.now();
      run.updatedAt = run.endedAt;
    };
    try {
      await deps.lanes.run(
        run.sessionKey,
        input.lane ?? (input.runKind === 'cron' ? 'cron' : 'default'),
        async () => {
          markTurnPhase('lane');
          const record = await deps.sessions.resolve(agentId, run.sessionKey);
          const scope: TurnScope = {
            agentId,
            sessionKey: run.sessionKey,
            sessionId: record.sessionId,
            runKind: input.runKind ?? 'default',
          };
          const read = await deps.sessions.read(agentId, record.sessionId, { limit: deps.historyLimit ?? 1000 });
          markTurnPhase('history');
          const turn = turnMessages({
            previous: withoutReplaced(read.messages),
            replace: input.replace,
            fresh: () => ({
              kind: 'user',
              id: newId(),
              ts: deps.clock.now(),
              text: input.message,
              runId: run.runId,
              ...(input.attachments?.length ? { attachments: input.attachments } : {}),
            }),
          });
          const { user } = turn;
          // The user's words are kept even if the turn then fails or the process dies: the append
          // has reached the file before the model is called (docs/SESSIONS.md, "Durability").
          if (turn.append) {
            await deps.sessions.append(agentId, record.sessionId, [user]);
            // Committed (and so announced as session.message) now, not only when the turn ends: the
            // question a phone sent shows on the desktop while the answer is written or waits on an
            // approval. Its fsync runs in the background: the model request does not wait on the disk.
            // sessions.json (time, count, title) is written once, with the reply's commit.
            void deps.sessions
              .commit(agentId, record.sessionId, { turnContinues: true })
              .catch((error: unknown) => log.warn('cannot commit the user message', { error: String(error) }));
          }
          markTurnPhase('user-durable');
          const engine = deps.engineFor?.(agentId, run.sessionKey);
          const models = engine ? [] : modelsFor(agentId, run.sessionKey, record.model);
          publisher.lifecycle({ phase: 'start', model: engine?.label ?? models[0] });
          // An engine agent (a CLI) answers in place of the model loop; it keeps its own history and tools.
          const runEngine = (engine: TurnEngine) => () =>
            engine.run({
              agentId,
              sessionKey: run.sessionKey,
              sessionId: record.sessionId,
              message: user,
              workspaceDir: deps.workspaceDir(agentId),
              signal: run.controller.signal,
              onEvent: (event) => publisher.onRunnerEvent(event),
              log,
            });
          const request = async (): Promise<Parameters<typeof runTurn>[1]> => {
            // Made first, so recall runs alongside the system prompt and tools being assembled.
            hooks = deps.hooks?.(scope);
            hooks?.userDurable?.(
              user,
              turn.history.flatMap((m) => (m.kind === 'user' && m.id !== user.id ? [m.text] : [])),
            );
            return {
              models,
              system: await deps.systemPrompt?.(scope),
              history: turn.history,
              tools: (await deps.tools?.(scope)) ?? [],
              onDemand: await deps.onDemandTools?.(scope),
              toolContext: {
                agentId,
                sessionKey: run.sessionKey,
                workspaceDir: deps.workspaceDir(agentId),
                log,
                userId: deps.userFor?.(scope),
                runKind: scope.runKind,
                onProgress: (text) => publisher.onToolProgress(text),
              },
              hooks,
              signal: run.controller.signal,
              timeoutMs: input.timeoutMs,
              liveModel: () => liveModels.get(run.sessionKey),
              onEvent: (event) => publisher.onRunnerEvent(event),
            };
          };
          let hooks: ReturnType<NonNullable<AgentRuntimeDeps['hooks']>>;
          let runModels: () => Promise<TurnOutcome>;
          if (engine) runModels = runEngine(engine);
          else {
            const built = await request();
            runModels = () => runTurn(runnerDeps, built);
          }
          markTurnPhase('prompt');
          const outcome = await (deps.aroundTurn ? deps.aroundTurn(scope, runModels) : runModels());
          markTurnPhase('model-done');
          if (outcome.messages.length > 0) {
            const [first, ...rest] = outcome.messages;
            // A new answer to the same question says which old one it takes the place of.
            const answer =
              turn.answerReplaces && first
                ? [{ ...first, supersedes: turn.answerReplaces }, ...rest]
                : outcome.messages;
            await deps.sessions.append(agentId, record.sessionId, answer);
          }
          markTurnPhase('reply-appended');
          // Written and announced before the final event: a client that reacts to it (events,
          // chat.history, OpenClaw's session.message, which the commit announces) finds the turn
          // complete. The fsync follows in the background (shared with the next turn's when they
          // overlap): kill -9 loses nothing written, only a power cut in those milliseconds could.
          await deps.sessions.commit(agentId, record.sessionId);
          markTurnPhase('reply-committed');
          if (outcome.status === 'ok') {
            end('ok');
            publisher.final(outcome.usage, outcome.stopReason, outcome.model);
            markTurnPhase('final');
          } else if (outcome.status === 'aborted') {
            end('aborted');
            publisher.aborted();
          } else {
            const error = outcome.error ?? new Error('the turn failed');
            end('error', error);
            log.warn('turn failed', { error: error.message });
            publisher.error(error.message, (error as { reason?: string }).reason);
          }
          hooks?.afterTurn?.();
        },
        { signal: run.controller.signal },
      );
    } catch (error) {
      if (run.controller.signal.aborted) {
        end('aborted');
        publisher.aborted();
        return;
      }
      const failure = error instanceof Error ? error : new Error(String(error));
      log.error('turn crashed', { error: failure.message });
      end('error', failure);
      publisher.error(failure.message);
    }
  }

  const pause = createAgentPause(deps.clock, deps.pauseSaving);
  const runtime: AgentRuntime = {
    auth: deps.auth,
    sessions: deps.sessions,
    pause,

    start(input) {
      const sessionKey = normalizeSessionKey(input.sessionKey);
      const fingerprint = JSON.stringify([
        sessionKey,
        input.message,
        input.attachments ?? [],
        input.thinking ?? null,
        input.replace ?? null,
      ]);
      const existing = runs.lookup(input.runId, fingerprint);
      if (existing) return { run: existing, reused: true };
      // A retry of a turn that already started is answered above; a new one waits for Resume.
      pause.assertRunning(
        input.runKind === 'cron' ? 'cron run' : input.runKind === 'heartbeat' ? 'heartbeat' : 'message',
      );
      if (input.replace !== 'last-answer' && input.message.trim() === '' && !input.attachments?.length) {
        throw new HearthError('bad_request', 'message is empty: send text or at least one attachment');
      }
      const agentId = parseSessionKey(sessionKey).agentId;
      // Fail fast on a broken model (or engine) config: the client gets the error in the response, not only as an event.
      const models = deps.engineFor?.(agentId, sessionKey) ? [] : modelsFor(agentId, sessionKey);
      for (const ref of models) deps.models.provider(parseModelRef(ref).provider);
      let resolveDone: () => void = () => {};
      const now = deps.clock.now();
      const run: RunRecord = {
        runId: input.runId,
        sessionKey,
        fingerprint,
        status: 'running',
        startedAt: now,
        updatedAt: now,
        text: '',
        controller: new AbortController(),
        done: new Promise<void>((resolve) => {
          resolveDone = resolve;
        }),
      };
      runs.add(run);
      void execute(run, input, agentId).finally(() => resolveDone());
      return { run, reused: false };
    },

    abort(sessionKey, runId) {
      const key = normalizeSessionKey(sessionKey);
      const targets = runs.active(key).filter((r) => !runId || r.runId === runId);
      for (const run of targets) run.controller.abort(new Error('aborted by the user'));
      return targets.map((r) => r.runId);
    },

    async wait(runId, timeoutMs) {
      const run = runs.get(runId);
      if (run?.status !== 'running' || timeoutMs === 0) return run;
      if (timeoutMs === undefined) {
        await run.done;
        return run;
      }
      await new Promise<void>((resolve) => {
        const timer = deps.clock.setTimeout(resolve, timeoutMs);
        void run.done.then(() => {
          timer.dispose();
          resolve();
        });
      });
      return run;
    },

    getRun: (runId) => runs.get(runId),

    switchModel(sessionKey, modelRef) {
      const key = normalizeSessionKey(sessionKey);
      if (modelRef) {
        parseModelRef(modelRef);
        liveModels.set(key, modelRef);
      } else liveModels.delete(key);
    },

    listModels: (provider) =>
      listModelRows({
        models: deps.models,
        catalog: deps.catalog,
        auth: deps.auth,
        selection: deps.modelSelection('main'),
        provider,
      }),

    // The token counter's tables are not loaded here: a first client's first turn follows at once,
    // and most budgets never need them (agent/context/token-budget.ts loads them in idle time).
    warmUp: () => warmUpModels({ ...deps, newId }),

    dispose() {
      runs.dispose();
      pause.dispose();
    },
  };
  return runtime;
}
