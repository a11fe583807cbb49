import { z } from 'zod';
import type { ApprovalDecisionName } from '../events.js';
import type { AllowlistEntryView, AlwaysScopeName, ExecApprovalView, ReceivedApprovalReason } from '../methods/exec.js';

// A client shows approvals from whichever gateway it is connected to: this one sends every field
// of ExecApprovalView; an older Hearth left some out; an OpenClaw-style one sends only PROTOCOL.md
// §7's nested `request{command, cwd, host, allowedDecisions}`. One reader turns all of them into
// the typed view, so the stores read fields, not loose JSON. A field that is missing or malformed
// is left out (or empty); only a request without an id or a command cannot be answered at all.

const text = z.string().optional().catch(undefined);
const count = z.number().finite().optional().catch(undefined);
const decisions: readonly ApprovalDecisionName[] = ['allow-once', 'allow-always', 'deny'];
const scopes: readonly AlwaysScopeName[] = ['binary', 'exact', 'folder', 'tool', 'server'];

/** The members of a list that are one of `allowed`, in order (anything else is dropped). */
const oneOf = <T extends string>(allowed: readonly T[]) =>
  z
    .array(z.unknown())
    .optional()
    .catch(undefined)
    .transform((items) => items?.filter((item): item is T => allowed.includes(item as T)));

const entries = z
  .array(z.unknown())
  .optional()
  .catch(undefined)
  .transform((items) =>
    items?.flatMap((item): AllowlistEntryView[] => {
      const entry = z.object({ pattern: z.string().min(1), argPattern: text, cwdWithin: text }).safeParse(item);
      if (!entry.success) return [];
      const { pattern, argPattern, cwdWithin } = entry.data;
      return [{ pattern, ...(argPattern ? { argPattern } : {}), ...(cwdWithin ? { cwdWithin } : {}) }];
    }),
  );

/** Reasons are `{code, detail}`; older senders used plain strings or `message`. */
const reasons = z
  .array(z.unknown())
  .catch([])
  .transform((items) =>
    items.flatMap((item) => {
      if (typeof item === 'string') return item ? [{ code: '', detail: item }] : [];
      const reason = z.object({ code: text, detail: text, message: text }).safeParse(item);
      if (!reason.success) return [];
      const { code = '', detail, message } = reason.data;
      const said = detail || message || code;
      return said ? [{ code, detail: said }] : [];
    }),
  );

const subject = z
  .object({
    kind: z.enum(['exec', 'mcp', 'file', 'network']),
    tool: z.string().catch(''),
    server: text,
    args: z.string().catch(''),
    access: z.string().catch(''),
  })
  .optional()
  .catch(undefined);

/** The exec risk grade; a grade this client does not know reads as `caution`, never as `safe`. */
const risk = z
  .object({
    level: z.enum(['safe', 'caution', 'destructive']).catch('caution'),
    because: reasons,
    writes: z.array(z.string()).catch([]),
    network: z.boolean().catch(false),
  })
  .optional()
  .catch(undefined);

const received = z.object({
  id: z.string().min(1),
  agentId: text,
  sessionKey: text,
  command: text,
  cwd: text,
  host: text,
  analysis: z.unknown().optional(),
  reasons,
  allowedDecisions: oneOf(decisions),
  createdAtMs: count,
  expiresAtMs: count,
  subject,
  allowSession: z.boolean().optional().catch(undefined),
  alwaysScopes: oneOf(scopes),
  suggested: z.enum(['once', 'session']).optional().catch(undefined),
  waiting: count,
  allowAlways: entries,
  allowAlwaysExact: entries,
  allowAlwaysFolder: entries,
  risk,
  request: z
    .object({ command: text, cwd: text, host: text, allowedDecisions: oneOf(decisions) })
    .catch({ command: undefined, cwd: undefined, host: undefined, allowedDecisions: undefined }),
});

/**
 * An `exec.approval.requested` payload or an `exec.approval.list` row as the typed view, with the
 * top-level fields filled from the §7 `request` where only it has them; `undefined` when it names
 * no id or no command.
 */
export function readApprovalView(value: unknown): ExecApprovalView<ReceivedApprovalReason> | undefined {
  const parsed = received.safeParse(value);
  if (!parsed.success) return undefined;
  const { request, ...row } = parsed.data;
  const command = row.command || request.command;
  if (!command) return undefined;
  const cwd = row.cwd || request.cwd || '';
  const host = row.host || request.host;
  const allowedDecisions = row.allowedDecisions ?? request.allowedDecisions ?? [];
  const {
    subject,
    allowSession,
    alwaysScopes,
    suggested,
    waiting,
    allowAlways,
    allowAlwaysExact,
    allowAlwaysFolder,
    risk,
  } = row;
  return {
    id: row.id,
    agentId: row.agentId ?? '',
    sessionKey: row.sessionKey ?? '',
    command,
    cwd,
    ...(host !== undefined ? { host } : {}),
    analysis: row.analysis,
    reasons: row.reasons,
    allowedDecisions,
    createdAtMs: row.createdAtMs ?? 0,
    expiresAtMs: row.expiresAtMs ?? 0,
    ...(subject ? { subject } : {}),
    ...(allowSession !== undefined ? { allowSession } : {}),
    ...(alwaysScopes ? { alwaysScopes } : {}),
    ...(suggested ? { suggested } : {}),
    ...(waiting !== undefined ? { waiting } : {}),
    ...(allowAlways ? { allowAlways } : {}),
    ...(allowAlwaysExact ? { allowAlwaysExact } : {}),
    ...(allowAlwaysFolder ? { allowAlwaysFolder } : {}),
    ...(risk ? { risk } : {}),
    request: { command, cwd, host: host ?? '', allowedDecisions },
  };
}
