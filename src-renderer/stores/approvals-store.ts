import { createStore, type StoreApi } from 'zustand/vanilla';
import { readApprovalView } from '../../src-main/protocol/client/read-approval-view.js';
import type { AllowlistEntryView } from '../../src-main/protocol/methods/exec.js';
import { disposeAll, errorText, type GatewayPort } from './gateway-port.js';

export type Decision = 'allow-once' | 'allow-always' | 'deny';
/** What a person may answer: the request's decisions, plus "allow for this session" where offered. */
export type Answer = Decision | 'allow-session';
export type AlwaysScope = 'binary' | 'exact' | 'folder' | 'tool' | 'server';

/** One reason as the gateway sends it: a stable code (what gets translated) and its English detail. */
export interface ApprovalReason {
  code: string;
  detail: string;
}

/** The exec risk grade a card shows: how much harm, why, what it writes, whether it uses the network. */
export interface ApprovalRisk {
  level: 'safe' | 'caution' | 'destructive';
  because: ApprovalReason[];
  writes: string[];
  network: boolean;
}

export interface PendingApproval {
  id: string;
  command: string;
  cwd?: string;
  host?: string;
  agentId?: string;
  sessionKey?: string;
  /** Why the command was flagged (the exec analysis' reasons). */
  reasons: ApprovalReason[];
  /** The allowlist entry "Always allow" would add. */
  allowAlwaysEntry?: string;
  /** What "Always allow" adds when limited to these exact arguments. */
  allowAlwaysExactEntry?: string;
  /** The folder an "always … in this folder" rule is limited to (scope `folder`). */
  alwaysFolder?: string;
  /** Exec: the server's risk grade; absent from older gateways and tool requests. */
  risk?: ApprovalRisk;
  allowedDecisions: Decision[];
  /** "Allow for this session" is offered. */
  allowSession: boolean;
  /** Put first: `session` for read-only requests (allowing them remembers them for the session). */
  suggested: 'once' | 'session';
  /** What "always" may be keyed on; the first is the default. */
  alwaysScopes: AlwaysScope[];
  /** MCP and file requests: the tool (and server) asked about. */
  tool?: string;
  server?: string;
  kind?: string;
  /** Identical calls waiting on this one request (one answer settles them all). */
  waiting: number;
  createdAtMs: number;
  expiresAtMs: number;
}

/** How "always" is limited: its scope and an optional last day. */
export interface AlwaysChoice {
  scope?: AlwaysScope;
  /** `YYYY-MM-DD`: the rule ends at the end of that day. */
  until?: string;
}

export interface DecidedApproval {
  id: string;
  command: string;
  decision: string;
  resolvedBy: string;
  /** Why (the smart judge's verdict, the fallback applied, the user's note). */
  reason?: string;
  ts: number;
}

export interface ApprovalsState {
  pending: PendingApproval[];
  history: DecidedApproval[];
  selectedId?: string;
  error?: string;
  refresh(): Promise<void>;
  /** Answers a request; resolves to the gateway's refusal (also kept in `error`), or undefined once accepted. */
  resolve(id: string, answer: Answer, always?: AlwaysChoice | AlwaysScope): Promise<string | undefined>;
  select(id: string | undefined): void;
  moveSelection(step: 1 | -1): void;
}

const allDecisions: Decision[] = ['allow-once', 'allow-always', 'deny'];

/** One allowlist entry as text: the binary, and the argument pattern when pinned. */
function entryText(entry: AllowlistEntryView): string {
  return entry.argPattern ? `${entry.pattern} ${entry.argPattern}` : entry.pattern;
}

/**
 * A pending approval as the queue shows it, from `exec.approval.requested` payloads and
 * `exec.approval.list` rows (one shape, read by protocol's `readApprovalView`, which also takes
 * older and PROTOCOL.md §7-only senders).
 */
