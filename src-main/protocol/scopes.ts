// Roles and scopes (PROTOCOL.md §5).

export const operatorScopes = [
  'operator.read',
  'operator.write',
  'operator.admin',
  'operator.approvals',
  'operator.questions',
  'operator.pairing',
  'operator.talk',
  'operator.talk.secrets',
  'operator.sessions.read',
  'operator.sessions.write',
] as const;
export type Scope = (typeof operatorScopes)[number];

export type Role = 'operator' | 'node';

export function isScope(value: string): value is Scope {
  return (operatorScopes as readonly string[]).includes(value);
}

// A connection's scopes are one frozen array for its life, and every event fanned out checks them:
// the expansion of a frozen array is kept (one that can still change is expanded every time).
const expandedByGrant = new WeakMap<readonly string[], ReadonlySet<Scope>>();

/** admin ⇒ all; write ⇒ read, talk, sessions.*; read ⇒ sessions.read. */
export function expandScopes(granted: readonly string[]): ReadonlySet<Scope> {
  const known = expandedByGrant.get(granted);
  if (known) return known;
  const out = new Set<Scope>();
  const add = (scope: Scope) => out.add(scope);
  for (const scope of granted) {
    if (!isScope(scope)) continue;
    add(scope);
    if (scope === 'operator.admin') for (const s of operatorScopes) add(s);
    if (scope === 'operator.write') {
      add('operator.read');
      add('operator.talk');
      add('operator.sessions.read');
      add('operator.sessions.write');
    }
    if (scope === 'operator.read') add('operator.sessions.read');
  }
  if (Object.isFrozen(granted)) expandedByGrant.set(granted, out);
  return out;
}

export function hasScope(granted: readonly string[], required: Scope): boolean {
  return expandScopes(granted).has(required);
}

/** Every scope an operator with full rights holds; what a trusted local window gets. */
export const fullOperatorScopes: Scope[] = [
  'operator.admin',
  'operator.read',
  'operator.write',
  'operator.approvals',
  'operator.pairing',
];

/**
 * The scopes of `wanted` that `held` does not cover (after expansion). A name Hearth does
 * not know is covered only by `operator.admin`, which stands for every scope there is.
 */
export function scopesNotHeld(held: readonly string[], wanted: readonly string[]): string[] {
  const expanded = expandScopes(held);
  const isAdmin = expanded.has('operator.admin');
  return [...new Set(wanted)].filter((scope) => (isScope(scope) ? !expanded.has(scope) : !isAdmin));
}

/** True when `held` covers every scope of `wanted`: the ceiling for any grant, approval or rotation. */
export function holdsScopes(held: readonly string[], wanted: readonly string[]): boolean {
  return scopesNotHeld(held, wanted).length === 0;
}
