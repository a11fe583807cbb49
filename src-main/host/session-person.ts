import { join } from 'node:path';
import type { MemoryFlushTarget } from '../agent/context/index.js';
import { type MemoryConfig, type MemoryScope, resolveScope } from '../memory/index.js';
import { OWNER_USER_ID } from '../protocol/methods/memory.js';
import { parseSessionKey } from '../sessions/index.js';

/** The part of `memory` config that decides whose memory a session sees. */
export type ScopeSettings = Pick<MemoryConfig, 'scope' | 'identityLinks'>;

/** The account an agent's own main session speaks for: whoever runs Hearth. */
export const OWNER_ACCOUNT = OWNER_USER_ID;

/**
 * Who a session speaks for, for per-user memory: the owner in an agent's main session and named chats, the person
 * in a direct chat (`telegram:42`). In a group the speaker is not known per message, so no one:
 * per-user memory then refuses rather than guess.
 */
export function accountOfSession(sessionKey: string): string | undefined {
  try {
    const parsed = parseSessionKey(sessionKey);
    // A named chat (agent:main:work-notes) is one of the owner's own parallel chats.
    if (parsed.kind === 'main' || parsed.kind === 'named') return OWNER_ACCOUNT;
    if (parsed.kind === 'peer' && parsed.peerKind === 'direct') return `${parsed.channel ?? 'direct'}:${parsed.peerId}`;
  } catch {
    // An unparseable key has no identity.
  }
  return undefined;
}

/**
 * The memory scope of a session's person, or undefined when per-user memory has no person for it
 * (a group chat, an id that cannot be a folder name). Per-agent memory always has the agent's scope.
 */
export function personalScope(agentId: string, settings: ScopeSettings, sessionKey: string): MemoryScope | undefined {
  try {
    return resolveScope(agentId, settings, accountOfSession(sessionKey));
  } catch {
    return undefined;
  }
}

/**
 * Workspace-relative folders whose USER.md and MEMORY.md go into a session's system prompt.
 * Per-agent memory: the workspace root. Per-user: the person's `users/<id>`, and for the owner's
 * own main session the root files first (the owner wrote them); another person never sees the root
 * files or anyone else's, and a session with no known person gets none. Fixed per session key, so
 * the prompt stays byte-stable turn to turn.
 */
export function personalFolders(agentId: string, settings: ScopeSettings, sessionKey: string): string[] {
  if (settings.scope === 'per-agent') return [''];
  const scope = personalScope(agentId, settings, sessionKey);
  if (!scope) return [];
  return accountOfSession(sessionKey) === OWNER_ACCOUNT ? ['', scope.root] : [scope.root];
}

/** Where compaction writes a session's durable facts: its person's folder (per-user) or the workspace. */
export function memoryFlushTarget(
  workspaceDir: string,
  agentId: string,
  settings: ScopeSettings,
  sessionKey: string,
): MemoryFlushTarget {
  const scope = personalScope(agentId, settings, sessionKey);
  if (!scope) {
    return {
      skip: 'memory is per-user and this session speaks for no known person (a group chat?); nothing is flushed',
    };
  }
  return { dir: join(workspaceDir, scope.root) };
}
