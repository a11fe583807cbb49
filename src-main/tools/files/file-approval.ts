import type { ApprovalGate } from '../../exec/index.js';
import type { FileAccessDeps, FileAccessQuestion } from './file-access.js';

/** How long a person has to answer a file-tool question before it counts as "no". */
const FILE_APPROVAL_TIMEOUT_MS = 5 * 60_000;

/**
 * Asks through the approval system (the same requests, events, dialogs and `/approve` as
 * exec), as a command-like line `read '/etc/hosts'` so the person sees tool and path and the
 * service's own screen applies (a credential path becomes person-only). Answers: once, for this
 * session (the default for reads: allowing a read remembers it for the session), always for this
 * tool and path (a rule in the permission store, optionally until a date), or deny.
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
        subject: {
          kind: 'file',
          tool: question.tool,
          args: question.path,
          access: question.mode === 'read' ? 'read' : 'write',
        },
        // "Always" needs the permission store behind the gate to keep it.
        allowedDecisions: gate.permissions ? ['allow-once', 'allow-always', 'deny'] : ['allow-once', 'deny'],
        alwaysScopes: ['exact'],
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
