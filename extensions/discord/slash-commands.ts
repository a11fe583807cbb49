import {
  type ChannelCommand,
  type ChannelInboundMessage,
  type ChannelOutboundFile,
  type ChannelReplyStream,
  type ChannelTarget,
  commandText,
  startEditInPlaceStream,
} from '../../src-main/plugins/sdk/index.js';
import { DISCORD_MAX_MESSAGE, splitForDiscord, toDiscordMarkdown } from './discord-markdown.js';
import type { DiscordRest } from './discord-rest.js';

// The host's chat commands as Discord application commands ("slash commands",
// https://discord.com/developers/docs/interactions/application-commands). At start they are
// registered with one bulk overwrite (PUT /applications/{id}/commands, or per guild), which
// replaces the whole set and so is idempotent. An invocation arrives over the Gateway as
// INTERACTION_CREATE (type 2 APPLICATION_COMMAND) and must be answered within 3 s: it is deferred
// at once (callback type 5, "thinking…"), then handed to the host as the text a person would type
// (`/approve AB12CD allow`), so pairing, allowlist and owner rules apply unchanged. The reply
// edits the deferred message (PATCH /webhooks/{app}/{token}/messages/@original), streamed like
// any reply, and continues in follow-ups (POST /webhooks/{app}/{token}); an invocation the host
// ignores (a sender not on the allowlist) has its "thinking…" message deleted. The token lasts
// 15 minutes; a reply after that goes to the channel as a plain message.

const CommandType = { chatInput: 1 } as const;
const OptionType = { string: 3 } as const;
/** Where a command may be used: in guilds and in the bot's DMs (interaction context types). */
const CONTEXTS = [0, 1];
const InteractionType = { applicationCommand: 2 } as const;
const Callback = { channelMessageWithSource: 4, deferredChannelMessage: 5 } as const;
const EPHEMERAL = 1 << 6;
/** Interaction tokens are valid for 15 minutes; a little is kept back for the call itself. */
export const INTERACTION_TOKEN_MS = 15 * 60_000 - 30_000;
/** Marks a target whose reply goes through an interaction: `replyToMessageId` is `slash:<id>`. */
const SLASH_PREFIX = 'slash:';
const NO_PINGS = { parse: [] };

/** The Discord shape of the host's commands (CHAT_INPUT commands with string options). */
export function applicationCommands(commands: readonly ChannelCommand[]): Record<string, unknown>[] {
  return commands.map((command) => ({
    type: CommandType.chatInput,
    name: command.name,
    description: command.description.slice(0, 100),
    contexts: CONTEXTS,
    ...(command.options?.length
      ? {
          options: command.options.map((option) => ({
            type: OptionType.string,
            name: option.name,
            description: option.description.slice(0, 100),
            required: option.required ?? false,
            ...(option.choices ? { choices: option.choices.map((value) => ({ name: value, value })) } : {}),
          })),
        }
      : {}),
  }));
}

/**
 * Registers the commands for the bot's application: globally, or in each of `guildIds` (guild
 * commands show at once; useful while testing a bot). Answers the application id.
 */
export async function registerSlashCommands(
  rest: DiscordRest,
  commands: readonly ChannelCommand[],
  guildIds: readonly string[] = [],
): Promise<string> {
  const application = await rest.request<{ id: string }>('GET', '/applications/@me');
  const body = applicationCommands(commands);
  if (guildIds.length === 0) await rest.request('PUT', `/applications/${application.id}/commands`, body);
  for (const guild of guildIds)
    await rest.request('PUT', `/applications/${application.id}/guilds/${guild}/commands`, body);
  return application.id;
}

/** The fields of an application command interaction the channel reads. */
export interface CommandInteraction {
  id?: unknown;
  application_id?: unknown;
  token?: unknown;
  type?: unknown;
  channel_id?: unknown;
  guild_id?: unknown;
  member?: { user?: { id?: unknown; username?: unknown; global_name?: unknown; bot?: unknown } };
  user?: { id?: unknown; username?: unknown; global_name?: unknown; bot?: unknown };
  data?: { name?: unknown; options?: { name?: unknown; value?: unknown }[] };
}

