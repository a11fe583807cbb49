import type { AgentRuntime } from '../../agent/index.js';
import { type Disposable, DisposableStore } from '../../base/index.js';
import type { ApprovalHistoryEntry, ExecConfig } from '../../exec/index.js';
import type { ApprovalHistoryItem } from '../../protocol/methods/openclaw-agents.js';
import type { SessionDefaults } from '../../protocol/methods/openclaw-chat.js';
import type { ModelSelection } from '../../providers/index.js';
import type { MethodRouter } from '../method-router.js';

export interface OpenClawAgentsDeps {
  runtime: AgentRuntime;
  /** `main` first, then every agents.list[] entry. */
  agents(): readonly { id: string; name?: string }[];
  modelSelection(agentId: string): ModelSelection | undefined;
  defaults(agentId: string): SessionDefaults;
  workspaceDir(agentId: string): string;
  execConfig(agentId: string): ExecConfig;
  approvalHistory(): Promise<readonly ApprovalHistoryEntry[]>;
  now(): number;
}

/**
 * One decision of Hearth's history in OpenClaw's closed record (its UI validates it): the status
 * decides which `reason` words are allowed, so Hearth's own free-text reason is not carried.
 */
export function historyItem(entry: ApprovalHistoryEntry): ApprovalHistoryItem {
  const by = entry.resolvedBy;
  const source = by.slice(0, by.includes(':') ? by.indexOf(':') : by.length);
  const outcome: Pick<ApprovalHistoryItem, 'status' | 'reason' | 'decision'> =
    by === 'expiry'
      ? { status: 'expired', reason: 'timeout' }
      : by === 'cancelled'
        ? { status: 'cancelled', reason: 'gateway-restart' }
        : entry.decision === 'deny'
          ? { status: 'denied', decision: 'deny', reason: by === 'no-approver' ? 'no-route' : 'user' }
          : { status: 'allowed', decision: entry.decision, reason: 'user' };
  const resolverKind =
    source === 'operator' || source === 'prompter'
      ? 'device'
      : source === 'chat'
        ? 'channel'
        : source === 'smart-judge'
          ? 'runtime'
          : 'system';
  return {
    id: entry.id,
    urlPath: `/approve/${entry.id}`,
    createdAtMs: entry.requestedAtMs,
    // Hearth's history keeps when it was decided, not the deadline it had.
    expiresAtMs: entry.decidedAtMs,
    presentation: {
      kind: 'exec',
      commandText: entry.command,
      commandPreview: null,
      warningText: null,
      host: 'gateway',
      nodeId: null,
      agentId: entry.agentId ?? null,
      allowedDecisions: ['allow-once', 'allow-always', 'deny'],
    },
    resolvedAtMs: entry.decidedAtMs,
    source: { agentId: entry.agentId, sessionKey: entry.sessionKey },
    resolver: { kind: resolverKind, id: by },
    ...outcome,
  };
}

/**
 * Agents, identity, credentials and the approval lists OpenClaw's UI polls, answered from
 * Hearth's agent roster, model runtime, auth profiles and its one approval system (exec).
 */
export function registerOpenClawAgentsMethods(router: MethodRouter, deps: OpenClawAgentsDeps): Disposable {
  const store = new DisposableStore();

  store.add(
    router.handle('agents.list', () => ({
      defaultId: 'main',
      mainKey: 'main',
      scope: 'per-sender' as const,
      agents: deps.agents().map((agent) => {
        const selection = deps.modelSelection(agent.id);
        const defaults = deps.defaults(agent.id);
        return {
          id: agent.id,
          kind: 'agent' as const,
          ...(agent.name ? { name: agent.name } : {}),
          workspace: deps.workspaceDir(agent.id),
          model: { primary: selection?.primary ?? null, fallbacks: selection?.fallbacks ?? [] },
          thinkingLevels: defaults.thinkingLevels,
          thinkingOptions: defaults.thinkingOptions,
          thinkingDefault: defaults.thinkingDefault,
        };
      }),
    })),
  );

  store.add(
    router.handle('agent.identity.get', (params) => {
      const agentId = params.agentId ?? 'main';
      const agent = deps.agents().find((a) => a.id === agentId);
      const name = agent?.name ?? 'Hearth';
      return { agentId, name, nameSource: agent?.name ? 'config' : 'default', avatar: name.slice(0, 1).toUpperCase() };
    }),
  );

  store.add(
    router.handle('projects.list', () => ({
      projects: deps.agents().map((agent) => ({
        id: `workspace:${agent.id}`,
        displayName: 'workspace',
        repoRoot: deps.workspaceDir(agent.id),
        source: 'workspace',
        agentId: agent.id,
      })),
      recents: [],
    })),
  );

  store.add(
    router.handle('models.authStatus', async () => {
      const health = await deps.runtime.auth.health();
      const providers = [...new Set(deps.runtime.listModels().map((m) => m.provider))].map((provider) => {
        const profiles = health.filter((h) => h.provider === provider);
        const usable = profiles.some((p) => p.status === 'ok');
        return {
          provider,
          authProvider: provider,
          displayName: provider,
          status: profiles.length === 0 ? 'static' : usable ? 'ok' : 'unavailable',
          profiles: profiles.map((p) => ({ id: p.id, type: p.type, label: p.label, status: p.status })),
        };
      });
      return { ts: deps.now(), providers, providerCapabilities: [] };
    }),
  );

  // Hearth raises exec approvals only; the other kinds OpenClaw knows are never pending here.
  store.add(router.handle('plugin.approval.list', () => []));
  store.add(router.handle('openclaw.approval.list', () => []));
  store.add(router.handle('question.list', () => ({ questions: [] })));

  store.add(
    router.handle('approval.history', async (params) => {
      const entries = await deps.approvalHistory();
      const newest = [...entries].sort((a, b) => b.decidedAtMs - a.decidedAtMs).slice(0, params.limit ?? 50);
      return {
        items: newest.map(historyItem),
      };
    }),
  );

  store.add(
    router.handle('exec.approvals.get', (params) => {
      const config = deps.execConfig(params.agentId ?? 'main');
      return {
        path: 'hearth.json#tools.exec',
        exists: true,
        file: { version: 1, defaults: {}, agents: {} },
        resolvedDefaults: {
          security: config.security,
          ask: config.ask,
          askFallback: config.askFallback,
          autoAllowSkills: false,
        },
        approvals: { mode: config.approvals.mode, timeoutMs: config.approvalTimeoutMs },
      };
    }),
  );

  store.add(
    router.handle('exec.approval.grants.list', (params) => ({
      grants: deps.execConfig(params.agentId ?? 'main').allowlist.map((entry) => ({ ...entry, source: 'config' })),
    })),
  );
  return store;
}
