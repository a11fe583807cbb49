import type { AlwaysScope, ApprovalAnswer, ApprovalRequest } from './approval-types.js';

/**
 * The answers a surface without the Control UI's card offers (the desktop's native dialog, a
 * channel's buttons), in the order shown: the same choices as the inline card. "Always" comes
 * once per scope the request allows, so "in this folder" is there too; a destructive request
 * offers only the narrow scopes (the service decides them, alwaysScopesFor) and puts Deny first.
 */
export type ApprovalChoice =
  | { kind: 'once' }
  | { kind: 'session' }
  | { kind: 'always'; scope?: AlwaysScope }
  | { kind: 'deny' };

type ChoiceRequest = Pick<ApprovalRequest, 'allowedDecisions' | 'allowSession' | 'alwaysScopes' | 'risk'>;

export const isDestructive = (request: Pick<ApprovalRequest, 'risk'>) => request.risk?.level === 'destructive';

export function approvalChoices(request: ChoiceRequest): ApprovalChoice[] {
  const allows: ApprovalChoice[] = [];
  if (request.allowedDecisions.includes('allow-once')) {
    allows.push({ kind: 'once' });
    if (request.allowSession) allows.push({ kind: 'session' });
  }
  if (request.allowedDecisions.includes('allow-always')) {
    const scopes = request.alwaysScopes ?? [];
    // One scope (or a request from before scopes): a single "Always", which takes the default.
    if (scopes.length <= 1) allows.push({ kind: 'always', ...(scopes[0] ? { scope: scopes[0] } : {}) });
    else for (const scope of scopes) allows.push({ kind: 'always', scope });
  }
  // Declining is always possible, even where the request lists no deny.
  const deny: ApprovalChoice = { kind: 'deny' };
  return isDestructive(request) ? [deny, ...allows] : [...allows, deny];
}

/** Several "Always" choices: each needs its scope in its label, else one "Always" says it all. */
export const scopesNamed = (choices: readonly ApprovalChoice[]) =>
  choices.filter((choice) => choice.kind === 'always').length > 1;

/** A short English name of a scope, for a button ("Always: in this folder"). */
export const SCOPE_SHORT: Record<AlwaysScope, string> = {
  binary: 'any arguments',
  exact: 'exactly this',
  folder: 'in this folder',
  tool: 'this tool',
  server: 'this server',
};

/** What "Always" with `scope` allows from then on, in a sentence (the dialog's detail, a channel's text). */
export function scopeSentence(scope: AlwaysScope, request: Pick<ApprovalRequest, 'cwd'>): string {
  switch (scope) {
    case 'binary':
      return 'any use of the program, with any arguments';
    case 'exact':
      return 'this exact command, anywhere';
    case 'folder':
      return `this exact command, only in ${request.cwd} and the folders under it`;
    case 'tool':
      return 'this tool, with any input';
    case 'server':
      return "every tool of this tool's server";
  }
}

/** The answer a choice gives the approval service. */
export function answerOf(choice: ApprovalChoice): Omit<ApprovalAnswer, 'resolvedBy'> {
  switch (choice.kind) {
    case 'once':
      return { decision: 'allow-once' };
    case 'session':
      return { decision: 'allow-once', remember: 'session' };
    case 'always':
      return { decision: 'allow-always', ...(choice.scope ? { allowAlwaysScope: choice.scope } : {}) };
    case 'deny':
      return { decision: 'deny' };
  }
}
