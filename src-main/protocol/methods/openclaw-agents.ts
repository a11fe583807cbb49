import { z } from 'zod';
import { method } from './define.js';

// Agents, identity, models and approvals as OpenClaw's Control UI reads them; answered from
// Hearth's agent roster, model runtime, auth profiles and its one approval system.

export interface OpenClawAgentRow {
  id: string;
  kind: 'agent';
  name?: string;
  workspace: string;
  model: { primary: string | null; fallbacks: string[] };
  thinkingLevels: { id: string; label: string }[];
  thinkingOptions: string[];
  thinkingDefault: string;
}

export interface AgentsListResult {
  defaultId: string;
  mainKey: string;
  scope: 'per-sender';
  agents: OpenClawAgentRow[];
}

/** OpenClaw's closed approval record (its Settings → Approvals page validates every field). */
export interface ApprovalHistoryItem {
  id: string;
  urlPath: string;
  status: 'allowed' | 'denied' | 'expired' | 'cancelled';
  decision?: string;
  reason: 'user' | 'no-route' | 'timeout' | 'gateway-restart';
  presentation: {
    kind: 'exec';
    commandText: string;
    commandPreview: null;
    warningText: null;
    host: string;
    nodeId: null;
    agentId: string | null;
    allowedDecisions: string[];
  };
  createdAtMs: number;
  expiresAtMs: number;
  resolvedAtMs: number;
  source: { agentId?: string; sessionKey?: string };
  resolver: { kind: 'device' | 'channel' | 'runtime' | 'system'; id: string };
}

const agentId = z.string().min(1);

export const openClawAgentsMethods = {
  'agents.list': method<AgentsListResult>()({ scope: 'operator.read', params: () => z.object({}).strict() }),
  'agent.identity.get': method<{ agentId: string; name: string; nameSource: string; avatar: string }>()({
    scope: 'operator.read',
    params: () => z.object({ agentId: agentId.optional(), sessionKey: z.string().optional() }).strict(),
  }),
  'models.authStatus': method<{ ts: number; providers: Record<string, unknown>[]; providerCapabilities: unknown[] }>()({
    scope: 'operator.read',
    params: () => z.object({ agentId: agentId.optional() }).strict(),
  }),
  /** Hearth has one approval system (exec); plugin approvals are never raised, so this is always empty. */
  'plugin.approval.list': method<unknown[]>()({ scope: 'operator.approvals', params: () => z.object({}).strict() }),
  /** OpenClaw's generic approval kinds; Hearth's approvals are all exec approvals (exec.approval.list). */
  'openclaw.approval.list': method<unknown[]>()({ scope: 'operator.approvals', params: () => z.object({}).strict() }),
  /** Questions the agent asks the operator: Hearth's agent has no such tool, so none are ever open. */
  'question.list': method<{ questions: unknown[] }>()({
    scope: 'operator.approvals',
    params: () => z.object({}).strict(),
  }),
  'approval.history': method<{ items: ApprovalHistoryItem[] }>()({
    scope: 'operator.approvals',
    params: () => z.object({ limit: z.number().int().min(1).max(100).optional() }).strict(),
  }),
  'exec.approvals.get': method<Record<string, unknown>>()({
    scope: 'operator.approvals',
    params: () => z.object({ agentId: agentId.optional() }).strict(),
  }),
  /** Each agent's workspace, as OpenClaw's project picker lists them. */
  'projects.list': method<{ projects: Record<string, unknown>[]; recents: unknown[] }>()({
    scope: 'operator.read',
    params: () => z.object({}).strict(),
  }),
  /** "Always allow" grants: Hearth's allowlist entries. */
  'exec.approval.grants.list': method<{ grants: Record<string, unknown>[] }>()({
    scope: 'operator.approvals',
    params: () => z.object({ agentId: agentId.optional() }).strict(),
  }),
};
