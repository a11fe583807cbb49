/**
 * Who a memory belongs to. Per-agent (the default) shares one memory among the agent's
 * users; per-user gives each resolved person their own folder `users/<userId>/` inside
 * the workspace, and every search, recall and Dreaming run is confined to one scope.
 */
export interface MemoryScope {
  /** `agent:<agentId>` or `user:<userId>`; stored on every indexed row. */
  id: string;
  /** Workspace-relative folder holding the scope's MEMORY.md and memory/ ('' for the agent). */
  root: string;
}

export interface ScopeSettings {
  scope: 'per-agent' | 'per-user';
  identityLinks: Record<string, string[]>;
}

const USER_ID = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/;

export function agentScope(agentId: string): MemoryScope {
  return { id: `agent:${agentId}`, root: '' };
}

export function userScope(userId: string): MemoryScope {
  if (!USER_ID.test(userId)) throw new Error(`invalid memory user id: ${JSON.stringify(userId)}`);
  return { id: `user:${userId}`, root: `users/${userId}` };
}

/** Maps an account (`telegram:123`) to the user it is linked to; unlinked accounts are their own user. */
export function resolveUserId(account: string, identityLinks: Record<string, string[]>): string {
  for (const [userId, accounts] of Object.entries(identityLinks)) {
    if (userId === account || accounts.includes(account)) return userId;
  }
  // An unlinked account becomes a user id of its own, made filesystem-safe.
  return account.replace(/[^A-Za-z0-9_.-]/g, '_').replace(/^[^A-Za-z0-9]+/, 'u') || 'unknown';
}

/**
 * The scope for a turn or a call. In per-user mode a missing user is an error rather than a
 * silent fall-back to the shared scope: that fall-back is how the reference leaked recalls.
 */
export function resolveScope(agentId: string, settings: ScopeSettings, account?: string): MemoryScope {
  if (settings.scope === 'per-agent') return agentScope(agentId);
  if (!account) throw new Error('memory scope is per-user but no user identity was given');
  return userScope(resolveUserId(account, settings.identityLinks));
}

/** The scope a workspace-relative path belongs to. */
export function scopeOfPath(path: string, agentId: string): MemoryScope {
  const match = /^users\/([^/]+)\//.exec(path);
  return match ? userScope(match[1]!) : agentScope(agentId);
}
