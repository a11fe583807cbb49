import { describe, expect, it } from 'vitest';
import { hasScope, holdsScopes, scopesNotHeld } from './scopes.js';

describe('holdsScopes: the ceiling of every grant', () => {
  it('expands what is held (admin ⇒ all, write ⇒ read) and names what is not', () => {
    expect(holdsScopes(['operator.admin'], ['operator.read', 'operator.pairing', 'operator.talk.secrets'])).toBe(true);
    expect(holdsScopes(['operator.write'], ['operator.read', 'operator.sessions.write'])).toBe(true);
    expect(scopesNotHeld(['operator.pairing'], ['operator.pairing', 'operator.admin', 'operator.read'])).toEqual([
      'operator.admin',
      'operator.read',
    ]);
    expect(holdsScopes(['operator.read'], [])).toBe(true);
  });

  it('treats a scope name Hearth does not know as held by admin only', () => {
    expect(holdsScopes(['operator.admin'], ['operator.future'])).toBe(true);
    expect(scopesNotHeld(['operator.write', 'operator.pairing'], ['operator.future'])).toEqual(['operator.future']);
    // A made-up name in what is *held* grants nothing.
    expect(holdsScopes(['operator.future'], ['operator.read'])).toBe(false);
  });
});

describe('hasScope: kept expansions never outlive a grant', () => {
  it('a grant that can still change is read afresh on every check', () => {
    const granted = ['operator.read'];
    expect(hasScope(granted, 'operator.write')).toBe(false);
    granted.push('operator.write');
    expect(hasScope(granted, 'operator.write')).toBe(true);
    granted.length = 0;
    expect(hasScope(granted, 'operator.read')).toBe(false);
  });

  it('a frozen grant answers the same as an unfrozen one, and cannot be widened in place', () => {
    const granted = Object.freeze(['operator.write']);
    expect(hasScope(granted, 'operator.sessions.write')).toBe(true);
    expect(hasScope(granted, 'operator.admin')).toBe(false);
    expect(() => (granted as string[]).push('operator.admin')).toThrow(TypeError);
    expect(hasScope(granted, 'operator.admin')).toBe(false);
  });
});
