import type { Disposable, Logger } from '../base/index.js';
import type { ApprovalRequest } from '../exec/index.js';
import type { GatewayClient } from '../protocol/client/gateway-client.js';
import { readApprovalView } from '../protocol/client/read-approval-view.js';
import type { ExecApprovalView, ReceivedApprovalReason } from '../protocol/index.js';
import type { NativeApprovalPrompter } from './approval-dialog.js';

/** The part of the shell's gateway client this needs. */
export type ApprovalsClient = Pick<GatewayClient, 'on' | 'onDidConnect' | 'request'>;

/**
 * The native approval box for requests another machine's gateway raises while the desktop uses it:
 * its local prompter hears only this computer's gateway (in process), so without this a remote run
 * would wait on the inline card alone, unseen while the window is hidden. Each request the shell's
 * client hears (and each pending one at connect) gets the box and notification, naming the gateway;
 * the person's answer goes back as `exec.approval.resolve`. An answer from anywhere else first
 * (`exec.approval.resolved`) closes the box unanswered.
 */
export function promptRemoteApprovals(deps: {
  client: ApprovalsClient;
  prompter: Pick<NativeApprovalPrompter, 'promptFrom'>;
  /** The gateway's name as the corner menu shows it. */
  gateway: string;
  logger: Logger;
}): Disposable {
  const log = deps.logger.child({ component: 'remote-approvals' });
  const open = new Map<string, AbortController>();

  const ask = (payload: unknown) => {
    const view = readApprovalView(payload);
    if (!view || open.has(view.id)) return;
    const controller = new AbortController();
    open.set(view.id, controller);
    void deps.prompter
      .promptFrom(approvalRequestOf(view), controller.signal, deps.gateway)
      .then(async (answer) => {
        if (answer === undefined || controller.signal.aborted) return;
        const decided = typeof answer === 'string' ? { decision: answer } : answer;
        const session = 'remember' in decided && decided.remember === 'session';
        await deps.client.request('exec.approval.resolve', {
          id: view.id,
          decision: session ? 'allow-session' : decided.decision,
          ...('allowAlwaysScope' in decided && decided.allowAlwaysScope
            ? { allowAlwaysScope: decided.allowAlwaysScope }
            : {}),
        });
      })
      .catch((error: unknown) =>
        // Already answered elsewhere, or the gateway went away: the inline card says what happened.
        log.warn('could not answer a remote approval', { approvalId: view.id, error: String(error) }),
      )
      .finally(() => {
        if (open.get(view.id) === controller) open.delete(view.id);
      });
  };

  const subscriptions = [
    deps.client.on('exec.approval.requested', ask),
    deps.client.on('exec.approval.resolved', ({ id }) => open.get(id)?.abort()),
    deps.client.onDidConnect(() => {
      deps.client.request('exec.approval.list', {}).then(
        (rows) => {
          for (const row of rows) ask(row);
        },
        (error: unknown) => log.warn('could not list the remote approvals', { error: String(error) }),
      );
    }),
  ];
  return {
    dispose() {
      for (const subscription of subscriptions) subscription.dispose();
      for (const controller of open.values()) controller.abort();
      open.clear();
    },
  };
}

/**
 * The wire view as the box reads a request: the analysis read field by field, never trusted as is.
 * The other gateway's reason codes are taken as they come: one this build has no words for is
 * shown by its detail (the box's words check each code with isApprovalReasonCode).
 */
export function approvalRequestOf(view: ExecApprovalView<ReceivedApprovalReason>): ApprovalRequest {
  const analysis = (view.analysis ?? {}) as { commands?: unknown; parseError?: unknown };
  const commands = Array.isArray(analysis.commands)
    ? analysis.commands.flatMap((command: unknown) => {
        const name = (command as { name?: unknown })?.name;
        return typeof name === 'string' && name ? [{ name, args: [], via: [], source: name }] : [];
      })
    : [];
  return {
    id: view.id,
    agentId: view.agentId,
    sessionKey: view.sessionKey,
    command: view.command,
    cwd: view.cwd,
    ...(view.host ? { host: view.host } : {}),
    analysis: { commands, findings: [], parseError: analysis.parseError === true },
    reasons: view.reasons as ApprovalRequest['reasons'],
    createdAtMs: view.createdAtMs,
    expiresAtMs: view.expiresAtMs,
    allowedDecisions: view.allowedDecisions.filter(
      (decision): decision is ApprovalRequest['allowedDecisions'][number] => decision !== ('allow-session' as string),
    ),
    ...(view.allowSession !== undefined ? { allowSession: view.allowSession } : {}),
    ...(view.alwaysScopes ? { alwaysScopes: view.alwaysScopes } : {}),
    ...(view.risk ? { risk: view.risk as ApprovalRequest['risk'] } : {}),
  };
}
