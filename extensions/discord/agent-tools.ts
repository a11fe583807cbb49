import { z } from 'zod';
import {
  type ChannelAgentTool,
  type ChannelAgentToolsAdapter,
  type ChannelTarget,
  chatOfConversation,
  defineChannelAgentTool,
  messageInConversation,
} from '../../src-main/plugins/sdk/index.js';
import type { DiscordRest } from './discord-rest.js';

// The tools Discord gives the model (`channels.discord.agentTools`): react to a message, pin one,
// list the server's members. Each acts on the conversation the host hands it (its channel: the
// DM channel or the guild channel / thread the person wrote in), never one the model names.

const messageId = z
  .string()
  .min(1)
  .max(64)
  .optional()
  .describe("A message id in this channel; default: the person's last message");

export const discordAgentTools: ChannelAgentToolsAdapter = {
  tools: [
    { name: 'react', description: 'React with an emoji to a message in this channel.' },
    { name: 'pin', description: 'Pin a message in this channel.' },
    { name: 'members', description: "List the members of this channel's server (or the people of a DM)." },
  ],
};

interface DiscordUser {
  id: string;
  username?: string;
  global_name?: string | null;
  bot?: boolean;
}
interface GuildMember {
  user?: DiscordUser;
  nick?: string | null;
}

const nameOf = (user: DiscordUser, nick?: string | null) =>
  `${nick ?? user.global_name ?? user.username ?? 'someone'}${user.username ? ` (@${user.username})` : ''} [${user.id}]${user.bot ? ' (bot)' : ''}`;

/** Custom emoji as `name:id`; anything else is a unicode emoji, sent as is (URL-encoded). */
const emojiPath = (emoji: string) => encodeURIComponent(emoji.replace(/^<a?:([^:>]+:\d+)>$/, '$1'));

/** The tools, bound to the account's REST client; `channelOf` finds a target's channel (a DM's is opened). */
export function createDiscordAgentTools(
  rest: DiscordRest,
  channelOf: (target: ChannelTarget) => Promise<string>,
): ChannelAgentTool[] {
  const [react, pin, members] = discordAgentTools.tools;
  const channelOfConversation = async (conversation: Parameters<ChannelAgentTool['execute']>[1]) =>
    conversation.lastMessageId ? chatOfConversation(conversation, '') : channelOf(conversation.target);
  return [
    defineChannelAgentTool({
      ...react!,
      description:
        "React with an emoji to a message in this channel (default: the person's last message): a unicode emoji such as 👍, or a custom one as name:id.",
      inputSchema: z.object({ emoji: z.string().min(1).max(64), messageId }).strict(),
      async execute(input, conversation) {
        const channel = await channelOfConversation(conversation);
        const id = messageInConversation(conversation, channel, input.messageId);
        await rest.request('PUT', `/channels/${channel}/messages/${id}/reactions/${emojiPath(input.emoji)}/@me`);
        return `Reacted ${input.emoji} to message ${id}.`;
      },
    }),
    defineChannelAgentTool({
      ...pin!,
      description:
        "Pin a message in this channel (default: the person's last message); the bot needs the Manage Messages permission in a server.",
      inputSchema: z.object({ messageId }).strict(),
      async execute(input, conversation) {
        const channel = await channelOfConversation(conversation);
        const id = messageInConversation(conversation, channel, input.messageId);
        await rest.request('PUT', `/channels/${channel}/pins/${id}`);
        return `Pinned message ${id}.`;
      },
    }),
    defineChannelAgentTool({
      ...members!,
      description:
        "List the members of this channel's server, up to `limit` (needs the Server Members intent), or the people of a DM.",
      inputSchema: z.object({ limit: z.number().int().min(1).max(1000).optional() }).strict(),
      async execute(input, conversation) {
        const channel = await channelOfConversation(conversation);
        const info = await rest.request<{ guild_id?: string; recipients?: DiscordUser[] }>(
          'GET',
          `/channels/${channel}`,
        );
        if (!info.guild_id) {
          const people = info.recipients ?? [];
          return [`A direct message with ${people.length} ${people.length === 1 ? 'person' : 'people'}:`]
            .concat(people.map((user) => `- ${nameOf(user)}`))
            .join('\n');
        }
        const limit = input.limit ?? 100;
        const list = await rest.request<GuildMember[]>('GET', `/guilds/${info.guild_id}/members?limit=${limit}`);
        const lines = list.flatMap((member) => (member.user ? [`- ${nameOf(member.user, member.nick)}`] : []));
        return [`${lines.length} members${list.length === limit ? ` (the first ${limit})` : ''}:`, ...lines].join('\n');
      },
    }),
  ];
}
