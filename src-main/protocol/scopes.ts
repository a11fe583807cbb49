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

/** admin ⇒ all; write ⇒ read, talk, sessions.*; read ⇒ sessions.read. */
export function expandScopes(granted: readonly string[]): Set<Scope> {
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
