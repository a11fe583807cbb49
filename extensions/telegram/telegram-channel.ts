import { randomBytes, timingSafeEqual } from 'node:crypto';
import {
  Backoff,
  type ChannelAttachment,
  type ChannelButtonPress,
  type ChannelInboundMessage,
  type ChannelStartContext,
  defineChannel,
  downloadAttachments,
  type RunningChannel,
  retryUntilAnswered,
} from '../../src-main/plugins/sdk/index.js';
import { createTelegramAgentTools, telegramAgentTools } from './agent-tools.js';
import { sendTelegramFile, TELEGRAM_MAX_UPLOAD_BYTES } from './send-media.js';
import { TelegramApi, TelegramApiError } from './telegram-api.js';
import { type TelegramConfig, telegramConfigSchema, validateTelegramConfig } from './telegram-config.js';
import { telegramSetup } from './telegram-setup.js';
import { sendTelegramText, startTelegramStream, TELEGRAM_MAX_MESSAGE } from './telegram-stream.js';

interface BotUser {
  id: number;
  username?: string;
  first_name?: string;
}
interface FileRef {
  file_id?: unknown;
  file_size?: unknown;
  file_name?: unknown;
  mime_type?: unknown;
}
interface IncomingMessage {
  photo?: FileRef[];
  document?: FileRef;
  message_id?: unknown;
  from?: { id?: unknown; first_name?: unknown; username?: unknown; is_bot?: unknown };
  chat?: { id?: unknown; type?: unknown };
  date?: unknown;
  text?: unknown;
  caption?: unknown;
  entities?: { type?: unknown; offset?: unknown; length?: unknown }[];
  reply_to_message?: { from?: { id?: unknown } };
}
interface CallbackQuery {
  id?: unknown;
  from?: { id?: unknown; first_name?: unknown; username?: unknown };
  message?: { message_id?: unknown; chat?: { id?: unknown; type?: unknown } };
  data?: unknown;
}
interface Update {
  update_id: number;
  message?: IncomingMessage;
  callback_query?: CallbackQuery;
}

/** Telegram's limit on an inline button's callback_data. */
const MAX_CALLBACK_DATA = 64;

/**
 * A press of an inline keyboard button (a prompt sent by `buttons.sendPrompt`) as the host's
 * press, or why it is not one. `answer` calls answerCallbackQuery, so the presser's spinner stops
 * and they see the notice; nobody else does.
 */
export function normaliseCallback(query: CallbackQuery, api: TelegramApi): ChannelButtonPress | { skip: string } {
  const data = typeof query.data === 'string' ? query.data : undefined;
  const fromId = query.from?.id;
  const chatId = query.message?.chat?.id;
  const messageId = query.message?.message_id;
  if (typeof query.id !== 'string' || typeof fromId !== 'number') return { skip: 'malformed callback query' };
  if (!data || typeof chatId !== 'number' || typeof messageId !== 'number')
    return { skip: 'callback query without data or message' };
  const at = data.lastIndexOf(':');
  if (at <= 0) return { skip: 'callback data not from a prompt' };
  const id = query.id;
  const chatType = query.message?.chat?.type;
  return {
    promptId: data.slice(0, at),
    buttonId: data.slice(at + 1),
    sender: {
      id: String(fromId),
      ...(typeof query.from?.first_name === 'string' ? { name: query.from.first_name } : {}),
      ...(typeof query.from?.username === 'string' ? { username: query.from.username } : {}),
    },
    target: { peerKind: chatType === 'private' ? 'direct' : 'group', peerId: String(chatId) },
    messageId: String(messageId),
    answer: async (notice?: string) => {
      await api.call('answerCallbackQuery', {
        callback_query_id: id,
        ...(notice ? { text: notice.slice(0, 200) } : {}),
      });
    },
  };
}

