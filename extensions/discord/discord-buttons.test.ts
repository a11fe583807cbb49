import { describe, expect, it } from 'vitest';
import { escapeDiscordMarkdown, normaliseInteraction, promptComponents } from './discord-buttons.js';
import { DiscordRest } from './discord-rest.js';

// Approval prompts as Discord components, and presses (interactions) as the host's presses. What
// is not a press of one of our prompts is skipped with a reason, never handed to the host.

const rest = new DiscordRest({
  baseUrl: 'http://127.0.0.1:9/api/v10',
  token: 'unused',
  fetch,
  signal: new AbortController().signal,
});
const prompt = {
  promptId: 'ABC234',
  text: 'Approval needed',
  buttons: [
    { id: 'once', label: 'Allow once', style: 'primary' as const },
    { id: 'always', label: 'Always', style: 'primary' as const },
    { id: 'deny', label: 'Deny', style: 'danger' as const },
  ],
};
const press = {
  id: '1300000000000000001',
  token: 'aW50ZXJhY3Rpb24',
  type: 3,
  channel_id: '1200000000000000009',
  data: { custom_id: 'ABC234:once', component_type: 2 },
  message: { id: '1200000000000000010' },
};

describe('Discord approval prompts', () => {
  it('are one action row of buttons: primary for allowing, danger for denying, custom_id prompt:button', () => {
    expect(promptComponents(prompt)).toEqual([
      {
        type: 1,
        components: [
          { type: 2, style: 1, label: 'Allow once', custom_id: 'ABC234:once' },
          { type: 2, style: 1, label: 'Always', custom_id: 'ABC234:always' },
          { type: 2, style: 4, label: 'Deny', custom_id: 'ABC234:deny' },
        ],
      },
    ]);
    const many = { ...prompt, buttons: Array.from({ length: 7 }, (_, i) => ({ id: `b${i}`, label: `B${i}` })) };
    expect(promptComponents(many).map((row) => (row as { components: unknown[] }).components.length)).toEqual([5, 2]);
    expect(() => promptComponents({ ...prompt, promptId: 'x'.repeat(100) })).toThrow(/custom_id over 100/);
  });

  it('show a command literally: markdown characters are escaped', () => {
    expect(escapeDiscordMarkdown('rm **/*.tmp && echo `hi` | tee a_b')).toBe(
      'rm \\*\\*/\\*.tmp && echo \\`hi\\` \\| tee a\\_b',
    );
    expect(escapeDiscordMarkdown('> quoted\n# heading\n- item')).toBe('\\> quoted\n\\# heading\n\\- item');
  });
});

describe('Discord interactions as presses', () => {
  it('takes a DM press with the person as the peer, and a guild press in its channel', () => {
    const dm = normaliseInteraction({ ...press, user: { id: '42', username: 'olive', global_name: 'Olive' } }, rest);
    expect(dm).toMatchObject({
      channelId: press.channel_id,
      press: {
        promptId: 'ABC234',
        buttonId: 'once',
        sender: { id: '42', name: 'Olive', username: 'olive' },
        target: { peerKind: 'direct', peerId: '42' },
        messageId: press.message.id,
      },
    });
    const guild = normaliseInteraction(
      { ...press, guild_id: '9', member: { user: { id: '43', username: 'fred' } } },
      rest,
    );
    expect(guild).toMatchObject({
      press: { sender: { id: '43' }, target: { peerKind: 'group', peerId: press.channel_id } },
    });
  });

  it('skips what is not a press of a prompt, saying why', () => {
    const user = { id: '42', username: 'olive' };
    const skipped = (interaction: Record<string, unknown>) =>
      (normaliseInteraction(interaction, rest) as { skip?: string }).skip;
    expect(skipped({ ...press, user, type: 2 })).toMatch(/not a component interaction/);
    expect(skipped({ ...press, user, token: undefined })).toMatch(/malformed/);
    expect(skipped({ ...press })).toMatch(/without a user/);
    expect(skipped({ ...press, user, data: { custom_id: 'someone-else' } })).toMatch(/not from a prompt/);
    expect(skipped({ ...press, user, message: undefined })).toMatch(/without a custom_id or message/);
    expect(skipped(null as unknown as Record<string, unknown>)).toMatch(/not an interaction/);
  });
});
