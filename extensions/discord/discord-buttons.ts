import type {
  ChannelButtonPress,
  ChannelButtonsAdapter,
  ChannelPrompt,
  ChannelTarget,
} from '../../src-main/plugins/sdk/index.js';
import { DISCORD_MAX_MESSAGE } from './discord-markdown.js';
import type { DiscordRest } from './discord-rest.js';
import type { ChannelOf } from './discord-stream.js';

// Prompts with buttons (approvals) as Discord message components
// (https://discord.com/developers/docs/interactions/message-components): an action row (type 1)
// of buttons (type 2) whose `custom_id` is `<promptId>:<buttonId>`. A press arrives over the
// Gateway as INTERACTION_CREATE (type 3 MESSAGE_COMPONENT) and must be answered within 3 s with
// POST /interactions/{id}/{token}/callback
// (https://discord.com/developers/docs/interactions/receiving-and-responding): here an ephemeral
// message (type 4, flag 64) only the presser sees, or type 6 (acknowledged, nothing shown).

const ComponentType = { actionRow: 1, button: 2 } as const;
const ButtonStyle = { primary: 1, secondary: 2, success: 3, danger: 4 } as const;
const InteractionType = { messageComponent: 3 } as const;
const Callback = { channelMessageWithSource: 4, deferredUpdateMessage: 6 } as const;
const EPHEMERAL = 1 << 6;
/** Discord's limits: 5 buttons per action row, 100 characters of custom_id, 80 of label. */
const MAX_BUTTONS_PER_ROW = 5;
const MAX_CUSTOM_ID = 100;
const MAX_LABEL = 80;

/** Mentions in a prompt never ping. */
const NO_PINGS = { parse: [] };

/** Text as Discord shows it literally: markdown characters escaped (a command is not formatting). */
export function escapeDiscordMarkdown(text: string): string {
  return text.replace(/[\\*_~`|[\]]/g, '\\$&').replace(/^(\s*)([>#-])/gm, '$1\\$2');
}

/** The action rows of a prompt: at most 5 buttons a row. */
export function promptComponents(prompt: ChannelPrompt): unknown[] {
  const buttons = prompt.buttons.map((button) => {
    const customId = `${prompt.promptId}:${button.id}`;
    if (customId.length > MAX_CUSTOM_ID)
      throw new Error(`button custom_id over ${MAX_CUSTOM_ID} characters: ${customId}`);
    return {
      type: ComponentType.button,
      style:
        button.style === 'danger'
          ? ButtonStyle.danger
          : button.style === 'primary'
            ? ButtonStyle.primary
            : ButtonStyle.secondary,
      label: button.label.slice(0, MAX_LABEL),
      custom_id: customId,
    };
  });
  const rows: unknown[] = [];
  for (let at = 0; at < buttons.length; at += MAX_BUTTONS_PER_ROW)
    rows.push({ type: ComponentType.actionRow, components: buttons.slice(at, at + MAX_BUTTONS_PER_ROW) });
  return rows;
}

/** The fields of an INTERACTION_CREATE the channel reads. */
export interface DiscordInteraction {
  id?: unknown;
  token?: unknown;
  type?: unknown;
  channel_id?: unknown;
  guild_id?: unknown;
  /** In a guild: the member, with its user; in a DM: `user`. */
  member?: { user?: { id?: unknown; username?: unknown; global_name?: unknown } };
  user?: { id?: unknown; username?: unknown; global_name?: unknown };
  data?: { custom_id?: unknown; component_type?: unknown };
  message?: { id?: unknown };
}

/**
 * A button press (an interaction on a prompt's component) as the host's press, or why it is not
 * one. `answer` responds to the interaction: the notice as an ephemeral message to the presser
 * alone, or without a notice a plain acknowledgement. `channelId` is where the prompt is (a DM's
 * peer is the person, so the DM channel is passed on to be remembered).
 */
export function normaliseInteraction(
  interaction: DiscordInteraction,
  rest: DiscordRest,
): { press: ChannelButtonPress; channelId: string } | { skip: string } {
  if (!interaction || typeof interaction !== 'object') return { skip: 'not an interaction' };
  const { id, token, channel_id: channelId } = interaction;
  if (interaction.type !== InteractionType.messageComponent)
    return { skip: `not a component interaction (type ${String(interaction.type)})` };
  if (typeof id !== 'string' || typeof token !== 'string' || typeof channelId !== 'string')
    return { skip: 'malformed interaction (no id, token or channel)' };
  const user = interaction.member?.user ?? interaction.user;
  const customId = interaction.data?.custom_id;
  const messageId = interaction.message?.id;
  if (typeof user?.id !== 'string') return { skip: 'interaction without a user' };
  if (typeof customId !== 'string' || typeof messageId !== 'string')
    return { skip: 'interaction without a custom_id or message' };
  const at = customId.lastIndexOf(':');
  if (at <= 0) return { skip: 'custom_id not from a prompt' };
  const inGuild = typeof interaction.guild_id === 'string';
  const target: ChannelTarget = inGuild
    ? { peerKind: 'group', peerId: channelId }
    : { peerKind: 'direct', peerId: user.id };
  let answered = false;
  return {
    channelId,
    press: {
      promptId: customId.slice(0, at),
      buttonId: customId.slice(at + 1),
      sender: {
        id: user.id,
        ...(typeof user.global_name === 'string' ? { name: user.global_name } : {}),
        ...(typeof user.username === 'string' ? { username: user.username } : {}),
      },
      target,
      messageId,
      answer: async (notice?: string) => {
        // An interaction takes one initial response; a second would be refused (40060).
        if (answered) return;
        answered = true;
        await rest.request(
          'POST',
          `/interactions/${id}/${token}/callback`,
          notice
            ? {
                type: Callback.channelMessageWithSource,
                data: { content: escapeDiscordMarkdown(notice), flags: EPHEMERAL, allowed_mentions: NO_PINGS },
              }
            : { type: Callback.deferredUpdateMessage },
        );
      },
    },
  };
}

/** The buttons adapter: a prompt is a message with components; settling it edits them away. */
export function discordButtons(rest: DiscordRest, channelOf: ChannelOf): ChannelButtonsAdapter {
  const content = (text: string) => escapeDiscordMarkdown(text).slice(0, DISCORD_MAX_MESSAGE);
  return {
    async sendPrompt(target, prompt) {
      const sent = await rest.request<{ id: string }>('POST', `/channels/${await channelOf(target)}/messages`, {
        content: content(prompt.text),
        allowed_mentions: NO_PINGS,
        components: promptComponents(prompt),
      });
      return { messageId: sent.id };
    },
    async settlePrompt(target, messageId, text) {
      // `components: []` takes the buttons away: a settled prompt cannot be pressed again.
      await rest.request('PATCH', `/channels/${await channelOf(target)}/messages/${messageId}`, {
        content: content(text),
        allowed_mentions: NO_PINGS,
        components: [],
      });
    },
  };
}