/** One update to the host: a message, or a button press; a malformed one is logged and skipped. */
async function takeUpdate(
  context: ChannelStartContext<TelegramConfig>,
  api: TelegramApi,
  sender: TelegramApi,
  bot: BotUser,
  update: Update,
): Promise<void> {
  if (update.callback_query) {
    let press: ReturnType<typeof normaliseCallback>;
    try {
      press = normaliseCallback(update.callback_query, sender);
    } catch (error) {
      press = { skip: `malformed callback query (${String(error)})` };
    }
    if ('skip' in press) {
      context.log.debug('telegram callback skipped', { updateId: update.update_id, reason: press.skip });
      return;
    }
    if (context.receivePress) await context.receivePress(press);
    else await press.answer().catch(() => {});
    return;
  }
  const normalised = safelyNormalise(update, bot);
  if ('skip' in normalised) {
    context.log.debug('telegram update skipped', { updateId: update.update_id, reason: normalised.skip });
    return;
  }
  await context.receive(withMediaLoader(api, normalised.message, normalised.media));
}

/**
 * A Telegram update as the host's message, or why it is not one (a service update, a channel
 * post, a malformed body). In groups, `addressedToBot` is an @mention of the bot or a reply to it;
 * the mention is taken out of the text the model sees.
 */
export function normaliseUpdate(
  update: Update,
  bot: BotUser,
): { message: ChannelInboundMessage; media: MediaRef[] } | { skip: string } {
  const m = update.message;
  if (!m || typeof m !== 'object') return { skip: 'not a message update' };
  const chatId = m.chat?.id;
  const fromId = m.from?.id;
  const text = typeof m.text === 'string' ? m.text : typeof m.caption === 'string' ? m.caption : undefined;
  if (typeof chatId !== 'number' || typeof fromId !== 'number' || typeof m.message_id !== 'number')
    return { skip: 'malformed message (no chat, sender or id)' };
  const media = mediaOf(m);
  if ((text === undefined || text.trim() === '') && media.length === 0) return { skip: 'message without text' };
  if (m.from?.is_bot === true) return { skip: 'message from a bot' };
  const chatType = m.chat?.type;
  const peerKind =
    chatType === 'private' ? 'direct' : chatType === 'group' || chatType === 'supergroup' ? 'group' : undefined;
  if (!peerKind) return { skip: `unsupported chat type ${String(chatType)}` };
  const mention = bot.username ? `@${bot.username}` : undefined;
  let clean = text ?? '';
  let mentioned = false;
  if (mention) {
    const pattern = new RegExp(`${mention.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\b`, 'gi');
    mentioned = pattern.test(clean);
    clean = clean
      .replace(pattern, '')
      .replace(/\s{2,}/g, ' ')
      .trim();
  }
  const repliedToBot = m.reply_to_message?.from?.id === bot.id;
  return {
    message: {
      messageId: `${chatId}:${m.message_id}`,
      target: {
        peerKind,
        peerId: String(chatId),
        replyToMessageId: peerKind === 'group' ? String(m.message_id) : undefined,
      },
      sender: {
        id: String(fromId),
        ...(typeof m.from?.first_name === 'string' ? { name: m.from.first_name } : {}),
        ...(typeof m.from?.username === 'string' ? { username: m.from.username } : {}),
      },
      text: clean || (text ?? ''),
      addressedToBot: mentioned || repliedToBot,
      ts: typeof m.date === 'number' ? m.date * 1000 : Date.now(),
    },
    media,
  };
}

/** A malformed update is skipped, never allowed to stop the channel. */
function safelyNormalise(update: Update, bot: BotUser): ReturnType<typeof normaliseUpdate> {
  try {
    return normaliseUpdate(update, bot);
  } catch (error) {
    return { skip: `malformed update (${String(error)})` };
  }
}

/** Largest file the channel downloads for the model; a bigger one is named in the text instead. */
export const MAX_ATTACHMENT_BYTES = 5 * 1024 * 1024;

export interface MediaRef {
  fileId: string;
  kind: 'image' | 'file';
  mediaType: string;
  name?: string;
  size?: number;
}

