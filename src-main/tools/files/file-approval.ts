import type { ApprovalGate } from '../../exec/index.js';
import type { FileAccessDeps, FileAccessQuestion } from './file-access.js';

/** How long a person has to answer a file-tool question before it counts as "no". */
const FILE_APPROVAL_TIMEOUT_MS = 5 * 60_000;

/**
 * Asks through the approval system (the same requests, events, dialogs and `/approve` as
 * exec), as a command-like line `read '/etc/hosts'` so the person sees tool and path and the
 * service's own screen applies (a credential path becomes person-only). Only "allow once"
 * or "deny": an exec allowlist entry would mean nothing for a file tool.
 */
export function askThroughApprovals(gate: ApprovalGate): FileAccessDeps['ask'] {
  return async (question: FileAccessQuestion, signal: AbortSignal) => {
    const command = `${question.tool} ${shellQuote(question.path)}`;
    const resolution = await gate.request(
      {
        agentId: question.agentId,
        sessionKey: question.sessionKey,
        command,
        analysis: {
          commands: [{ name: question.tool, args: [question.path], via: [], source: command }],
          findings: [],
          parseError: false,
        },
        reasons: [
          {
            code: 'outside-workspace',
            detail: `the ${question.tool} tool would ${question.mode} ${question.path}, outside the agent's workspace`,
          },
        ],
        cwd: question.workspaceDir,
        askFallback: 'deny',
        allowlistSatisfied: false,
        allowedDecisions: ['allow-once', 'deny'],
        timeoutMs: FILE_APPROVAL_TIMEOUT_MS,
      },
      signal,
    );
    return resolution.decision === 'deny'
      ? { allowed: false, reason: resolution.reason ?? `denied by ${resolution.resolvedBy}` }
      : { allowed: true };
  };
}

function shellQuote(value: string): string {
  return /^[\w@%+=:,./-]+$/.test(value) ? value : `'${value.replace(/'/g, `'\\''`)}'`;
}
