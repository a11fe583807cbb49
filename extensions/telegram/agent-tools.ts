import { z } from 'zod';
import {
  type ChannelAgentTool,
  type ChannelAgentToolsAdapter,
  defineChannelAgentTool,
  messageInConversation,
} from '../../src-main/plugins/sdk/index.js';
import type { TelegramApi } from './telegram-api.js';

// The tools Telegram gives the model (`channels.telegram.agentTools`): react to a message, pin
// one, say who is in the group. Each acts on the conversation the host hands it, never a chat the
// model names (the inputs have no chat id; another chat's message id is refused).

const messageId = z
  .string()
  .min(1)
  .max(64)
  .optional()
  .describe("A message id in this chat; default: the person's last message");

export const telegramAgentTools: ChannelAgentToolsAdapter = {
  tools: [
    { name: 'react', description: 'React with an emoji to a message in this chat.' },
    { name: 'pin', description: 'Pin a message in this chat.' },
    { name: 'members', description: "Who is in this chat: the group's member count and administrators." },
  ],
};

interface ChatMember {
  status: string;
  user: { id: number; first_name?: string; username?: string; is_bot?: boolean };
  custom_title?: string;
}

const nameOf = (user: ChatMember['user']) =>
  `${user.first_name ?? 'someone'}${user.username ? ` (@${user.username})` : ''} [${user.id}]`;

/** The tools, bound to the account's Bot API client. */
export function createTelegramAgentTools(api: TelegramApi): ChannelAgentTool[] {
  const [react, pin, members] = telegramAgentTools.tools;
  return [
    defineChannelAgentTool({
      ...react!,
      description:
        "React with an emoji to a message in this chat (default: the person's last message). Telegram allows its standard reaction emoji, e.g. 👍 ❤ 🔥 🎉 👀 🙏.",
      inputSchema: z.object({ emoji: z.string().min(1).max(16), messageId }).strict(),
      async execute(input, conversation) {
        const chat = conversation.target.peerId;
        const id = messageInConversation(conversation, chat, input.messageId);
        await api.call('setMessageReaction', {
          chat_id: Number(chat),
          message_id: Number(id),
          reaction: [{ type: 'emoji', emoji: input.emoji }],
        });
        return `Reacted ${input.emoji} to message ${id}.`;
      },
    }),
    defineChannelAgentTool({
      ...pin!,
      description:
        "Pin a message in this chat (default: the person's last message); in a group the bot must be an admin.",
      inputSchema: z.object({ messageId, silent: z.boolean().optional().describe('Pin without notifying') }).strict(),
      async execute(input, conversation) {
        const chat = conversation.target.peerId;
        const id = messageInConversation(conversation, chat, input.messageId);
        await api.call('pinChatMessage', {
          chat_id: Number(chat),
          message_id: Number(id),
          disable_notification: input.silent ?? false,
        });
        return `Pinned message ${id}.`;
      },
    }),
    defineChannelAgentTool({
      ...members!,
      description:
        'Who is in this chat: in a group, its member count and administrators (Telegram does not let a bot list every member); in a direct chat, the person.',
      inputSchema: z.object({}).strict(),
      async execute(_input, conversation) {
        const chat = conversation.target.peerId;
        if (conversation.target.peerKind === 'direct')
          return `This is a direct chat with user ${conversation.senderId}.`;
        const [count, admins] = await Promise.all([
          api.call<number>('getChatMemberCount', { chat_id: Number(chat) }),
          api.call<ChatMember[]>('getChatAdministrators', { chat_id: Number(chat) }),
        ]);
        const lines = admins.map(
          (admin) => `- ${nameOf(admin.user)}: ${admin.status}${admin.custom_title ? ` "${admin.custom_title}"` : ''}`,
        );
        return [`${count} members. Administrators:`, ...lines].join('\n');
      },
    }),
  ];
}