/** The photo (its largest size under the cap) or the document a message carries. */
function mediaOf(m: IncomingMessage): MediaRef[] {
  const refs: MediaRef[] = [];
  if (Array.isArray(m.photo) && m.photo.length > 0) {
    const sizes = m.photo.filter((p) => typeof p?.file_id === 'string');
    const fitting = sizes.filter((p) => typeof p.file_size !== 'number' || p.file_size <= MAX_ATTACHMENT_BYTES);
    const best = (fitting.length > 0 ? fitting : sizes).at(-1);
    if (best)
      refs.push({
        fileId: best.file_id as string,
        kind: 'image',
        mediaType: 'image/jpeg',
        ...(typeof best.file_size === 'number' ? { size: best.file_size } : {}),
      });
  }
  const doc = m.document;
  if (doc && typeof doc.file_id === 'string') {
    const mediaType = typeof doc.mime_type === 'string' ? doc.mime_type : 'application/octet-stream';
    refs.push({
      fileId: doc.file_id,
      kind: mediaType.startsWith('image/') ? 'image' : 'file',
      mediaType,
      ...(typeof doc.file_name === 'string' ? { name: doc.file_name } : {}),
      ...(typeof doc.file_size === 'number' ? { size: doc.file_size } : {}),
    });
  }
  return refs;
}

/**
 * Downloads what a message carries (getFile, then the file URL) into attachments. A file over
 * the cap, or one that cannot be fetched, is named in a note instead, so the model knows.
 */
export function downloadMedia(
  api: TelegramApi,
  media: readonly MediaRef[],
): Promise<{ attachments: ChannelAttachment[]; notes: string[] }> {
  return downloadAttachments(media, {
    maxBytes: MAX_ATTACHMENT_BYTES,
    download: async (ref) => {
      const file = await api.call<{ file_path?: string }>('getFile', { file_id: ref.fileId });
      if (!file.file_path) throw new Error('getFile gave no file_path');
      return api.download(file.file_path, MAX_ATTACHMENT_BYTES);
    },
    describe: describeFailure,
  });
}

/** The message with a loader for its media, fetched only if the host lets the sender through. */
function withMediaLoader(api: TelegramApi, message: ChannelInboundMessage, media: readonly MediaRef[]) {
  return media.length === 0 ? message : { ...message, loadAttachments: () => downloadMedia(api, media) };
}

function describeFailure(error: unknown): string {
  if (error instanceof TelegramApiError) {
    if (error.code === 401 || error.code === 404)
      return `Telegram rejected the bot token (${error.code} ${error.description}): store a valid token from @BotFather with \`hearth channels token telegram\``;
    if (error.code === 409)
      return `another client is reading this bot's updates (${error.description}); stop it or remove its webhook`;
    if (error.code === 0) return `cannot reach the Telegram Bot API (${error.description})`;
    return error.message;
  }
  return String(error);
}

/** Telegram rejects this token for good: polling again would only repeat it. */
const isFatal = (error: unknown) => error instanceof TelegramApiError && (error.code === 401 || error.code === 404);

