import { describe, expect, it } from 'vitest';
import { telegramChannel as telegram } from '../../extensions/telegram/telegram-channel.js';
import { checkHostSettings, splitChannelConfig, updateHostSettings } from './channel-settings.js';

// The host's keys of channels.<id>, checked with what only the plugin knows (its id shapes, its tools).

const settingsOf = (raw: Record<string, unknown>) => splitChannelConfig('telegram', raw, 'pairing').host;

describe('channel host settings', () => {
  it('defaults: no group allowlist, agentTools off', () => {
    expect(settingsOf({})).toMatchObject({ groups: { allowlist: [] }, agentTools: false });
  });

  it('refuses an allowFrom entry that is not a Telegram user id, naming it and where it is', () => {
    expect(() => checkHostSettings('telegram', telegram, settingsOf({ allowFrom: ['4242', '@olive'] }))).toThrow(
      'channels.telegram.allowFrom: "@olive" is not a numeric Telegram user id, such as 123456789',
    );
    try {
      checkHostSettings('telegram', telegram, settingsOf({ allowFrom: ['4242', '@olive'] }));
    } catch (error) {
      expect((error as { field?: string }).field).toBe('allowFrom[1]');
    }
    expect(() => checkHostSettings('telegram', telegram, settingsOf({ groups: { allowlist: ['12345'] } }))).toThrow(
      /groups\.allowlist: "12345" is not a Telegram group id \(negative\)/,
    );
    expect(() =>
      checkHostSettings('telegram', telegram, settingsOf({ allowFrom: [4242], groups: { allowlist: [-100123] } })),
    ).not.toThrow();
  });

  it('refuses an agentTools name the channel does not have, listing the ones it has', () => {
    expect(() => checkHostSettings('telegram', telegram, settingsOf({ agentTools: ['react', 'ban'] }))).toThrow(
      'channels.telegram.agentTools: Telegram has no tool "ban" (its tools: react, pin, members)',
    );
    expect(() => splitChannelConfig('telegram', { agentTools: 'yes' }, 'pairing')).toThrow(/agentTools/);
  });

  it('refuses a block or groups that is not an object, naming it, instead of guessing', () => {
    expect(() => splitChannelConfig('telegram', ['x'], 'pairing')).toThrow('channels.telegram must be an object');
    expect(() => updateHostSettings('telegram', telegram, { groups: 'ab' }, { groups: { enabled: false } })).toThrow(
      'channels.telegram.groups must be an object',
    );
    expect(
      updateHostSettings('telegram', telegram, { groups: { requireMention: false } }, { groups: { enabled: false } }),
    ).toEqual({ groups: { requireMention: false, enabled: false } });
  });
});
