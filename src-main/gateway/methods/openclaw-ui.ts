import type { AgentRuntime } from '../../agent/index.js';
import { type Disposable, DisposableStore } from '../../base/index.js';
import type { ApprovalHistoryEntry, ApprovalRequest, ExecConfig } from '../../exec/index.js';
import type { SessionDefaults } from '../../protocol/methods/openclaw-chat.js';
import type { ModelSelection } from '../../providers/index.js';
import type { CallerIdentity } from '../caller.js';
import type { EventBus } from '../event-bus.js';
import type { MethodRouter } from '../method-router.js';
import { registerOpenClawAgentsMethods } from './openclaw-agents.js';
import { registerOpenClawChatMethods } from './openclaw-chat.js';
import { publishSessionMessages } from './openclaw-session-messages.js';
import { sessionDefaults } from './openclaw-session-view.js';
import { registerOpenClawSystemMethods } from './openclaw-system.js';
import { registerOpenClawUnavailableMethods } from './openclaw-unavailable.js';

export interface OpenClawUiDeps {
  runtime: AgentRuntime;
  bus: EventBus;
  approvals: { list(): readonly ApprovalRequest[] };
  approvalHistory(): Promise<readonly ApprovalHistoryEntry[]>;
  agents(): readonly { id: string; name?: string }[];
  modelSelection(agentId: string): ModelSelection | undefined;
  workspaceDir(agentId: string): string;
  execConfig(agentId: string): ExecConfig;
  logFile: string;
  callers(): readonly CallerIdentity[];
  uptimeMs(): number;
  /** The gateway's own origin (http://127.0.0.1:<port>), for URLs the UI opens. */
  origin(): string;
  port(): number;
  version: string;
  home: string;
  now(): number;
}

/** The `defaults` object OpenClaw's UI reads off sessions.list and chat.history, per agent. */
export function openClawDefaults(deps: Pick<OpenClawUiDeps, 'runtime' | 'modelSelection'>) {
  return (agentId: string): SessionDefaults => sessionDefaults(deps.modelSelection(agentId), deps.runtime.listModels());
}

/**
 * Everything OpenClaw's own Control UI (2026.9.6) calls that Hearth's own methods do not
 * already answer: the chat gate and session subscriptions, agents and approvals lists, the
 * machine, logs and spend, a `session.message` event, and coded UNAVAILABLE answers for the
 * capabilities Hearth lacks. docs/GATEWAY.md "OpenClaw clients" has the list.
 */
export function registerOpenClawUiMethods(router: MethodRouter, deps: OpenClawUiDeps): Disposable {
  const store = new DisposableStore();
  const defaults = openClawDefaults(deps);
  store.add(
    registerOpenClawChatMethods(router, {
      runtime: deps.runtime,
      pendingApprovals: () => deps.approvals.list(),
      defaults,
      canvasUrl: () => `${deps.origin()}/__hearth__/canvas/`,
      now: deps.now,
    }),
  );
  store.add(
    registerOpenClawAgentsMethods(router, {
      runtime: deps.runtime,
      agents: deps.agents,
      modelSelection: deps.modelSelection,
      defaults,
      workspaceDir: deps.workspaceDir,
      execConfig: deps.execConfig,
      approvalHistory: deps.approvalHistory,
      now: deps.now,
    }),
  );
  store.add(
    registerOpenClawSystemMethods(router, {
      runtime: deps.runtime,
      logFile: deps.logFile,
      callers: deps.callers,
      uptimeMs: deps.uptimeMs,
      port: deps.port,
      version: deps.version,
      home: deps.home,
      now: deps.now,
    }),
  );
  store.add(registerOpenClawUnavailableMethods(router));
  store.add(publishSessionMessages({ store: deps.runtime.sessions, bus: deps.bus, now: deps.now }));
  return store;
}