async function runPolling(
  context: ChannelStartContext<TelegramConfig>,
  api: TelegramApi,
  sender: TelegramApi,
  bot: BotUser,
  signal: AbortSignal,
): Promise<void> {
  const { config, storage, log } = context;
  const stored = await storage.read();
  let offset = typeof stored.offset === 'number' ? stored.offset : undefined;
  const backoff = new Backoff();
  let failing = false;
  while (!signal.aborted) {
    let updates: Update[];
    try {
      updates = await api.call<Update[]>(
        'getUpdates',
        {
          ...(offset !== undefined ? { offset } : {}),
          timeout: config.pollTimeoutSeconds,
          allowed_updates: ['message', 'callback_query'],
        },
        (config.pollTimeoutSeconds + 15) * 1000,
      );
      if (failing) context.reportHealth({ state: 'connected', account: `@${bot.username}` });
      failing = false;
      backoff.reset();
    } catch (error) {
      if (signal.aborted) return;
      if (isFatal(error)) {
        context.reportHealth({ state: 'error', account: `@${bot.username}`, error: describeFailure(error) });
        return;
      }
      failing = true;
      context.reportHealth({ state: 'reconnecting', account: `@${bot.username}`, error: describeFailure(error) });
      log.warn('telegram getUpdates failed; retrying', { error: describeFailure(error), retryInMs: backoff.ms });
      await backoff.wait(signal);
      continue;
    }
    if (!Array.isArray(updates)) updates = [];
    for (const update of updates) {
      if (signal.aborted) return;
      if (typeof update?.update_id !== 'number') continue;
      try {
        await takeUpdate(context, api, sender, bot, update);
      } catch (error) {
        if (signal.aborted) return;
        log.error('the host could not take a telegram update', { updateId: update.update_id, error: String(error) });
      }
      // Acknowledged (and remembered across restarts) only once the host has it.
      offset = update.update_id + 1;
      await storage.write({ offset });
    }
  }
}

/**
 * Webhook mode: Telegram POSTs each update to `webhookUrl` with the secret token we gave it in
 * setWebhook (a fresh one per start). A request without it is refused (401) and never reaches the
 * host. The update is answered 200 once the host took it, 500 if it could not (Telegram delivers
 * it again; the host drops a message id it already took).
 */
async function runWebhook(
  context: ChannelStartContext<TelegramConfig>,
  api: TelegramApi,
  sender: TelegramApi,
  bot: BotUser,
  signal: AbortSignal,
): Promise<void> {
  const { webhook, log, config } = context;
  if (!webhook) throw new Error('webhook mode needs the gateway to serve HTTP, and this host has none');
  const secret = randomBytes(24).toString('base64url');
  const expected = Buffer.from(secret);
  const listening = webhook.listen(async (request) => {
    const given = Buffer.from(request.headers['x-telegram-bot-api-secret-token'] ?? '');
    if (given.length !== expected.length || !timingSafeEqual(given, expected))
      return { status: 401, body: 'unauthorized' };
    let update: Update;
    try {
      update = JSON.parse(request.body) as Update;
    } catch {
      return { status: 400, body: 'not JSON' };
    }
    if (typeof update?.update_id !== 'number') {
      log.debug('telegram update skipped', { reason: 'no update_id' });
      return { status: 200 };
    }
    await takeUpdate(context, api, sender, bot, update);
    return { status: 200 };
  });
  signal.addEventListener('abort', () => listening.dispose(), { once: true });
  await api.call('setWebhook', {
    url: config.webhookUrl,
    secret_token: secret,
    allowed_updates: ['message', 'callback_query'],
    drop_pending_updates: false,
  });
  context.reportHealth({ state: 'connected', account: `@${bot.username}` });
}

