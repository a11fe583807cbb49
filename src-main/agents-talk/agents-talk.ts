import { AsyncLocalStorage } from 'node:async_hooks';
import { randomUUID } from 'node:crypto';
import { formatSessionKey } from '../sessions/index.js';
import type { AgentsTalkSettings } from './agents-talk-config.js';
import { runAndWait, type TurnRunner } from './turn-runner.js';

export interface SendInput {
  /** The asking turn. */
  from: { agentId: string; sessionKey: string };
  to: string;
  message: string;
  /** The asking turn's abort signal: it also identifies the exchange (one asking turn, one exchange per target). */
  signal: AbortSignal;
}

export type SendResult =
  | { ok: true; reply: string; sessionKey: string; turn: number; maxTurns: number }
  | { ok: false; reason: string };

export interface AgentsTalk {
  send(input: SendInput): Promise<SendResult>;
  /** The session of `target` that holds its exchanges with `from` (both sides' words are in it). */
  sessionKeyFor(target: string, from: string): string;
}

/** Marks every turn started on another agent's behalf, and everything that turn starts in turn. */
interface AskedContext {
  askedBy: string;
  sessionKey: string;
}

/**
 * Agent to agent: one agent asks another something (or hands it work) and gets the reply back
 * as its tool result. The target answers in its own session `agent:<target>:a2a-<from>` (a named
 * chat, so both sides' words stay in both transcripts) on the `nested` lane, never the asking
 * session's lane, which the asking turn holds while it waits.
 *
 * Why a turn that was asked may not ask in turn (nor anything it starts, such as its subagents):
 * it holds a `nested` slot while waiting, and a chain of such waits could take every slot and
 * wait on itself. The reply goes back in its answer instead; the asker may then send again, up
 * to `maxTurns` turns per exchange (one asking turn, one target).
 */
export function createAgentsTalk(deps: {
  runner(): TurnRunner;
  settings(): AgentsTalkSettings;
  /** Agent ids that exist (hearth.json's `agents.list`, or `main`). */
  knownAgents(): readonly string[];
  newId?(): string;
}): AgentsTalk {
  const newId = deps.newId ?? (() => randomUUID());
  const asked = new AsyncLocalStorage<AskedContext>();
  // Per asking turn (its abort signal, which lives as long as the turn), turns taken per target.
  const exchanges = new WeakMap<AbortSignal, Map<string, number>>();
  const sessionKeyFor = (target: string, from: string) =>
    formatSessionKey({ kind: 'named', agentId: target, label: `a2a-${from}` });

  return {
    sessionKeyFor,
    async send({ from, to, message, signal }) {
      const settings = deps.settings();
      const known = deps.knownAgents();
      if (!known.includes(to)) return { ok: false, reason: `unknown agent "${to}" (known: ${known.join(', ')})` };
      if (to === from.agentId) {
        return {
          ok: false,
          reason: `"${to}" is you: sessions_send addresses another agent (use sessions_spawn for a subagent of your own)`,
        };
      }
      if (!settings.allows(from.agentId, to)) {
        return {
          ok: false,
          reason:
            `${from.agentId} may not message ${to}: nothing is allowed until hearth.json says so. ` +
            `Add ["${from.agentId}","${to}"] to agents.defaults.agentToAgent.allow, or "${to}" to agents.list[${from.agentId}].canMessage.`,
        };
      }
      const outer = asked.getStore();
      if (outer) {
        return {
          ok: false,
          reason: `this turn answers ${outer.askedBy} (${outer.sessionKey}): it may not message other agents; put what you have in your reply, which goes back to ${outer.askedBy}`,
        };
      }
      let turns = exchanges.get(signal);
      if (!turns) {
        turns = new Map();
        exchanges.set(signal, turns);
      }
      const turn = (turns.get(to) ?? 0) + 1;
      if (turn > settings.maxTurns) {
        return {
          ok: false,
          reason: `the exchange with ${to} has had its ${settings.maxTurns} turns (agents.defaults.agentToAgent.maxTurns): stop asking and answer with what you have`,
        };
      }
      turns.set(to, turn);
      const sessionKey = sessionKeyFor(to, from.agentId);
      const text = `[Message from agent "${from.agentId}" (${from.sessionKey}), turn ${turn} of at most ${settings.maxTurns}; your reply is sent back to it]\n\n${message}`;
      let outcome: Awaited<ReturnType<typeof runAndWait>>;
      try {
        outcome = await asked.run({ askedBy: from.agentId, sessionKey }, () =>
          runAndWait(
            deps.runner(),
            { runId: `a2a-${newId()}`, sessionKey, message: text, lane: 'nested' },
            { signal, timeoutMs: settings.timeoutMs },
          ),
        );
      } catch (error) {
        return {
          ok: false,
          reason: `${to} could not be asked: ${error instanceof Error ? error.message : String(error)}`,
        };
      }
      const { run, timedOut } = outcome;
      if (timedOut) {
        return {
          ok: false,
          reason: `${to} did not reply within ${Math.round(settings.timeoutMs / 1000)} s (agents.defaults.agentToAgent.timeoutSeconds); its turn was aborted`,
        };
      }
      if (run?.status === 'ok') {
        return { ok: true, reply: run.text.trim() || '(no reply)', sessionKey, turn, maxTurns: settings.maxTurns };
      }
      if (run?.status === 'aborted') return { ok: false, reason: `${to}'s turn was aborted` };
      return { ok: false, reason: `${to}'s turn failed: ${run?.error?.message ?? 'unknown error'}` };
    },
  };
}
