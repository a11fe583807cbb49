import type { PresenceEntry } from './connect.js';
import type { DeliveryOutcome } from './delivery-target.js';
import type { AgentPauseState } from './methods/agent.js';
import type { ChatHistoryMessage } from './methods/chat.js';
import type { PairingRequestView } from './methods/devices.js';
import type { DreamRunView } from './methods/dreams.js';
import type { ExecApprovalView } from './methods/exec.js';
import type { HealthResult, HeartbeatLastResult } from './methods/gateway.js';
import type { McpServerStatus } from './methods/mcp.js';
import type { MemoryModelStatus } from './methods/memory.js';
import type { SubagentEvent } from './methods/subagents.js';
import type { UsageLimitEvent } from './methods/usage.js';

/** Token counts of one model call or one run. */
export interface TokenUsage {
  inputTokens: number;
  outputTokens: number;
  cachedInputTokens: number;
}

/** The assistant's text so far, in the OpenClaw message shape (PROTOCOL.md §7). */
export interface ChatEventMessage {
  role: 'assistant';
  content: { type: 'text'; text: string }[];
}

interface RunEventBase {
  runId: string;
  sessionKey: string;
  /** Per run and per event name; a gap means a dropped event. */
  seq: number;
}

/** `chat`: what a chat client renders (PROTOCOL.md §7 delta / final / aborted / error). */
export type ChatEvent = RunEventBase &
  (
    | { state: 'delta'; deltaText: string; message: ChatEventMessage }
    | { state: 'final'; message: ChatEventMessage; usage: TokenUsage; stopReason: string; model?: string }
    | { state: 'aborted'; stopReason: 'rpc'; message: ChatEventMessage }
    | { state: 'error'; errorMessage: string; reason?: string }
  );
export type ChatEventState = ChatEvent['state'];

/** `agent` stream `lifecycle`: the run's phases, fallbacks and retries. */
export type AgentLifecycleData =
  | { phase: 'start'; model?: string }
  | { phase: 'end'; stopReason: string }
  | { phase: 'error'; error: string; reason?: string }
  | { phase: 'aborted' }
  | { phase: 'fallback'; from: string; to: string; reason: string }
  | { phase: 'retry'; model: string; reason: string; waitMs: number };

/** `agent` stream `tool`: a call the model made, then its result. */
export type AgentToolData =
  | { phase: 'call'; toolCallId: string; name: string; input: unknown }
  /** `output`: what the tool returned (the transcript's tool_result text), so clients show it live. */
  | { phase: 'result'; toolCallId: string; name: string; isError: boolean; output?: string };

/** One part of the `agent` stream: everything a run does, for rich clients (tool cards, usage). */
export type AgentStreamPart =
  | { stream: 'lifecycle'; data: AgentLifecycleData }
  | { stream: 'assistant'; data: { text: string; delta: string } }
  | { stream: 'tool'; data: AgentToolData }
  | { stream: 'tool_output'; data: { text: string } }
  | { stream: 'usage'; data: TokenUsage };

export type AgentEvent = RunEventBase & { ts: number } & AgentStreamPart;

/** `sessions.changed`: the session index changed on disk (a chat turn, a method, the CLI). */
export interface SessionsChangedEvent {
  reason: 'created' | 'reset' | 'deleted' | 'patched' | 'updated' | 'forked';
  agentId: string;
  key: string;
  /** The current session id (absent after a delete). */
  sessionId?: string;
  /** On reset and delete: the transcript that was set aside. */
  previousSessionId?: string;
}

export type ApprovalDecisionName = 'allow-once' | 'allow-always' | 'deny';

export interface ExecApprovalResolvedEvent {
  id: string;
  decision: ApprovalDecisionName;
  resolvedBy: string;
  ts: number;
  reason?: string;
  /** allow-once remembered for the session ("allow for this session"). */
  remember?: 'session';
  allowAlwaysScope?: 'binary' | 'exact' | 'folder' | 'tool' | 'server';
  /** allow-always until then (epoch ms). */
  untilMs?: number;
  /** The permission rule (or session grant) the answer saved. */
  ruleId?: string;
}

export interface TerminalOutputEvent {
  terminalId: string;
  data: string;
  seq: number;
}

export interface TerminalExitEvent {
  terminalId: string;
  exitCode: number;
  signal: number | null;
}

/**
 * `auth.profiles.changed`: a profile was set or removed (`id`), a turn ended and may have moved
 * cooldowns, or probes recorded new results (`ids`).
 */
export type AuthProfilesChangedEvent =
  | { id: string }
  | { reason: 'turn-ended'; runId: string }
  | { reason: 'probed'; ids: string[] };

/**
 * `memory.changed`: an index run's progress; `files`: an index run finished, so search now matches
 * the memory files (on open, after a hand edit, after promoting); memory settings were applied; or a
 * local model's install moved on.
 */
export type MemoryChangedEvent =
  | { agentId: string; progress: { phase: 'index' | 'reembed'; done: number; total: number; path?: string } }
  | { agentId: string; reason: 'files' }
  | { reason: 'config' }
  | { reason: 'model'; model: MemoryModelStatus };

/**
 * `dreams.changed`: a Dreaming run wrote new reports (for one agent, and one person's memory if
 * per-user), or a run moved on (`progress`: its phases so far, then its result or error).
 */
