import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ScopeSettings } from './session-person.js';
import {
  accountOfSession,
  memoryFlushTarget,
  OWNER_ACCOUNT,
  personalFolders,
  personalScope,
} from './session-person.js';

// Whose memory a session sees: a named chat is one of the owner's own chats, like the main session.
// The folders and flush targets below are what the bootstrap loader (agent/bootstrap) and
// compaction's flush (agent/context/compact-session) are handed; host/per-user-* keep one turn each.

const perUser = { scope: 'per-user', identityLinks: {} } as const;

describe('who a session speaks for', () => {
  it('is the owner in the main session and in named chats, the person in a direct chat, no one in a group', () => {
    expect(accountOfSession('agent:main:main')).toBe(OWNER_ACCOUNT);
    expect(accountOfSession('agent:main:work-notes')).toBe(OWNER_ACCOUNT);
    expect(accountOfSession('agent:main:telegram:direct:42')).toBe('telegram:42');
    expect(accountOfSession('agent:main:discord:group:9')).toBeUndefined();
    expect(accountOfSession('agent:main:../x')).toBeUndefined();
  });

  it("gives a named chat the owner's folders under per-user memory", () => {
    expect(personalFolders('main', perUser, 'agent:main:work-notes')).toEqual(
      personalFolders('main', perUser, 'agent:main:main'),
    );
  });

  it('gives a person their own folder, the owner the root files first, a group chat none (per-user)', () => {
    expect(personalFolders('main', perUser, 'agent:main:telegram:direct:1')).toEqual(['users/telegram_1']);
    expect(personalFolders('main', perUser, 'agent:main:telegram:direct:2')).toEqual(['users/telegram_2']);
    expect(personalFolders('main', perUser, 'agent:main:main')).toEqual(['', 'users/owner']);
    expect(personalFolders('main', perUser, 'agent:main:telegram:group:g1')).toEqual([]);
    // Per-agent memory: everyone shares the workspace root.
    expect(personalFolders('main', { scope: 'per-agent', identityLinks: {} }, 'agent:main:telegram:direct:1')).toEqual([
      '',
    ]);
  });

  it('maps linked accounts to one person, each person to their own recall scope', () => {
    const linked: ScopeSettings = {
      scope: 'per-user',
      identityLinks: { alice: ['telegram:alice'], bob: ['telegram:bob'] },
    };
    expect(personalScope('main', linked, 'agent:main:telegram:direct:alice')).toEqual({
      id: 'user:alice',
      root: 'users/alice',
    });
    expect(personalScope('main', linked, 'agent:main:telegram:direct:bob')?.id).toBe('user:bob');
    expect(personalScope('main', linked, 'agent:main:telegram:group:g1')).toBeUndefined();
  });

  it('flushes before compaction into the person’s folder, and nowhere for a group chat, saying why', () => {
    expect(memoryFlushTarget('/w', 'main', perUser, 'agent:main:telegram:direct:1')).toEqual({
      dir: join('/w', 'users/telegram_1'),
    });
    const group = memoryFlushTarget('/w', 'main', perUser, 'agent:main:telegram:group:g1');
    expect(group).toEqual({ skip: expect.stringContaining('per-user') });
  });
});
