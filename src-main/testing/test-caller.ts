import type { CallerIdentity } from '../gateway/caller.js';

/** An operator connection with the given scopes, for dispatching through a real MethodRegistry in tests. */
export function testCaller(scopes: string[], overrides: Partial<CallerIdentity> = {}): CallerIdentity {
  return {
    connId: 'c1',
    role: 'operator',
    scopes,
    clientId: 'test',
    clientMode: 'ui',
    authMethod: 'token',
    isLocal: true,
    caps: [],
    ...overrides,
  };
}
