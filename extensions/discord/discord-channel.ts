import {
  type ChannelAttachment,
  type ChannelInboundMessage,
  type ChannelTarget,
  defineChannel,
  downloadAttachments,
  type RunningChannel,
  retryUntilAnswered,
} from '../../src-main/plugins/sdk/index.js';
import { createDiscordAgentTools, discordAgentTools } from './agent-tools.js';
import { type DiscordInteraction, discordButtons, normaliseInteraction } from './discord-buttons.js';
import { type DiscordConfig, discordConfigSchema, validateDiscordConfig } from './discord-config.js';
import { DISCORD_INTENTS, DiscordGateway, type GatewayUser } from './discord-gateway.js';
import { DISCORD_MAX_MESSAGE } from './discord-markdown.js';
import { DiscordApiError, DiscordRest } from './discord-rest.js';
import { discordSetup } from './discord-setup.js';
import { sendDiscordText, startDiscordStream } from './discord-stream.js';
import { DISCORD_MAX_UPLOAD_BYTES, discordCaption, sendDiscordFile } from './send-media.js';
import {
  type CommandInteraction,
  isCommandInteraction,
  normaliseCommandInteraction,
  registerSlashCommands,
  SlashReplies,
  withoutInteraction,
} from './slash-commands.js';

/** Largest file the channel downloads for the model; a bigger one is named in the text instead. */
export const MAX_ATTACHMENT_BYTES = 5 * 1024 * 1024;

interface AttachmentRef {
  url: string;
  name: string;
  mediaType: string;
  size?: number;
}

interface MessageCreate {
  id?: unknown;
  type?: unknown;
  channel_id?: unknown;
  guild_id?: unknown;
  author?: { id?: unknown; username?: unknown; global_name?: unknown; bot?: unknown };
  content?: unknown;
  mentions?: { id?: unknown }[];
  referenced_message?: { author?: { id?: unknown } } | null;
  attachments?: { url?: unknown; filename?: unknown; content_type?: unknown; size?: unknown }[];
  timestamp?: unknown;
}

/**
 * A MESSAGE_CREATE dispatch as the host's message, or why it is not one. A guild channel or a
 * thread (a thread is a channel of its own in Discord) is a `group`; a DM is `direct`, with the DM
 * channel as its peer. In a guild, `addressedToBot` is an @mention of the bot or a reply to it; the
 * mention is taken out of the text the model sees.
 */
export function normaliseMessage(
  data: MessageCreate,
  bot: { id: string },
): { message: ChannelInboundMessage; attachments: AttachmentRef[]; channelId: string } | { skip: string } {
  if (!data || typeof data !== 'object') return { skip: 'not a message' };
  const { id, channel_id: channelId, author } = data;
  if (typeof id !== 'string' || typeof channelId !== 'string' || typeof author?.id !== 'string')
    return { skip: 'malformed message (no id, channel or author)' };
  if (author.bot === true) return { skip: 'message from a bot' };
  if (data.type !== undefined && data.type !== 0 && data.type !== 19)
    return { skip: `not a user message (type ${String(data.type)})` };
  const attachments = attachmentsOf(data);
  const text = typeof data.content === 'string' ? data.content : '';
  if (text.trim() === '' && attachments.length === 0) return { skip: 'message without text' };
  const peerKind = typeof data.guild_id === 'string' ? 'group' : 'direct';
  // A DM's peer is the person (so identity links and per-user memory see `discord:<userId>`); the
  // DM channel it came in on is remembered to answer there.
  const mentionPattern = new RegExp(`<@!?${bot.id}>`, 'g');
  const mentioned =
    mentionPattern.test(text) || (Array.isArray(data.mentions) && data.mentions.some((m) => m?.id === bot.id));
  const clean = text
    .replace(mentionPattern, '')
    .replace(/[ \t]{2,}/g, ' ')
    .trim();
  const repliedToBot = data.referenced_message?.author?.id === bot.id;
  const name = typeof author.global_name === 'string' ? author.global_name : undefined;
  return {
    message: {
      messageId: `${channelId}:${id}`,
      target: {
        peerKind,
        peerId: peerKind === 'direct' ? author.id : channelId,
        ...(peerKind === 'group' ? { replyToMessageId: id } : {}),
      },
      sender: {
        id: author.id,
        ...(name ? { name } : {}),
        ...(typeof author.username === 'string' ? { username: author.username } : {}),
      },
      text: clean,
      addressedToBot: mentioned || repliedToBot,
      ts:
        typeof data.timestamp === 'string' && !Number.isNaN(Date.parse(data.timestamp))
          ? Date.parse(data.timestamp)
          : Date.now(),
    },
    attachments,
    channelId,
  };
}

function attachmentsOf(data: MessageCreate): AttachmentRef[] {
  if (!Array.isArray(data.attachments)) return [];
  return data.attachments.flatMap((a) =>
    typeof a?.url === 'string'
      ? [
          {
            url: a.url,
            name: typeof a.filename === 'string' ? a.filename : 'file',
            mediaType: typeof a.content_type === 'string' ? a.content_type : 'application/octet-stream',
            ...(typeof a.size === 'number' ? { size: a.size } : {}),
          },
        ]
      : [],
  );
}

