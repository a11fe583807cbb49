import { describe, expect, it } from 'vitest';
import { accountOfSession, OWNER_ACCOUNT, personalFolders } from './session-person.js';

// Whose memory a session sees: a named chat is one of the owner's own chats, like the main session.

describe('who a session speaks for', () => {
  it('is the owner in the main session and in named chats, the person in a direct chat, no one in a group', () => {
    expect(accountOfSession('agent:main:main')).toBe(OWNER_ACCOUNT);
    expect(accountOfSession('agent:main:work-notes')).toBe(OWNER_ACCOUNT);
    expect(accountOfSession('agent:main:telegram:direct:42')).toBe('telegram:42');
    expect(accountOfSession('agent:main:discord:group:9')).toBeUndefined();
    expect(accountOfSession('agent:main:../x')).toBeUndefined();
  });

  it("gives a named chat the owner's folders under per-user memory", () => {
    const settings = { scope: 'per-user', identityLinks: {} } as const;
    expect(personalFolders('main', settings, 'agent:main:work-notes')).toEqual(
      personalFolders('main', settings, 'agent:main:main'),
    );
  });
});