export function toPendingApproval(value: unknown): PendingApproval | undefined {
  const row = readApprovalView(value);
  if (!row) return undefined;
  const reasons = row.reasons
    .map(({ code, detail }) => ({ code, detail }))
    .filter((r, i, all) => all.findIndex((other) => other.detail === r.detail) === i);
  // The gateway may say exactly what "always" adds; otherwise the binary is what gets allowlisted.
  const always = (row.allowAlways ?? []).map(entryText);
  const exact = (row.allowAlwaysExact ?? []).map(entryText);
  const binary = row.command.trim().split(/\s+/)[0] ?? row.command;
  const { subject } = row;
  return {
    id: row.id,
    command: row.command,
    cwd: row.cwd || undefined,
    host: row.host || undefined,
    agentId: row.agentId || undefined,
    sessionKey: row.sessionKey || undefined,
    reasons,
    allowAlwaysEntry: always.length > 0 ? always.join(', ') : binary,
    allowAlwaysExactEntry: exact.length > 0 ? exact.join(', ') : undefined,
    ...(row.allowAlwaysFolder?.[0]?.cwdWithin ? { alwaysFolder: row.allowAlwaysFolder[0].cwdWithin } : {}),
    ...(row.risk
      ? {
          risk: {
            level: row.risk.level,
            because: row.risk.because.map(({ code, detail }) => ({ code, detail })),
            writes: row.risk.writes,
            network: row.risk.network,
          },
        }
      : {}),
    allowedDecisions: row.allowedDecisions.length > 0 ? row.allowedDecisions : allDecisions,
    allowSession: row.allowSession === true,
    suggested: row.suggested ?? 'once',
    alwaysScopes: row.alwaysScopes ?? [],
    ...(subject && subject.kind !== 'exec'
      ? { kind: subject.kind, tool: subject.tool || undefined, server: subject.server || undefined }
      : {}),
    waiting: row.waiting ?? 1,
    createdAtMs: row.createdAtMs,
    expiresAtMs: row.expiresAtMs,
  };
}

export function createApprovalsStore(client: GatewayPort): StoreApi<ApprovalsState> & { dispose(): void } {
  const store = createStore<ApprovalsState>((set, get) => ({
    pending: [],
    history: [],
    async refresh() {
      try {
        const rows = await client.request('exec.approval.list', {});
        const pending = rows.flatMap((r) => toPendingApproval(r) ?? []);
        set({ pending, error: undefined, selectedId: get().selectedId ?? pending[0]?.id });
      } catch (error) {
        set({ error: errorText(error) });
      }
    },
    async resolve(id, decision, always) {
      const choice: AlwaysChoice = typeof always === 'string' ? { scope: always } : (always ?? {});
      try {
        await client.request('exec.approval.resolve', {
          id,
          decision,
          ...(decision === 'allow-always' && choice.scope ? { allowAlwaysScope: choice.scope } : {}),
          ...(decision === 'allow-always' && choice.until ? { until: choice.until } : {}),
        });
        set({ error: undefined });
        return undefined;
      } catch (error) {
        const said = errorText(error);
        set({ error: said });
        return said;
      }
    },
    select: (selectedId) => set({ selectedId }),
    moveSelection(step) {
      const { pending, selectedId } = get();
      if (pending.length === 0) return;
      const at = Math.max(
        0,
        pending.findIndex((p) => p.id === selectedId),
      );
      const next = pending[(at + step + pending.length) % pending.length];
      set({ selectedId: next?.id });
    },
  }));

  const subscriptions = [
    client.onDidConnect(() => void store.getState().refresh()),
    client.on('exec.approval.requested', (payload) => {
      const entry = toPendingApproval(payload);
      if (!entry) return;
      store.setState((s) => ({
        pending: [...s.pending.filter((p) => p.id !== entry.id), entry],
        selectedId: s.selectedId ?? entry.id,
      }));
    }),
    client.on('exec.approval.resolved', (payload) => {
      const { id } = payload;
      store.setState((s) => {
        const entry = s.pending.find((p) => p.id === id);
        const pending = s.pending.filter((p) => p.id !== id);
        const decided: DecidedApproval = {
          id,
          command: entry?.command ?? '',
          // allow-once remembered for the session reads as what the person chose.
          decision: payload.remember === 'session' ? 'allow-session' : payload.decision,
          resolvedBy: payload.resolvedBy || 'unknown',
          reason: payload.reason || undefined,
          ts: payload.ts,
        };
        return {
          pending,
          history: [decided, ...s.history].slice(0, 200),
          selectedId: s.selectedId === id ? pending[0]?.id : s.selectedId,
        };
      });
    }),
  ];
  return Object.assign(store, { dispose: () => disposeAll(subscriptions) });
}
