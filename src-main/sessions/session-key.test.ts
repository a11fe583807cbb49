import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  buildPeerSessionKey,
  formatSessionKey,
  MAIN_SESSION_KEY,
  normalizeSessionKey,
  parseSessionKey,
  SessionKeyError,
} from './session-key.js';

describe('session keys', () => {
  it('reads "main" as the main agent main session', () => {
    expect(normalizeSessionKey('main')).toBe(MAIN_SESSION_KEY);
    expect(parseSessionKey('agent:ops:main')).toEqual({ kind: 'main', agentId: 'ops' });
  });

  it('round-trips every key shape', () => {
    const keys = [
      'agent:main:main',
      'agent:main:telegram:direct:12345',
      'agent:main:telegram:bot2:direct:12345',
      'agent:dev:direct:alice',
      'agent:dev:discord:group:987',
      'agent:main:subagent:3f2a',
      'agent:main:cron:daily-digest',
      'agent:main:work-notes',
      'agent:dev:chat-1a2b3c4d',
      'agent:main:读书笔记',
    ];
    for (const key of keys) expect(formatSessionKey(parseSessionKey(key))).toBe(key);
  });

  it('round-trips any peer id, channel and account (property)', () => {
    const part = fc.string({ minLength: 1, maxLength: 20 }).filter((s) => s.trim() === s && s !== '');
    fc.assert(
      fc.property(
        fc.constantFrom('main', 'dev', 'a-1'),
        fc.option(
          part.map((s) => s.toLowerCase()).filter((s) => s !== ''),
          { nil: undefined },
        ),
        fc.option(part, { nil: undefined }),
        fc.constantFrom('direct', 'group', 'channel'),
        part,
        (agentId, channel, accountId, peerKind, peerId) => {
          const key = { kind: 'peer', agentId, peerKind, peerId } as const;
          const full = { ...key, ...(channel !== undefined ? { channel } : {}) };
          const withAccount = channel !== undefined && accountId !== undefined ? { ...full, accountId } : full;
          expect(parseSessionKey(formatSessionKey(withAccount))).toEqual(withAccount);
        },
      ),
    );
  });

  it('keeps colons inside a peer id (Matrix ids) through a round trip', () => {
    const key = formatSessionKey({
      kind: 'peer',
      agentId: 'main',
      channel: 'matrix',
      peerKind: 'direct',
      peerId: '@me:example.org',
    });
    expect(key).toBe('agent:main:matrix:direct:@me%3Aexample.org');
    expect(parseSessionKey(key)).toMatchObject({ peerId: '@me:example.org', channel: 'matrix' });
  });

  it('normalizes channel case and surrounding spaces', () => {
    expect(normalizeSessionKey('  agent:main:Telegram:direct:42 ')).toBe('agent:main:telegram:direct:42');
  });

  it("reads OpenClaw's general shape agent:<agentId>:<label> as a named chat", () => {
    expect(parseSessionKey('agent:main:work-notes')).toEqual({ kind: 'named', agentId: 'main', label: 'work-notes' });
    expect(normalizeSessionKey(' agent:main:Work-Notes ')).toBe('agent:main:work-notes');
    expect(formatSessionKey({ kind: 'named', agentId: 'ops', label: 'Q3.plan' })).toBe('agent:ops:q3.plan');
  });

  it.each([
    ['agent:main:..', /session label "\.\." is not allowed/],
    ['agent:main:a..b', /not allowed/],
    ['agent:main:%2E%2E', /not allowed/],
    ['agent:main:a%2Fb', /not allowed/],
    ['agent:main:a%5Cb', /not allowed/],
    ['agent:main:a%00b', /not allowed/],
    ['agent:main:-x', /starting with a letter or digit/],
    ['agent:main:work notes', /not allowed/],
    ['agent:main:%3A', /not allowed/],
    [`agent:main:${'a'.repeat(129)}`, /longer than 128/],
    ['agent:main:cron', /reserved.*needs an id/],
    ['agent:main:direct', /reserved.*needs a peer id/],
    ['agent:main:Main', /reserved.*main session/],
    ['agent:main:work-notes:x', /unknown peer kind/],
  ])('refuses the label of %j, naming what is wrong', (key, message) => {
    expect(() => parseSessionKey(key)).toThrowError(SessionKeyError);
    expect(() => parseSessionKey(key)).toThrowError(/malformed session key/);
    expect(() => parseSessionKey(key)).toThrowError(message);
  });

  it('refuses to build a named key with a bad label', () => {
    expect(() => formatSessionKey({ kind: 'named', agentId: 'main', label: '../x' })).toThrowError(/not allowed/);
    expect(() => formatSessionKey({ kind: 'named', agentId: 'main', label: '' })).toThrowError(/label is empty/);
  });

  it.each([
    ['', /malformed session key/],
    ['session:main', /malformed session key/],
    ['agent:main', /malformed session key/],
    ['agent:Main:main', /invalid agent id "Main"/],
    ['agent:a b:main', /invalid agent id/],
    ['agent:main:telegram::42', /empty part/],
    ['agent:main:telegram:friend:42', /unknown peer kind "friend"/],
    ['agent:main:a:b:c:direct:42', /wrong number of parts/],
    ['agent:main:telegram:direct:%zz', /bad escape/],
  ])('rejects %j with a clear error', (key, message) => {
    expect(() => parseSessionKey(key)).toThrowError(SessionKeyError);
    expect(() => parseSessionKey(key)).toThrowError(message);
  });

  it('refuses to build keys with empty parts or an account without a channel', () => {
    expect(() => formatSessionKey({ kind: 'peer', agentId: 'main', peerKind: 'direct', peerId: '' })).toThrowError(
      /peerId is empty/,
    );
    expect(() =>
      formatSessionKey({ kind: 'peer', agentId: 'main', accountId: 'bot', peerKind: 'direct', peerId: 'x' }),
    ).toThrowError(/accountId needs a channel/);
    expect(() => formatSessionKey({ kind: 'main', agentId: '' })).toThrowError(/invalid agent id/);
  });

  describe('dmScope', () => {
    const dm = { channel: 'telegram', accountId: 'bot2', peerKind: 'direct' as const, peerId: '42' };
    it.each([
      ['main', 'agent:main:main'],
      ['per-peer', 'agent:main:direct:42'],
      ['per-channel-peer', 'agent:main:telegram:direct:42'],
      ['per-account-channel-peer', 'agent:main:telegram:bot2:direct:42'],
    ] as const)('%s puts a direct message in %s', (scope, key) => {
      expect(buildPeerSessionKey('main', dm, scope)).toBe(key);
    });

    it('defaults to per-channel-peer', () => {
      expect(buildPeerSessionKey('main', dm)).toBe('agent:main:telegram:direct:42');
    });

    it('gives groups their own session whatever the dmScope', () => {
      const group = { channel: 'discord', peerKind: 'group' as const, peerId: 'g1' };
      expect(buildPeerSessionKey('dev', group, 'main')).toBe('agent:dev:discord:group:g1');
    });

    it('names the default account when per-account scope has none', () => {
      expect(buildPeerSessionKey('main', { ...dm, accountId: undefined }, 'per-account-channel-peer')).toBe(
        'agent:main:telegram:default:direct:42',
      );
    });
  });
});
