/**
 * Test support: the Bot API methods behind Telegram's agent tools, for the fake Telegram server
 * (https://core.telegram.org/bots/api): setMessageReaction (ReactionTypeEmoji from Telegram's
 * standard set, else REACTION_INVALID), pinChatMessage, getChatMemberCount, getChatAdministrators
 * (refused in a private chat, as Telegram does). What the bot did is kept for tests to read.
 */

/** Telegram's standard reaction emoji (a bot may use only these). */
const REACTION_EMOJI = new Set(
  '👍 👎 ❤ 🔥 🥰 👏 😁 🤔 🤯 😱 🤬 😢 🎉 🤩 🤮 💩 🙏 👌 🕊 🤡 🥱 🥴 😍 🐳 ❤‍🔥 🌚 🌭 💯 🤣 ⚡ 🍌 🏆 💔 🤨 😐 🍓 🍾 💋 🖕 😈 😴 😭 🤓 👻 👨‍💻 👀 🎃 🙈 😇 😨 🤝 ✍ 🤗 🫡 🎅 🎄 ☃ 💅 🤪 🗿 🆒 💘 🙉 🦄 😘 💊 🙊 😎 👾 🤷‍♂ 🤷 🤷‍♀ 😡'.split(
    ' ',
  ),
);

export interface FakeTelegramGroup {
  memberCount: number;
  admins: {
    status: 'creator' | 'administrator';
    user: { id: number; is_bot: boolean; first_name: string; username?: string };
  }[];
}

export class FakeTelegramChatTools {
  readonly reactions: { chatId: number; messageId: number; emoji: string }[] = [];
  readonly pins: { chatId: number; messageId: number; silent: boolean }[] = [];
  private readonly groups = new Map<number, FakeTelegramGroup>();

  setGroup(chatId: number, group: FakeTelegramGroup): void {
    this.groups.set(chatId, group);
  }

  /** The method's result, a `[status, description]` refusal, or undefined when it is not one of these. */
  handle(
    method: string,
    params: Record<string, unknown>,
  ): { result: unknown } | { error: [number, string] } | undefined {
    const chatId = typeof params.chat_id === 'number' ? params.chat_id : Number(params.chat_id);
    const messageId = typeof params.message_id === 'number' ? params.message_id : Number(params.message_id);
    const needChat = () =>
      Number.isFinite(chatId) ? undefined : { error: [400, 'Bad Request: chat_id is empty'] as [number, string] };
    switch (method) {
      case 'setMessageReaction': {
        const missing = needChat();
        if (missing) return missing;
        if (!Number.isFinite(messageId)) return { error: [400, 'Bad Request: message_id is empty'] };
        const reaction = Array.isArray(params.reaction) ? (params.reaction as { type?: string; emoji?: string }[]) : [];
        for (const r of reaction)
          if (r.type !== 'emoji' || typeof r.emoji !== 'string' || !REACTION_EMOJI.has(r.emoji))
            return { error: [400, 'Bad Request: REACTION_INVALID'] };
        for (const r of reaction) this.reactions.push({ chatId, messageId, emoji: r.emoji! });
        return { result: true };
      }
      case 'pinChatMessage': {
        const missing = needChat();
        if (missing) return missing;
        if (!Number.isFinite(messageId)) return { error: [400, 'Bad Request: message to pin not found'] };
        this.pins.push({ chatId, messageId, silent: params.disable_notification === true });
        return { result: true };
      }
      case 'getChatMemberCount': {
        const missing = needChat();
        if (missing) return missing;
        return { result: chatId > 0 ? 2 : (this.groups.get(chatId)?.memberCount ?? 0) };
      }
      case 'getChatAdministrators': {
        const missing = needChat();
        if (missing) return missing;
        if (chatId > 0) return { error: [400, 'Bad Request: there are no administrators in the private chat'] };
        const group = this.groups.get(chatId);
        if (!group) return { error: [400, 'Bad Request: chat not found'] };
        return { result: group.admins };
      }
      default:
        return undefined;
    }
  }
}
