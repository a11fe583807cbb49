import { type Disposable, DisposableStore } from '../../base/disposable.js';
import { type AnalysisSummary, type ApprovalService, approvalView } from '../../exec/index.js';
import { GatewayError } from '../../protocol/index.js';
import type { ExecApprovalView } from '../../protocol/methods/exec.js';
import type { CallerIdentity } from '../caller.js';
import type { MethodRouter } from '../method-router.js';

export interface ExecMethodsDeps {
  approvals: ApprovalService;
  /** Analysis for requests that arrive over the wire (from another host or a node). */
  describe(command: string, cwd: string): AnalysisSummary;
  /** Where a wire request runs when it names no cwd. */
  defaultCwd: string;
}

/** `exec.approval.*`: the wire face of the ApprovalService (PROTOCOL.md §7). */
export function registerExecMethods(router: MethodRouter, deps: ExecMethodsDeps): Disposable {
  const store = new DisposableStore();
  const { approvals } = deps;

  store.add(
    router.handle('exec.approval.request', async (params, call) => {
      const cwd = params.cwd ?? deps.defaultCwd;
      // The floor first: a floor command is denied even when nobody could be asked, and never
      // becomes a request (the service would refuse it too; this answers with the codes).
      const agentId = params.agentId ?? 'main';
      const sessionKey = params.sessionKey ?? `wire:${call.caller.connId}`;
      const loading = approvals.ready(); // the bash parser loads on the first command
      if (loading) await loading;
      const refused = approvals.refusal({ agentId, sessionKey, command: params.command, cwd });
      if (refused)
        return {
          id: '',
          decision: 'deny' as const,
          resolvedBy: refused.resolvedBy,
          reasons: refused.floor ?? [],
          createdAtMs: refused.resolvedAtMs,
          expiresAtMs: refused.resolvedAtMs,
        };
      // No one to ask: answer null at once rather than wait for the expiry.
      if (!approvals.hasApprovers()) {
        return { id: '', decision: null, createdAtMs: 0, expiresAtMs: 0 };
      }
      const analysis = deps.describe(params.command, cwd);
      const resolution = await approvals.request(
        {
          agentId,
          sessionKey,
          command: params.command,
          analysis,
          // The person sees what the analyser found, with codes, not only who asked.
          reasons: [
            { code: 'wire-request', detail: `requested by ${callerName(call.caller)}` },
            ...analysis.findings.map(({ code, detail }) => ({ code, detail })),
          ],
          cwd,
          ...(params.host ? { host: params.host } : {}),
          askFallback: 'deny',
          allowlistSatisfied: false,
          ...(params.timeoutMs ? { timeoutMs: params.timeoutMs } : {}),
        },
        call.signal,
        (request) => {
          if (params.twoPhase) call.acknowledge({ status: 'accepted', id: request.id, deliveryRoute: 'gateway' });
        },
      );
      const view = approvals.get(resolution.id);
      return {
        id: resolution.id,
        decision: resolution.decision,
        resolvedBy: resolution.resolvedBy,
        createdAtMs: view?.request.createdAtMs ?? resolution.resolvedAtMs,
        expiresAtMs: view?.request.expiresAtMs ?? resolution.resolvedAtMs,
      };
    }),
  );

  store.add(
    router.handle('exec.approval.list', () =>
      approvals.list().map((request): ExecApprovalView => approvalView(request)),
    ),
  );

  store.add(
    router.handle('exec.approval.get', ({ id }) => {
      const found = approvals.get(id);
      if (!found)
        throw new GatewayError('INVALID_REQUEST', 'unknown or expired approval id', {
          reason: 'APPROVAL_NOT_FOUND',
          id,
        });
      return {
        ...approvalView(found.request),
        status: found.resolution ? ('resolved' as const) : ('pending' as const),
        ...(found.resolution ? { resolution: found.resolution } : {}),
      };
    }),
  );

  store.add(
    router.handle('exec.approval.resolve', ({ id, decision, note, allowAlwaysScope, until }, call) => {
      // `allow-session` is allow-once remembered for the session, so OpenClaw's three keep their meaning.
      const session = decision === 'allow-session';
      approvals.answer(id, {
        decision: session ? 'allow-once' : decision,
        resolvedBy: `operator:${callerName(call.caller)}`,
        ...(note ? { reason: note } : {}),
        ...(session ? { remember: 'session' as const } : {}),
        ...(allowAlwaysScope ? { allowAlwaysScope } : {}),
        ...(until !== undefined ? { untilMs: untilMs(until) } : {}),
      });
      return { ok: true as const };
    }),
  );

  return store;
}

/** An ISO date (a bare day means the end of it, UTC) or epoch ms. */
function untilMs(until: string | number): number {
  if (typeof until === 'number') return until;
  return /^\d{4}-\d{2}-\d{2}$/.test(until) ? Date.parse(`${until}T23:59:59.999Z`) : Date.parse(until);
}

function callerName(caller: CallerIdentity): string {
  return `${caller.displayName ?? caller.clientId}(${caller.connId})`;
}