export interface SlashInvocation {
  id: string;
  applicationId: string;
  token: string;
  /** The Discord channel it was used in (a DM's channel is remembered for the person). */
  channelId: string;
  /** Set when the command is one the host answers. */
  message?: ChannelInboundMessage;
  /** The command's name, also when it is not (or no longer) one of the host's. */
  name: string;
}

export const isCommandInteraction = (data: unknown) =>
  (data as { type?: unknown } | undefined)?.type === InteractionType.applicationCommand;

/**
 * An application command interaction as the host's message: the text a person would type for it,
 * addressed to the bot (a slash command always is). A DM's peer is the person, a guild channel's
 * the channel, as for typed messages. The target's `replyToMessageId` names the interaction, so
 * the reply goes through it.
 */
export function normaliseCommandInteraction(
  data: CommandInteraction,
  commands: readonly ChannelCommand[],
  now: number,
): SlashInvocation | { skip: string } {
  if (!data || typeof data !== 'object' || !isCommandInteraction(data)) return { skip: 'not a command interaction' };
  const { id, token, channel_id: channelId, application_id: applicationId } = data;
  if (typeof id !== 'string' || typeof token !== 'string' || typeof channelId !== 'string')
    return { skip: 'malformed interaction (no id, token or channel)' };
  if (typeof applicationId !== 'string') return { skip: 'interaction without an application id' };
  const user = data.member?.user ?? data.user;
  if (typeof user?.id !== 'string') return { skip: 'interaction without a user' };
  if (user.bot === true) return { skip: 'interaction from a bot' };
  const name = typeof data.data?.name === 'string' ? data.data.name : '';
  const base = { id, applicationId, token, channelId, name };
  const command = commands.find((c) => c.name === name);
  if (!command) return base;
  const given = Array.isArray(data.data?.options) ? data.data.options : [];
  const values = (command.options ?? []).map((option) => {
    const value = given.find((g) => g?.name === option.name)?.value;
    // One word per option in the typed form; a free-text option is last (`/learn <focus>`).
    return typeof value === 'string' || typeof value === 'number' ? String(value) : undefined;
  });
  const inGuild = typeof data.guild_id === 'string';
  const target: ChannelTarget = {
    peerKind: inGuild ? 'group' : 'direct',
    peerId: inGuild ? channelId : user.id,
    replyToMessageId: `${SLASH_PREFIX}${id}`,
  };
  return {
    ...base,
    message: {
      messageId: `interaction:${id}`,
      target,
      sender: {
        id: user.id,
        ...(typeof user.global_name === 'string' ? { name: user.global_name } : {}),
        ...(typeof user.username === 'string' ? { username: user.username } : {}),
      },
      text: commandText(command.name, values),
      addressedToBot: true,
      ts: now,
    },
  };
}

interface Pending {
  invocation: SlashInvocation;
  at: number;
  /** Something was sent for it (text, a stream, typing, a file): the host took it. */
  used: boolean;
  /** The deferred message was replaced by reply text (further text goes to follow-ups). */
  originalShown: boolean;
}

/**
 * The replies to slash commands: deferred at once, then the host's answer in the deferred message
 * and follow-ups. `of(target)` says whether a target's reply goes through an interaction.
 */
export class SlashReplies {
  private readonly pending = new Map<string, Pending>();

  constructor(
    private readonly rest: DiscordRest,
    private readonly now: () => number = Date.now,
  ) {}

  private webhook(p: Pending) {
    return `/webhooks/${p.invocation.applicationId}/${p.invocation.token}`;
  }

  /** Acknowledges an invocation within Discord's 3 s ("thinking…"). False: it was answered before (a replay). */
  async defer(invocation: SlashInvocation): Promise<boolean> {
    this.forgetExpired();
    try {
      await this.rest.request('POST', `/interactions/${invocation.id}/${invocation.token}/callback`, {
        type: Callback.deferredChannelMessage,
      });
    } catch {
      return false;
    }
    this.pending.set(invocation.id, { invocation, at: this.now(), used: false, originalShown: false });
    return true;
  }