export const telegramChannel = defineChannel<TelegramConfig>({
  id: 'telegram',
  meta: {
    name: 'Telegram',
    icon: '✈️',
    description: 'A Telegram bot (long polling or webhook): DMs and groups, replies edited in place while streaming.',
  },
  capabilities: {
    editMessages: true,
    threads: false,
    reactions: false,
    buttons: true,
    groups: true,
    media: ['image', 'document'],
    maxMessageLength: TELEGRAM_MAX_MESSAGE,
    markdown: 'telegram-markdown-v2',
    maxUploadBytes: TELEGRAM_MAX_UPLOAD_BYTES,
  },
  config: {
    schema: telegramConfigSchema,
    validate: validateTelegramConfig,
    secrets: [{ account: 'channels.telegram.token', description: 'the bot token from @BotFather' }],
  },
  setup: telegramSetup,
  security: {
    defaultDmPolicy: 'pairing',
    senderId: { pattern: '[1-9][0-9]{0,15}', description: 'a numeric Telegram user id, such as 123456789' },
    groupId: { pattern: '-[1-9][0-9]{0,15}', description: 'a Telegram group id (negative), such as -1001234567890' },
  },
  agentTools: telegramAgentTools,
  reload: { configPrefixes: ['channels.telegram'] },
  async start(context): Promise<RunningChannel> {
    const { config, log } = context;
    // Receiving stops with the context's signal; sending (replies still streaming) only at dispose.
    const controller = new AbortController();
    const signal = AbortSignal.any([controller.signal, context.signal]);
    const token = await context.secret(config.tokenSecret);
    if (!token) {
      throw new Error(
        `no bot token: store the token from @BotFather in the secret store as "${config.tokenSecret}" (\`hearth channels token telegram\`)`,
      );
    }
    const api = new TelegramApi({ baseUrl: config.apiBaseUrl, token, fetch: context.fetch, signal });
    const sender = new TelegramApi({
      baseUrl: config.apiBaseUrl,
      token,
      fetch: context.fetch,
      signal: controller.signal,
    });
    const running = (async () => {
      const bot = await retryUntilAnswered(() => api.call<BotUser>('getMe', {}, 15_000), {
        signal,
        isFatal,
        onFailure: (error, fatal) =>
          context.reportHealth({ state: fatal ? 'error' : 'reconnecting', error: describeFailure(error) }),
      });
      if (!bot) return;
      if (config.mode === 'webhook') {
        await runWebhook(context, api, sender, bot, signal);
        return;
      }
      // Long polling and a webhook exclude each other; polling wins in this mode.
      await api.call('deleteWebhook', { drop_pending_updates: false }).catch(() => {});
      context.reportHealth({ state: 'connected', account: `@${bot.username}` });
      await runPolling(context, api, sender, bot, signal);
    })().catch((error) => {
      if (!signal.aborted) {
        log.error('telegram channel stopped', { error: describeFailure(error) });
        context.reportHealth({ state: 'error', error: describeFailure(error) });
      }
    });
    return {
      outbound: {
        sendText: async (target, text) => ({ messageId: String(await sendTelegramText(sender, target, text)) }),
        sendFile: async (target, file) => ({ messageId: String(await sendTelegramFile(sender, target, file)) }),
        sendTyping: async (target) => {
          await sender.call('sendChatAction', { chat_id: Number(target.peerId), action: 'typing' });
        },
      },
      streaming: {
        begin: (target) =>
          startTelegramStream(sender, target, {
            editIntervalMs: config.editIntervalMs,
            onError: (error) => log.warn('telegram streaming edit failed', { error: describeFailure(error) }),
          }),
      },
      // Approval prompts: an inline keyboard whose presses come back as callback queries.
      buttons: {
        sendPrompt: async (target, prompt) => {
          const row = prompt.buttons.map((button) => {
            const data = `${prompt.promptId}:${button.id}`;
            if (Buffer.byteLength(data) > MAX_CALLBACK_DATA)
              throw new Error(`button data over ${MAX_CALLBACK_DATA} bytes: ${data}`);
            return { text: button.label, callback_data: data };
          });
          const sent = await sender.call<{ message_id: number }>('sendMessage', {
            chat_id: Number(target.peerId),
            text: prompt.text.slice(0, TELEGRAM_MAX_MESSAGE),
            reply_markup: { inline_keyboard: [row] },
          });
          return { messageId: String(sent.message_id) };
        },
        settlePrompt: async (target, messageId, text) => {
          // Without reply_markup, editMessageText also takes the keyboard away.
          await sender.call('editMessageText', {
            chat_id: Number(target.peerId),
            message_id: Number(messageId),
            text: text.slice(0, TELEGRAM_MAX_MESSAGE),
          });
        },
      },
      agentTools: createTelegramAgentTools(sender),
      async dispose() {
        controller.abort(new Error('telegram channel stopped'));
        await running;
      },
    };
  },
});
