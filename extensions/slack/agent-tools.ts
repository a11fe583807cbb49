import { z } from 'zod';
import {
  type ChannelAgentTool,
  type ChannelAgentToolsAdapter,
  type ChannelTarget,
  chatOfConversation,
  defineChannelAgentTool,
  messageInConversation,
} from '../../src-main/plugins/sdk/index.js';
import type { SlackApi } from './slack-api.js';

// The tools Slack gives the model (`channels.slack.agentTools`): react to a message, pin one,
// list the members of the conversation. Each acts on the conversation the host hands it (the DM
// or channel the person wrote in), never one the model names.

const messageTs = z
  .string()
  .min(1)
  .max(64)
  .optional()
  .describe("A message's ts in this conversation; default: the person's last message");

export const slackAgentTools: ChannelAgentToolsAdapter = {
  tools: [
    { name: 'react', description: 'Add an emoji reaction to a message in this conversation.' },
    { name: 'pin', description: 'Pin a message in this conversation.' },
    { name: 'members', description: 'List the members of this conversation.' },
  ],
};

/** The tools, bound to the account's Web API client; `channelOf` is a target's conversation id. */
export function createSlackAgentTools(api: SlackApi, channelOf: (target: ChannelTarget) => string): ChannelAgentTool[] {
  const [react, pin, members] = slackAgentTools.tools;
  const conversationOf = (conversation: Parameters<ChannelAgentTool['execute']>[1]) =>
    chatOfConversation(conversation, channelOf(conversation.target));
  return [
    defineChannelAgentTool({
      ...react!,
      description:
        "Add an emoji reaction to a message in this conversation (default: the person's last message), by the emoji's Slack name such as thumbsup, eyes or white_check_mark.",
      inputSchema: z
        .object({ emoji: z.string().min(1).max(100).describe('Slack emoji name, without colons'), messageTs })
        .strict(),
      async execute(input, conversation) {
        const channel = conversationOf(conversation);
        const ts = messageInConversation(conversation, channel, input.messageTs);
        const name = input.emoji.replace(/^:|:$/g, '');
        await api.call('reactions.add', { channel, timestamp: ts, name });
        return `Reacted :${name}: to message ${ts}.`;
      },
    }),
    defineChannelAgentTool({
      ...pin!,
      description: "Pin a message in this conversation (default: the person's last message).",
      inputSchema: z.object({ messageTs }).strict(),
      async execute(input, conversation) {
        const channel = conversationOf(conversation);
        const ts = messageInConversation(conversation, channel, input.messageTs);
        await api.call('pins.add', { channel, timestamp: ts });
        return `Pinned message ${ts}.`;
      },
    }),
    defineChannelAgentTool({
      ...members!,
      description: 'List the members of this conversation (user ids), up to `limit`.',
      inputSchema: z.object({ limit: z.number().int().min(1).max(1000).optional() }).strict(),
      async execute(input, conversation) {
        const channel = conversationOf(conversation);
        const limit = input.limit ?? 200;
        const ids: string[] = [];
        let cursor: string | undefined;
        do {
          const page = await api.call<{ members?: string[]; response_metadata?: { next_cursor?: string } }>(
            'conversations.members',
            { channel, limit: Math.min(limit - ids.length, 200), ...(cursor ? { cursor } : {}) },
          );
          ids.push(...(page.members ?? []));
          cursor = page.response_metadata?.next_cursor || undefined;
        } while (cursor && ids.length < limit);
        return [
          `${ids.length} members${cursor ? ` (the first ${ids.length})` : ''}:`,
          ...ids.map((id) => `- ${id}`),
        ].join('\n');
      },
    }),
  ];
}