  /** A command the host does not answer (registered by an older version): said to the user alone. */
  async refuse(invocation: SlashInvocation, notice: string): Promise<void> {
    await this.rest.request('POST', `/interactions/${invocation.id}/${invocation.token}/callback`, {
      type: Callback.channelMessageWithSource,
      data: { content: notice, flags: EPHEMERAL, allowed_mentions: NO_PINGS },
    });
  }

  /** After the host took it: nothing was sent, so the host ignored it; the "thinking…" message goes. */
  async settle(invocation: SlashInvocation): Promise<void> {
    const p = this.pending.get(invocation.id);
    if (!p || p.used) return;
    this.pending.delete(invocation.id);
    await this.rest.request('DELETE', `${this.webhook(p)}/messages/@original`);
  }

  /** The invocation a target answers, while its token is valid. */
  of(target: ChannelTarget): Pending | undefined {
    const ref = target.replyToMessageId;
    if (!ref?.startsWith(SLASH_PREFIX)) return undefined;
    const p = this.pending.get(ref.slice(SLASH_PREFIX.length));
    if (!p || this.now() - p.at > INTERACTION_TOKEN_MS) return undefined;
    p.used = true;
    return p;
  }

  private forgetExpired() {
    for (const [id, p] of this.pending) if (this.now() - p.at > INTERACTION_TOKEN_MS) this.pending.delete(id);
  }

  private async editOriginal(p: Pending, content: string): Promise<string> {
    const sent = await this.rest.request<{ id: string }>('PATCH', `${this.webhook(p)}/messages/@original`, {
      content,
      allowed_mentions: NO_PINGS,
    });
    p.originalShown = true;
    return sent.id;
  }

  private async followUp(p: Pending, content: string, files: ChannelOutboundFile[] = []): Promise<string> {
    const sent = await this.rest.request<{ id: string }>(
      'POST',
      this.webhook(p),
      { content, allowed_mentions: NO_PINGS },
      files.map((file) => ({ name: file.name, mediaType: file.mediaType, data: file.data })),
    );
    return sent.id;
  }

  /** The first words replace the deferred message (unless reply text already did), the rest follow. */
  private async post(p: Pending, content: string): Promise<string> {
    return p.originalShown ? this.followUp(p, content) : this.editOriginal(p, content);
  }

  async sendText(p: Pending, text: string): Promise<string> {
    let first: string | undefined;
    for (const part of splitForDiscord(toDiscordMarkdown(text))) first ??= await this.post(p, part);
    return first!;
  }

  /** A file as a follow-up message (multipart, as channel messages take files). */
  async sendFile(p: Pending, file: ChannelOutboundFile, caption: string): Promise<string> {
    return this.followUp(p, caption, [file]);
  }

  /** A streamed reply in the deferred message, edited in place; past 2000 characters in follow-ups. */
  stream(p: Pending, options: { editIntervalMs: number; onError(error: unknown): void }): ChannelReplyStream {
    const edit = async (messageId: string, content: string) => {
      await this.rest.request('PATCH', `${this.webhook(p)}/messages/${messageId}`, {
        content,
        allowed_mentions: NO_PINGS,
      });
    };
    return startEditInPlaceStream<string>({
      ...options,
      preview: (text) => {
        const rendered = toDiscordMarkdown(text);
        return rendered.length <= DISCORD_MAX_MESSAGE ? rendered : `${rendered.slice(0, DISCORD_MAX_MESSAGE - 1)}…`;
      },
      send: (content) => this.post(p, content),
      edit,
      finalParts: (text) => splitForDiscord(toDiscordMarkdown(text)),
      editFinal: async (messageId, part, alreadyShown) => {
        if (!alreadyShown) await edit(messageId, part);
      },
      sendFinal: async (part) => {
        await this.post(p, part);
      },
    });
  }
}

/** A target without its interaction mark: a reply after the token expired goes to the channel itself. */
export function withoutInteraction(target: ChannelTarget): ChannelTarget {
  if (!target.replyToMessageId?.startsWith(SLASH_PREFIX)) return target;
  const { replyToMessageId: _, ...rest } = target;
  return rest;
}