export type DreamsChangedEvent =
  | { agentId: string; userId?: string; reason: 'scheduled' | 'manual' }
  | { agentId: string; userId?: string; reason: 'progress'; run: DreamRunView };

/** `cron.changed`: the jobs changed, or a job's run ended (`run`; `delivery` says whether the UI should announce it). */
export type CronChangedEvent =
  | { reason: 'jobs' }
  | {
      reason: 'run';
      jobId: string;
      name: string;
      runId: string;
      sessionKey?: string;
      status: 'ok' | 'error' | 'skipped';
      summary: string;
      /** The job's delivery as written (`ui`, `none`, `owner`, `telegram:42`). */
      delivery: string;
      /** A channel delivery's outcome. */
      delivered?: DeliveryOutcome;
    };

/** `heartbeat`: a beat ended (quiet beats too: they cost nothing); `delivered` carries what the person should hear. */
export interface HeartbeatEvent extends HeartbeatLastResult {
  agentId: string;
}

export interface CanvasChangedEvent {
  files: string[];
  ts: number;
}

export interface DevicePairRequestedEvent extends PairingRequestView {
  silent?: boolean;
}

export interface DevicePairResolvedEvent {
  requestId: string;
  deviceId: string;
  decision: 'approved' | 'rejected' | 'expired';
  ts: number;
}

/**
 * `session.message`: a message landed in a session's transcript (OpenClaw's event; its Control UI
 * appends it to an open chat). `message` is the chat.history message shape.
 */
export interface SessionMessageEvent {
  sessionKey: string;
  agentId: string;
  sessionId: string;
  message: ChatHistoryMessage & { timestamp: number };
  messageId: string;
  /** 1-based position in the transcript. */
  messageSeq: number;
}

/** `channels.changed`: a channel's state or its pairing requests changed (docs/CHANNELS.md); read channels.list. */
export interface ChannelsChangedEvent {
  channel: string;
  reason: 'status' | 'pairing';
}

/** `mcp.servers.changed`: an MCP server's state, tool list or last error changed (docs/MCP.md). */
export interface McpServersChangedEvent {
  server: McpServerStatus;
}

/**
 * Server → client events and their payloads. Capabilities add theirs here; the
 * gateway advertises the keys in hello-ok.features.events.
 */
export interface EventPayloads {
  'connect.challenge': { nonce: string; ts: number; capabilities: string[] };
  tick: { ts: number };
  presence: { presence: PresenceEntry[] };
  health: HealthResult;
  shutdown: { reason: string; restartExpectedMs?: number };
  'config.changed': { hash: string; changedPrefixes: string[] };
  'config.error': { path: string; errors: { path: string; message: string }[] };
  chat: ChatEvent;
  agent: AgentEvent;
  'sessions.changed': SessionsChangedEvent;
  'session.message': SessionMessageEvent;
  'exec.approval.requested': ExecApprovalView;
  'exec.approval.resolved': ExecApprovalResolvedEvent;
  'terminal.output': TerminalOutputEvent;
  'terminal.exit': TerminalExitEvent;
  'auth.profiles.changed': AuthProfilesChangedEvent;
  'memory.changed': MemoryChangedEvent;
  'dreams.changed': DreamsChangedEvent;
  'cron.changed': CronChangedEvent;
  'channels.changed': ChannelsChangedEvent;
  'mcp.servers.changed': McpServersChangedEvent;
  heartbeat: HeartbeatEvent;
  'usage.limit': UsageLimitEvent;
  'canvas.changed': CanvasChangedEvent;
  'device.pair.requested': DevicePairRequestedEvent;
  'device.pair.resolved': DevicePairResolvedEvent;
  /** A subagent started, took a step, or ended (protocol/methods/subagents.ts). */
  subagent: SubagentEvent;
  /** "Pause agent" turned on or off (agent.pause / agent.resume), so every surface shows it. */
  'agent.pause.changed': AgentPauseState;
}

/** A sink for some of the events: what a capability is given instead of the whole bus. */
export interface EventSink<E extends EventName = EventName> {
  publish<K extends E>(event: K, payload: EventPayloads[K]): void;
}

export type EventName = keyof EventPayloads;

export const eventNames = [
  'connect.challenge',
  'tick',
  'presence',
  'health',
  'shutdown',
  'config.changed',
  'config.error',
  'chat',
  'agent',
  'sessions.changed',
  'session.message',
  'exec.approval.requested',
  'exec.approval.resolved',
  'terminal.output',
  'terminal.exit',
  'auth.profiles.changed',
  'memory.changed',
  'dreams.changed',
  'cron.changed',
  'channels.changed',
  'mcp.servers.changed',
  'heartbeat',
  'usage.limit',
  'canvas.changed',
  'device.pair.requested',
  'device.pair.resolved',
  'subagent',
  'agent.pause.changed',
] as const satisfies readonly EventName[];

/** Which scope an event needs to be delivered (PROTOCOL.md §5 "Event delivery"). */
export type EventAudience = 'everyone' | 'operator.read' | 'operator.approvals' | 'operator.pairing' | 'operator.admin';

export function eventAudience(event: string): EventAudience {
  if (event === 'tick' || event === 'presence' || event === 'health' || event === 'shutdown') return 'everyone';
  if (event.startsWith('exec.approval.')) return 'operator.approvals';
  if (event.startsWith('device.pair.')) return 'operator.pairing';
  if (event.startsWith('config.')) return 'operator.admin';
  return 'operator.read';
}
