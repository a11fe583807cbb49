import type { ApprovalGate } from '../../exec/index.js';

/** A browser action that may change something on a site: typing into it, choosing, clicking. */
export interface BrowserActionQuestion {
  agentId: string;
  sessionKey: string;
  workspaceDir: string;
  action: 'click' | 'type' | 'select';
  /** The site acted on (`shop.example.com`); what "for this chat" and "always" remember. */
  site: string;
  url: string;
  /** What the model asked for, for the person: `click e8`, `type "Ada" into e5`. */
  detail: string;
}

export type AskBrowserAction = (
  question: BrowserActionQuestion,
  signal: AbortSignal,
) => Promise<{ allowed: true } | { allowed: false; reason: string }>;

/** How long a person has to answer before it counts as "no". */
const BROWSER_APPROVAL_TIMEOUT_MS = 5 * 60_000;

/**
 * Asks through the one approval system (the same queue, dialogs, channels and `/approve` as exec):
 * a click, a typed text or a choice can submit a form, buy, post or delete on a site, so the first
 * one on a site in a chat asks. "Allow for this chat" remembers the site for the session;
 * "always" keeps it as a rule (optionally until a date); reading a page (open, snapshot, extract,
 * wait) never asks.
 */
export function askThroughApprovals(gate: ApprovalGate): AskBrowserAction {
  return async (question, signal) => {
    const command = `browser ${question.action} on ${question.site}`;
    const resolution = await gate.request(
      {
        agentId: question.agentId,
        sessionKey: question.sessionKey,
        command,
        analysis: {
          commands: [{ name: 'browser', args: [question.action, question.site], via: [], source: command }],
          findings: [],
          parseError: false,
        },
        reasons: [
          {
            code: 'browser-action',
            detail: `the browser would ${question.detail} on ${question.url}; acting on a page can submit, buy or post there`,
          },
        ],
        cwd: question.workspaceDir,
        askFallback: 'deny',
        allowlistSatisfied: false,
        subject: { kind: 'network', tool: 'browser', args: question.site, access: 'write' },
        allowedDecisions: gate.permissions ? ['allow-once', 'allow-always', 'deny'] : ['allow-once', 'deny'],
        alwaysScopes: ['exact'],
        timeoutMs: BROWSER_APPROVAL_TIMEOUT_MS,
      },
      signal,
    );
    return resolution.decision === 'deny'
      ? { allowed: false, reason: resolution.reason ?? `denied by ${resolution.resolvedBy}` }
      : { allowed: true };
  };
}
