import { GatewayError, hasScope, holdsScopes, operatorScopes, scopesNotHeld } from '../../protocol/index.js';
import type { CallerIdentity } from '../caller.js';

/**
 * Who may give what (docs/GATEWAY.md "Scopes and pairing"). One rule for every method that
 * touches scopes, tokens, pairing or devices:
 *
 * - Ceiling: nobody grants, approves, rotates, revokes or issues a setup code for a scope it
 *   does not hold itself.
 * - A person: letting a device in (approving, issuing a setup code) is a person's act at
 *   the owner's own surface — never a paired device's token, never the device itself.
 * - Escalation: anything that widens what a device holds, or hands out operator.admin,
 *   needs operator.admin *and* a person.
 */
export type GrantAction = 'approve' | 'rotate' | 'revoke' | 'setup';

const verbs: Record<GrantAction, string> = {
  approve: 'approve',
  rotate: 'rotate a token to',
  revoke: 'revoke a token holding',
  setup: 'issue a setup code for',
};

function forbidden(message: string, code: string, extra: Record<string, unknown> = {}): GatewayError {
  return new GatewayError('FORBIDDEN', message, { code, ...extra });
}

/** The caller holds every scope it is about to give (or take away). */
export function assertHoldsScopes(caller: CallerIdentity, scopes: readonly string[], action: GrantAction): void {
  const missing = scopesNotHeld(caller.scopes, scopes);
  if (missing.length > 0) {
    throw forbidden(`cannot ${verbs[action]} scopes you do not hold: ${missing.join(', ')}`, 'SCOPE_NOT_HELD', {
      missingScopes: missing,
    });
  }
}

/** Letting a device in is done by a person, not by a device's own credential. */
export function assertPerson(caller: CallerIdentity, what: string): void {
  if (caller.person === true) return;
  throw forbidden(
    `${what} needs a person at this computer: the desktop app, \`hearth devices\` / \`hearth pair\`, or the Control UI it serves (a paired device's token cannot do it)`,
    'PERSON_REQUIRED',
  );
}

/** Granting admin or widening a device: operator.admin and a person. */
export function assertMayEscalate(caller: CallerIdentity, what: string): void {
  if (!hasScope(caller.scopes, 'operator.admin')) {
    throw forbidden(`${what} needs operator.admin`, 'MISSING_SCOPE', {
      missingScope: 'operator.admin',
      requiredScopes: ['operator.admin'],
    });
  }
  assertPerson(caller, what);
}

/** Every scope but admin: what a grant may contain without being an admin grant. */
const adminlessScopes = operatorScopes.filter((scope) => scope !== 'operator.admin');

/** True when `scopes` hands out admin: the scope itself, or a name only admin covers. */
export function grantsAdmin(scopes: readonly string[]): boolean {
  return scopesNotHeld(adminlessScopes, scopes).length > 0;
}

/** True when `next` gives a device something `current` (its token's scopes for the role, if any) does not. */
export function widens(current: readonly string[] | undefined, next: readonly string[]): boolean {
  return current === undefined || !holdsScopes(current, next);
}