/** Downloads a message's attachments; one over the cap, or that cannot be fetched, is named in a note. */
function downloadDiscordAttachments(
  rest: DiscordRest,
  refs: readonly AttachmentRef[],
): Promise<{ attachments: ChannelAttachment[]; notes: string[] }> {
  return downloadAttachments(refs, {
    maxBytes: MAX_ATTACHMENT_BYTES,
    download: (ref) => rest.download(ref.url, MAX_ATTACHMENT_BYTES),
    describe: describeFailure,
  });
}

function describeFailure(error: unknown): string {
  if (error instanceof DiscordApiError) {
    if (error.status === 401)
      return `Discord rejected the bot token (401 ${error.description}): store a valid token from the Developer Portal with \`hearth channels token discord\``;
    if (error.status === 403) return `Discord refused the bot access (403 ${error.description}): check its permissions`;
    if (error.status === 0) return `cannot reach the Discord API (${error.description})`;
    return error.message;
  }
  return String(error);
}

const isFatal = (error: unknown) => error instanceof DiscordApiError && error.status === 401;

export const discordChannel = defineChannel<DiscordConfig>({
  id: 'discord',
  meta: {
    name: 'Discord',
    icon: '🎮',
    description:
      'A Discord bot (Gateway WebSocket + REST): DMs, guild channels and threads, replies edited in place while streaming.',
  },
  capabilities: {
    editMessages: true,
    threads: true,
    reactions: false,
    buttons: true,
    groups: true,
    media: ['image', 'document'],
    maxMessageLength: DISCORD_MAX_MESSAGE,
    markdown: 'discord',
    maxUploadBytes: DISCORD_MAX_UPLOAD_BYTES,
  },
  config: {
    schema: discordConfigSchema,
    validate: validateDiscordConfig,
    secrets: [{ account: 'channels.discord.token', description: 'the bot token from the Discord Developer Portal' }],
  },
  setup: discordSetup,
  security: {
    defaultDmPolicy: 'pairing',
    senderId: {
      pattern: '[0-9]{15,21}',
      description: 'a Discord user id (a number of 17–20 digits; Developer Mode → Copy User ID)',
    },
    groupId: {
      pattern: '[0-9]{15,21}',
      description: 'a Discord channel id (a number of 17–20 digits; Copy Channel ID)',
    },
  },
  agentTools: discordAgentTools,
  reload: { configPrefixes: ['channels.discord'] },
  async start(context): Promise<RunningChannel> {
    const { config, log } = context;
    // Receiving stops with the context's signal; sending (replies still streaming) only at dispose.
    const controller = new AbortController();
    const signal = AbortSignal.any([controller.signal, context.signal]);
    const token = await context.secret(config.tokenSecret);
    if (!token)
      throw new Error(
        `no bot token: store the bot token from the Discord Developer Portal in the secret store as "${config.tokenSecret}" (\`hearth channels token discord\`)`,
      );
    const rest = new DiscordRest({ baseUrl: config.apiBaseUrl, token, fetch: context.fetch, signal });
    const sender = new DiscordRest({
      baseUrl: config.apiBaseUrl,
      token,
      fetch: context.fetch,
      signal: controller.signal,
    });
    // DM peers are people; their DM channel, learned from their messages or opened with
    // POST /users/@me/channels, is where replies go.
    const dmChannels = new Map<string, string>();
    const channelOf = async (target: ChannelTarget): Promise<string> => {
      if (target.peerKind !== 'direct') return target.peerId;
      const known = dmChannels.get(target.peerId);
      if (known) return known;
      const opened = await sender.request<{ id: string }>('POST', '/users/@me/channels', {
        recipient_id: target.peerId,
      });
      dmChannels.set(target.peerId, opened.id);
      return opened.id;
    };
    // Slash commands: deferred at once, then to the host as the typed command (slash-commands.ts).
    const slash = new SlashReplies(sender);
    const takeCommand = async (data: CommandInteraction) => {
      const invocation = normaliseCommandInteraction(data, context.commands ?? [], Date.now());
      if ('skip' in invocation) {
        log.debug('discord command skipped', { reason: invocation.skip });
        return;
      }
      const { message } = invocation;
      if (!message) {
        await slash
          .refuse(invocation, `/${invocation.name} is not a command of this assistant (any more).`)
          .catch((error: unknown) => log.warn('could not answer a slash command', { error: describeFailure(error) }));
        return;
      }
      if (message.target.peerKind === 'direct') dmChannels.set(message.target.peerId, invocation.channelId);
      if (!(await slash.defer(invocation))) {
        log.debug('discord command already answered (replayed)', { id: invocation.id });
        return;
      }
      try {
        await context.receive(message);
      } catch (error) {
        log.warn('the host did not take a slash command', { error: String(error) });
      }
      await slash
        .settle(invocation)
        .catch((error: unknown) => log.debug('could not clear a slash command', { error: describeFailure(error) }));
    };
    /** A button press on a prompt: to the host, which checks who pressed and answers it. */
    const takeInteraction = async (data: DiscordInteraction) => {
      let normalised: ReturnType<typeof normaliseInteraction>;
      try {
        normalised = normaliseInteraction(data, sender);
      } catch (error) {
        normalised = { skip: `malformed interaction (${String(error)})` };
      }
      if ('skip' in normalised) {
        log.debug('discord interaction skipped', { reason: normalised.skip });
        return;
      }
      const { press, channelId } = normalised;
      if (press.target.peerKind === 'direct') dmChannels.set(press.target.peerId, channelId);
      if (context.receivePress) await context.receivePress(press);
      else await press.answer();
    };
    const running = (async () => {
      // What was learned before a failure is kept: the next attempt asks only for the rest.
      let bot: GatewayUser | undefined;
      let gatewayUrl = config.gatewayUrl;
      const reached = await retryUntilAnswered(
        async () => {
          bot ??= await rest.request<GatewayUser>('GET', '/users/@me', undefined, [], 15_000);
          gatewayUrl ??= (await rest.request<{ url: string }>('GET', '/gateway/bot', undefined, [], 15_000)).url;
          return { self: bot, url: gatewayUrl };
        },
        {
          signal,
          isFatal,
          onFailure: (error, fatal) =>
            context.reportHealth({ state: fatal ? 'error' : 'reconnecting', error: describeFailure(error) }),
        },
      );
      if (!reached) return;
      const { self } = reached;
      const account = `@${self.username}`;
      if (config.slashCommands && context.commands?.length)
        void registerSlashCommands(rest, context.commands, config.commandGuildIds).then(
          () => log.info('discord slash commands registered', { commands: context.commands?.length }),
          (error: unknown) =>
            log.warn('could not register the slash commands; typed commands still work', {
              error: describeFailure(error),
            }),
        );
      const gateway = new DiscordGateway({
        url: reached.url,
        token,
        intents: DISCORD_INTENTS,
        signal,
        log,
        onReady: () => context.reportHealth({ state: 'connected', account }),
        onTrouble: (error, fatal) => context.reportHealth({ state: fatal ? 'error' : 'reconnecting', account, error }),
        onDispatch: async (type, data) => {
          if (type === 'INTERACTION_CREATE')
            return isCommandInteraction(data)
              ? takeCommand(data as CommandInteraction)
              : takeInteraction(data as DiscordInteraction);
          if (type !== 'MESSAGE_CREATE') return;
          let normalised: ReturnType<typeof normaliseMessage>;
          try {
            normalised = normaliseMessage(data as MessageCreate, self);
          } catch (error) {
            normalised = { skip: `malformed message (${String(error)})` };
          }
          if ('skip' in normalised) {
            log.debug('discord message skipped', { reason: normalised.skip });
            return;
          }
          const { message, attachments } = normalised;
          if (message.target.peerKind === 'direct') dmChannels.set(message.target.peerId, normalised.channelId);
          await context.receive(
            attachments.length === 0
              ? message
              : { ...message, loadAttachments: () => downloadDiscordAttachments(rest, attachments) },
          );
        },
      });
      await gateway.run();
    })().catch((error) => {
      if (!signal.aborted) {
        log.error('discord channel stopped', { error: describeFailure(error) });
        context.reportHealth({ state: 'error', error: describeFailure(error) });
      }
    });
    return {
      // A reply to a slash command goes through its interaction (while its token lasts).
      outbound: {
        sendText: async (target, text) => {
          const invocation = slash.of(target);
          if (invocation) return { messageId: await slash.sendText(invocation, text) };
          return { messageId: await sendDiscordText(sender, channelOf, withoutInteraction(target), text) };
        },
        sendFile: async (target, file) => {
          const invocation = slash.of(target);
          if (invocation) return { messageId: await slash.sendFile(invocation, file, discordCaption(file)) };
          return { messageId: await sendDiscordFile(sender, channelOf, withoutInteraction(target), file) };
        },
        sendTyping: async (target) => {
          if (slash.of(target)) return; // the deferred "thinking…" shows already
          await sender.request('POST', `/channels/${await channelOf(target)}/typing`);
        },
      },
      streaming: {
        begin: (target) => {
          const options = {
            editIntervalMs: config.editIntervalMs,
            onError: (error: unknown) => log.warn('discord streaming edit failed', { error: describeFailure(error) }),
          };
          const invocation = slash.of(target);
          if (invocation) return slash.stream(invocation, options);
          return startDiscordStream(sender, channelOf, withoutInteraction(target), options);
        },
      },
      // Approval prompts: message components whose presses come back as interactions.
      buttons: discordButtons(sender, channelOf),
      agentTools: createDiscordAgentTools(sender, channelOf),
      async dispose() {
        controller.abort(new Error('discord channel stopped'));
        await running;
      },
    };
  },
});
