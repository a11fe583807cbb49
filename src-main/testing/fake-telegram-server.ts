import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { FakeTelegramChatTools } from './fake-telegram-chat-tools.js';

/**
 * Test support (never shipped): a Telegram Bot API server on loopback, speaking the real wire
 * (https://core.telegram.org/bots/api): `POST /bot<token>/<method>` with a JSON or form body (or
 * query parameters), answered `{ok:true,result}` or `{ok:false,error_code,description,parameters?}`
 * with the same HTTP status. It implements getMe, getUpdates (long poll; `offset` confirms every
 * update below it, as Telegram does), getFile and the file URL, sendMessage (with an inline keyboard),
 * editMessageText, editMessageReplyMarkup, answerCallbackQuery (button presses are `callback_query`
 * updates), sendChatAction, setWebhook (then
 * it POSTs each update to the webhook with its secret token, retrying a non-2xx) and deleteWebhook,
 * and checks MarkdownV2 the way Telegram does (reserved characters must be escaped), so a test
 * sees what a real bot would. Failures are injected per method: 429 with retry_after, any status,
 * a dropped long poll, a revoked token.
 */

export interface TelegramUser {
  id: number;
  is_bot: boolean;
  first_name: string;
  username?: string;
}
export interface TelegramChat {
  id: number;
  type: 'private' | 'group' | 'supergroup' | 'channel';
  title?: string;
  first_name?: string;
  username?: string;
}
export interface TelegramEntity {
  type: string;
  offset: number;
  length: number;
}
export interface TelegramMessage {
  message_id: number;
  from?: TelegramUser;
  chat: TelegramChat;
  date: number;
  text?: string;
  entities?: TelegramEntity[];
  reply_to_message?: TelegramMessage;
  edit_date?: number;
  caption?: string;
  photo?: { file_id: string; file_unique_id: string; width: number; height: number; file_size?: number }[];
  document?: { file_id: string; file_unique_id: string; file_name?: string; mime_type?: string; file_size?: number };
}
export interface TelegramInlineButton {
  text: string;
  callback_data?: string;
}
export interface TelegramCallbackQuery {
  id: string;
  from: TelegramUser;
  message?: TelegramMessage;
  chat_instance: string;
  data?: string;
}
export interface TelegramUpdate {
  update_id: number;
  message?: TelegramMessage;
  callback_query?: TelegramCallbackQuery;
}

export interface FakeTelegramCall {
  method: string;
  params: Record<string, unknown>;
  /** What the server answered. */
  status: number;
}

/** A message the bot sent, with every text it had (the first send, then each edit). */
export interface FakeBotMessage {
  chatId: number;
  messageId: number;
  text: string;
  parseMode?: string;
  versions: string[];
  /** The inline keyboard it has now (none once an edit took it away). */
  keyboard?: TelegramInlineButton[][];
  /** sendPhoto / sendDocument: the uploaded file and which method sent it. */
  file?: UploadedFile & { via: 'photo' | 'document' };
}

export interface UserMessageInput {
  chatId: number;
  from: { id: number; first_name: string; username?: string };
  text: string;
  chatType?: TelegramChat['type'];
  chatTitle?: string;
  /** Puts `@<bot username>` at the start of the text, with its mention entity. */
  mentionBot?: boolean;
  /** The bot message this one replies to. */
  replyToMessageId?: number;
}

export interface FakeTelegramServerOptions {
  token?: string;
  botUsername?: string;
}

export interface FakeTelegramServer {
  /** Base URL; the Bot API lives at `${url}/bot<token>/<method>`. */
  url: string;
  token: string;
  bot: TelegramUser;
  calls: FakeTelegramCall[];
  /** Reactions, pins and group members (the agent tools' methods). */
  chatTools: FakeTelegramChatTools;
  /** The highest offset a getUpdates confirmed (updates below it are gone). */
  readonly confirmedOffset: number;
  /** Queues a user's message as an update, as Telegram would; returns its update_id. */
  sendUserMessage(input: UserMessageInput): number;
  /** Queues a user's photo (`caption` optional) or document; the bytes are served by getFile + the file URL. */
  sendUserFile(input: {
    chatId: number;
    from: { id: number; first_name: string };
    bytes: Uint8Array;
    as: 'photo' | 'document';
    fileName?: string;
    mimeType?: string;
    caption?: string;
    /** The size Telegram reports (default: the real one), to test a file over a cap. */
    reportedSize?: number;
  }): number;
  /** Queues a press of an inline button of a bot message (a callback_query update); returns the query id. */
  pressButton(input: {
    chatId: number;
    messageId: number;
    from: { id: number; first_name: string; username?: string };
    data: string;
  }): string;
  /** answerCallbackQuery calls, by query id: the notice the presser saw. */
  callbackAnswers: Map<string, { text?: string }>;
  /** Queues a raw update (for malformed-update tests); the update_id is set by the server. */
  pushUpdate(update: Omit<TelegramUpdate, 'update_id'>): number;
  /** The first call (past or future) of `method` that satisfies `predicate`. */
  waitForCall(
    method: string,
    predicate?: (call: FakeTelegramCall) => boolean,
    timeoutMs?: number,
  ): Promise<FakeTelegramCall>;
  /** Resolves once some bot message in `chatId` satisfies `predicate`. */
  waitForBotMessage(
    chatId: number,
    predicate: (message: FakeBotMessage) => boolean,
    timeoutMs?: number,
  ): Promise<FakeBotMessage>;
  botMessages(chatId: number): FakeBotMessage[];
  /** The next call of `method` answers 429 with `retry_after` seconds. */
  rateLimitNext(method: string, retryAfterSeconds: number): void;
  /** The next call of `method` answers this status and description. */
  failNext(method: string, status: number, description: string): void;
  /** The next getUpdates is taken, then its connection destroyed before any answer (updates it held stay unconfirmed). */
  dropNextGetUpdates(): void;
  /** The webhook a setWebhook registered (url and secret_token), if any. */
  readonly webhook: { url: string; secretToken?: string } | undefined;
  /** Statuses the webhook answered, in order (each delivery attempt). */
  webhookDeliveries: { updateId: number; status: number }[];
  /** POSTs a raw body to the registered webhook with this secret header; resolves with the HTTP status. */
  postToWebhook(body: string, secretToken: string | undefined): Promise<number>;
  /** From now on every call answers 401 Unauthorized (a revoked or wrong token). */
  revokeToken(): void;
  close(): Promise<void>;
}

const RESERVED_ALWAYS = new Set(['>', '#', '+', '-', '=', '{', '}', '.', '!']);

/** Telegram's own check of a MarkdownV2 text; returns the error description it would give, or undefined. */
export function checkMarkdownV2(text: string): string | undefined {
  let inPre = false;
  let inCode = false;
  const counts: Record<string, number> = { '*': 0, _: 0, '~': 0, '|': 0 };
  let linkDepth = 0;
  let parenDepth = 0;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    if (ch === '\\') {
      i++;
      continue;
    }
    // Inside a link's (...) part Telegram asks only ')' and '\\' to be escaped: a URL's '#', '.'
    // or '-' are its own characters there.
    if (parenDepth > 0) {
      if (ch === ')') parenDepth--;
      continue;
    }
    if (text.startsWith('```', i)) {
      inPre = !inPre;
      i += 2;
      continue;
    }
    if (inPre) continue;
    if (ch === '`') {
      inCode = !inCode;
      continue;
    }
    if (inCode) continue;
    if (ch in counts) {
      counts[ch]!++;
      continue;
    }
    if (ch === '[') {
      linkDepth++;
      continue;
    }
    if (ch === ']') {
      if (linkDepth === 0)
        return `can't parse entities: Character ']' is reserved and must be escaped with the preceding '\\'`;
      linkDepth--;
      if (text[i + 1] === '(') {
        parenDepth++;
        i++;
      }
      continue;
    }
    if (ch === ')') {
      if (parenDepth === 0)
        return `can't parse entities: Character ')' is reserved and must be escaped with the preceding '\\'`;
      parenDepth--;
      continue;
    }
    if (ch === '(')
      return `can't parse entities: Character '(' is reserved and must be escaped with the preceding '\\'`;
    if (ch === '>' && (i === 0 || text[i - 1] === '\n')) continue;
    if (RESERVED_ALWAYS.has(ch))
      return `can't parse entities: Character '${ch}' is reserved and must be escaped with the preceding '\\'`;
  }
  if (inPre || inCode) return "can't parse entities: Can't find end of the entity starting at byte offset 0";
  for (const [marker, count] of Object.entries(counts))
    if (count % 2 !== 0) return `can't parse entities: Can't find end of ${marker} entity`;
  if (linkDepth !== 0 || parenDepth !== 0) return "can't parse entities: Can't find end of a URL entity";
  return undefined;
}

class ApiError extends Error {
  constructor(
    readonly status: number,
    description: string,
    readonly parameters?: Record<string, unknown>,
  ) {
    super(description);
  }
}

async function readParams(request: IncomingMessage, url: URL): Promise<Record<string, unknown>> {
  const params: Record<string, unknown> = Object.fromEntries(url.searchParams);
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  const raw = Buffer.concat(chunks);
  const body = raw.toString('utf8');
  if (!body) return params;
  const type = request.headers['content-type'] ?? '';
  // Uploads (sendPhoto, sendDocument): multipart/form-data, a file part as an UploadedFile.
  if (type.includes('multipart/form-data')) {
    const form = await new Response(raw, { headers: { 'content-type': type } }).formData();
    for (const [key, value] of form.entries())
      params[key] =
        typeof value === 'string'
          ? value
          : ({
              name: value.name,
              type: value.type,
              bytes: new Uint8Array(await value.arrayBuffer()),
            } satisfies UploadedFile);
    return params;
  }
  if (type.includes('application/json')) return { ...params, ...(JSON.parse(body) as Record<string, unknown>) };
  if (type.includes('application/x-www-form-urlencoded'))
    return { ...params, ...Object.fromEntries(new URLSearchParams(body)) };
  throw new ApiError(400, 'Bad Request: unsupported content type');
}

/** A file part of a multipart upload, as the fake received it. */
export interface UploadedFile {
  name: string;
  type: string;
  bytes: Uint8Array;
}

function numberParam(params: Record<string, unknown>, name: string): number | undefined {
  const value = params[name];
  if (value === undefined) return undefined;
  const n = typeof value === 'number' ? value : Number(value);
  if (!Number.isFinite(n)) throw new ApiError(400, `Bad Request: field "${name}" must be a number`);
  return n;
}

export async function startFakeTelegramServer(options: FakeTelegramServerOptions = {}): Promise<FakeTelegramServer> {
  const token = options.token ?? '123456:TEST-token_abcdefghijklmnopqrstuvwxyz';
  const bot: TelegramUser = {
    id: 123456,
    is_bot: true,
    first_name: 'Hearth',
    username: options.botUsername ?? 'hearth_test_bot',
  };
  const calls: FakeTelegramCall[] = [];
  const chatTools = new FakeTelegramChatTools();
  const callListeners = new Set<() => void>();
  const updates: TelegramUpdate[] = [];
  let nextUpdateId = 1000;
  let confirmedOffset = 0;
  let nextMessageId = 1;
  const botMessages: FakeBotMessage[] = [];
  const callbackQueries = new Set<string>();
  const callbackAnswers = new Map<string, { text?: string }>();
  let nextCallbackId = 1;
  /** Telegram's check of reply_markup: an inline keyboard of rows of buttons with 1–64 bytes of data. */
  const keyboardOf = (params: Record<string, unknown>): TelegramInlineButton[][] | undefined => {
    let markup = params.reply_markup;
    if (markup === undefined) return undefined;
    if (typeof markup === 'string') markup = JSON.parse(markup) as unknown;
    const rows = (markup as { inline_keyboard?: unknown }).inline_keyboard;
    if (!Array.isArray(rows)) throw new ApiError(400, 'Bad Request: unsupported reply_markup');
    for (const row of rows) {
      if (!Array.isArray(row)) throw new ApiError(400, 'Bad Request: inline keyboard rows must be arrays');
      for (const button of row as TelegramInlineButton[]) {
        if (typeof button?.text !== 'string' || button.text === '')
          throw new ApiError(400, 'Bad Request: inline keyboard button text is empty');
        const data = button.callback_data;
        if (typeof data !== 'string' || Buffer.byteLength(data) < 1 || Buffer.byteLength(data) > 64)
          throw new ApiError(400, 'Bad Request: BUTTON_DATA_INVALID');
      }
    }
    return rows.length > 0 ? (rows as TelegramInlineButton[][]) : undefined;
  };
  const files = new Map<string, { path: string; bytes: Uint8Array }>();
  const injected = new Map<string, { status: number; description: string; parameters?: Record<string, unknown> }[]>();
  let dropNextPoll = false;
  let revoked = false;
  let closed = false;
  let heldPoll: { wake: (error?: ApiError) => void } | undefined;
  let webhook: { url: string; secretToken?: string } | undefined;
  const webhookDeliveries: { updateId: number; status: number }[] = [];
  let delivering = false;
  let redeliverTimer: ReturnType<typeof setTimeout> | undefined;
  const sockets = new Set<import('node:net').Socket>();

  const notify = () => {
    for (const listener of [...callListeners]) listener();
  };
  const record = (method: string, params: Record<string, unknown>, status: number) => {
    calls.push({ method, params, status });
    notify();
  };
  const postToWebhook = async (body: string, secretToken: string | undefined) => {
    if (!webhook) throw new Error('fake Telegram: no webhook is set');
    const response = await fetch(webhook.url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        ...(secretToken !== undefined ? { 'x-telegram-bot-api-secret-token': secretToken } : {}),
      },
      body,
    });
    await response.text();
    return response.status;
  };
  /** Telegram's webhook delivery: one update at a time, in order; a non-2xx answer is retried. */
  const deliverWebhooks = async () => {
    if (delivering || !webhook || closed) return;
    delivering = true;
    try {
      while (webhook && updates.length > 0 && !closed) {
        const update = updates[0]!;
        const status = await postToWebhook(JSON.stringify(update), webhook.secretToken).catch(() => 0);
        webhookDeliveries.push({ updateId: update.update_id, status });
        notify();
        if (status < 200 || status >= 300) {
          redeliverTimer = setTimeout(() => void deliverWebhooks(), 100);
          return;
        }
        updates.shift();
      }
    } finally {
      delivering = false;
    }
  };
  const wakePoll = () => {
    heldPoll?.wake();
    if (webhook) void deliverWebhooks();
  };

  const messageOf = (chatId: number, messageId: number) =>
    botMessages.find((m) => m.chatId === chatId && m.messageId === messageId);

  const checkText = (params: Record<string, unknown>) => {
    const text = params.text;
    if (typeof text !== 'string' || text.length === 0) throw new ApiError(400, 'Bad Request: message text is empty');
    if (text.length > 4096) throw new ApiError(400, 'Bad Request: message is too long');
    if (params.parse_mode === 'MarkdownV2') {
      const problem = checkMarkdownV2(text);
      if (problem) throw new ApiError(400, `Bad Request: ${problem}`);
    }
    return text;
  };
  const chatIdOf = (params: Record<string, unknown>) => {
    const chatId = numberParam(params, 'chat_id');
    if (chatId === undefined) throw new ApiError(400, 'Bad Request: chat_id is empty');
    return chatId;
  };

  const pendingFrom = (offset: number | undefined, limit: number) => {
    if (offset !== undefined && offset > confirmedOffset) {
      confirmedOffset = offset;
      while (updates.length > 0 && updates[0]!.update_id < offset) updates.shift();
    }
    return updates.slice(0, limit);
  };

  async function getUpdates(params: Record<string, unknown>, response: ServerResponse): Promise<unknown> {
    const offset = numberParam(params, 'offset');
    const limit = Math.min(Math.max(numberParam(params, 'limit') ?? 100, 1), 100);
    const timeoutSeconds = Math.max(numberParam(params, 'timeout') ?? 0, 0);
    // Telegram ends the older of two concurrent long polls with 409.
    heldPoll?.wake(
      new ApiError(
        409,
        'Conflict: terminated by other getUpdates request; make sure that only one bot instance is running',
      ),
    );
    let batch = pendingFrom(offset, limit);
    if (batch.length === 0 && timeoutSeconds > 0 && !closed) {
      await new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => done(), timeoutSeconds * 1000);
        const mine = {
          wake: (error?: ApiError) => {
            if (error) {
              clearTimeout(timer);
              if (heldPoll === mine) heldPoll = undefined;
              reject(error);
            } else done();
          },
        };
        function done() {
          clearTimeout(timer);
          if (heldPoll === mine) heldPoll = undefined;
          resolve();
        }
        heldPoll = mine;
        response.on('close', () => {
          if (!response.writableEnded) done();
        });
      });
      batch = pendingFrom(undefined, limit);
    }
    return batch;
  }

  async function handle(method: string, params: Record<string, unknown>, response: ServerResponse): Promise<unknown> {
    if (revoked) throw new ApiError(401, 'Unauthorized');
    const queued = injected.get(method)?.shift();
    if (queued) throw new ApiError(queued.status, queued.description, queued.parameters);
    switch (method) {
      case 'getMe':
        return bot;
      case 'deleteWebhook':
        webhook = undefined;
        return true;
      case 'setWebhook': {
        if (typeof params.url !== 'string' || !/^https?:\/\//.test(params.url))
          throw new ApiError(400, 'Bad Request: bad webhook: An HTTPS URL must be provided for webhook');
        webhook = {
          url: params.url,
          ...(typeof params.secret_token === 'string' ? { secretToken: params.secret_token } : {}),
        };
        setImmediate(() => void deliverWebhooks());
        return true;
      }
      case 'getUpdates':
        if (webhook)
          throw new ApiError(
            409,
            "Conflict: can't use getUpdates method while webhook is active; use deleteWebhook to delete the webhook first",
          );
        return getUpdates(params, response);
      case 'getFile': {
        const file = typeof params.file_id === 'string' ? files.get(params.file_id) : undefined;
        if (!file) throw new ApiError(400, 'Bad Request: invalid file_id');
        return {
          file_id: params.file_id,
          file_unique_id: params.file_id,
          file_size: file.bytes.length,
          file_path: file.path,
        };
      }
      case 'sendChatAction':
        chatIdOf(params);
        if (typeof params.action !== 'string') throw new ApiError(400, 'Bad Request: action is empty');
        return true;
      case 'sendMessage': {
        const chatId = chatIdOf(params);
        const text = checkText(params);
        const keyboard = keyboardOf(params);
        const message: FakeBotMessage = {
          chatId,
          messageId: nextMessageId++,
          text,
          parseMode: params.parse_mode as string | undefined,
          versions: [text],
          ...(keyboard ? { keyboard } : {}),
        };
        botMessages.push(message);
        return {
          message_id: message.messageId,
          from: bot,
          chat: { id: chatId, type: chatId < 0 ? 'supergroup' : 'private' },
          date: Math.floor(Date.now() / 1000),
          text,
        } satisfies TelegramMessage;
      }
      case 'sendPhoto':
      case 'sendDocument': {
        // Bot API upload limits: a photo up to 10 MB, any other file up to 50 MB.
        const chatId = chatIdOf(params);
        const field = method === 'sendPhoto' ? 'photo' : 'document';
        const file = params[field] as UploadedFile | undefined;
        if (!file || typeof file !== 'object' || !(file.bytes instanceof Uint8Array))
          throw new ApiError(400, `Bad Request: there is no ${field} in the request`);
        const limit = method === 'sendPhoto' ? 10 * 1024 * 1024 : 50 * 1024 * 1024;
        if (file.bytes.length > limit) throw new ApiError(413, 'Request Entity Too Large');
        const caption = typeof params.caption === 'string' ? params.caption : '';
        if (caption.length > 1024) throw new ApiError(400, 'Bad Request: message caption is too long');
        const message: FakeBotMessage = {
          chatId,
          messageId: nextMessageId++,
          text: caption,
          parseMode: params.parse_mode as string | undefined,
          versions: [caption],
          file: { ...file, via: field },
        };
        botMessages.push(message);
        return {
          message_id: message.messageId,
          from: bot,
          chat: { id: chatId, type: chatId < 0 ? 'supergroup' : 'private' },
          date: Math.floor(Date.now() / 1000),
          ...(caption ? { caption } : {}),
        };
      }
      case 'editMessageText': {
        const chatId = chatIdOf(params);
        const messageId = numberParam(params, 'message_id');
        const message = messageId === undefined ? undefined : messageOf(chatId, messageId);
        if (!message) throw new ApiError(400, 'Bad Request: message to edit not found');
        const text = checkText(params);
        if (text === message.text && params.parse_mode === message.parseMode)
          throw new ApiError(
            400,
            'Bad Request: message is not modified: specified new message content and reply markup are exactly the same as a current content and reply markup of the message',
          );
        message.text = text;
        message.parseMode = params.parse_mode as string | undefined;
        message.versions.push(text);
        // As Telegram: an edit without reply_markup leaves the message without a keyboard.
        message.keyboard = keyboardOf(params);
        return {
          message_id: message.messageId,
          from: bot,
          chat: { id: chatId, type: chatId < 0 ? 'supergroup' : 'private' },
          date: Math.floor(Date.now() / 1000),
          edit_date: Math.floor(Date.now() / 1000),
          text,
        } satisfies TelegramMessage;
      }
      case 'editMessageReplyMarkup': {
        const chatId = chatIdOf(params);
        const messageId = numberParam(params, 'message_id');
        const message = messageId === undefined ? undefined : messageOf(chatId, messageId);
        if (!message) throw new ApiError(400, 'Bad Request: message to edit not found');
        message.keyboard = keyboardOf(params);
        return true;
      }
      case 'answerCallbackQuery': {
        const id = params.callback_query_id;
        if (typeof id !== 'string' || !callbackQueries.has(id))
          throw new ApiError(400, 'Bad Request: query is too old and response timeout expired or query ID is invalid');
        callbackQueries.delete(id);
        callbackAnswers.set(id, typeof params.text === 'string' ? { text: params.text } : {});
        return true;
      }
      default: {
        const answer = chatTools.handle(method, params);
        if (!answer) throw new ApiError(404, 'Not Found');
        if ('error' in answer) throw new ApiError(answer.error[0], answer.error[1]);
        return answer.result;
      }
    }
  }

  const server: Server = createServer((request, response) => {
    void (async () => {
      const url = new URL(request.url ?? '/', 'http://127.0.0.1');
      const download = /^\/file\/bot([^/]+)\/(.+)$/.exec(url.pathname);
      if (download) {
        const file = [...files.values()].find((f) => f.path === download[2]);
        record('file', { path: download[2] }, download[1] === token && file ? 200 : 404);
        if (download[1] !== token || !file) {
          response.writeHead(404, { 'content-type': 'application/json' });
          response.end(JSON.stringify({ ok: false, error_code: 404, description: 'Not Found' }));
          return;
        }
        response.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': file.bytes.length });
        response.end(file.bytes);
        return;
      }
      const match = /^\/bot([^/]+)\/([A-Za-z]+)$/.exec(url.pathname);
      let method = 'unknown';
      let params: Record<string, unknown> = {};
      try {
        if (!match) throw new ApiError(404, 'Not Found');
        method = match[2]!;
        if (match[1] !== token) throw new ApiError(401, 'Unauthorized');
        params = await readParams(request, url);
        if (method === 'getUpdates' && dropNextPoll) {
          dropNextPoll = false;
          record(method, params, 0);
          request.socket.destroy();
          return;
        }
        const result = await handle(method, params, response);
        if (response.destroyed) return;
        record(method, params, 200);
        response.writeHead(200, { 'content-type': 'application/json' });
        response.end(JSON.stringify({ ok: true, result }));
      } catch (error) {
        const apiError =
          error instanceof ApiError ? error : new ApiError(500, `Internal Server Error: ${String(error)}`);
        record(method, params, apiError.status);
        if (response.destroyed) return;
        response.writeHead(apiError.status, { 'content-type': 'application/json' });
        response.end(
          JSON.stringify({
            ok: false,
            error_code: apiError.status,
            description: apiError.message,
            ...(apiError.parameters ? { parameters: apiError.parameters } : {}),
          }),
        );
      }
    })();
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  const queueUpdate = (update: Omit<TelegramUpdate, 'update_id'>) => {
    const update_id = nextUpdateId++;
    updates.push({ update_id, ...update });
    wakePoll();
    return update_id;
  };

  let nextUserMessageId = 10_000;
  const waitUntil = <T>(find: () => T | undefined, timeoutMs: number, what: string) =>
    new Promise<T>((resolve, reject) => {
      const found = find();
      if (found !== undefined) return resolve(found);
      const timer = setTimeout(() => {
        callListeners.delete(check);
        reject(
          new Error(
            `fake Telegram: timed out waiting for ${what}; calls: ${calls.map((c) => `${c.method}(${c.status})`).join(', ')}`,
          ),
        );
      }, timeoutMs);
      function check() {
        const value = find();
        if (value === undefined) return;
        clearTimeout(timer);
        callListeners.delete(check);
        resolve(value);
      }
      callListeners.add(check);
    });

  return {
    url: `http://127.0.0.1:${port}`,
    token,
    bot,
    calls,
    chatTools,
    get confirmedOffset() {
      return confirmedOffset;
    },
    get webhook() {
      return webhook;
    },
    webhookDeliveries,
    postToWebhook,
    sendUserMessage(input) {
      const chat: TelegramChat =
        (input.chatType ?? 'private') === 'private'
          ? { id: input.chatId, type: 'private', first_name: input.from.first_name, username: input.from.username }
          : { id: input.chatId, type: input.chatType!, title: input.chatTitle ?? 'A group' };
      const mention = `@${bot.username}`;
      const text = input.mentionBot ? `${mention} ${input.text}` : input.text;
      const replied =
        input.replyToMessageId !== undefined ? messageOf(input.chatId, input.replyToMessageId) : undefined;
      return queueUpdate({
        message: {
          message_id: nextUserMessageId++,
          from: { id: input.from.id, is_bot: false, first_name: input.from.first_name, username: input.from.username },
          chat,
          date: Math.floor(Date.now() / 1000),
          text,
          ...(input.mentionBot ? { entities: [{ type: 'mention', offset: 0, length: mention.length }] } : {}),
          ...(replied
            ? {
                reply_to_message: {
                  message_id: replied.messageId,
                  from: bot,
                  chat,
                  date: Math.floor(Date.now() / 1000),
                  text: replied.text,
                },
              }
            : {}),
        },
      });
    },
    sendUserFile(input) {
      const fileId = `file-${files.size + 1}`;
      const path = `${input.as === 'photo' ? 'photos' : 'documents'}/${fileId}${input.as === 'photo' ? '.jpg' : ''}`;
      files.set(fileId, { path, bytes: input.bytes });
      const size = input.reportedSize ?? input.bytes.length;
      const chat: TelegramChat = { id: input.chatId, type: 'private', first_name: input.from.first_name };
      return queueUpdate({
        message: {
          message_id: nextUserMessageId++,
          from: { id: input.from.id, is_bot: false, first_name: input.from.first_name },
          chat,
          date: Math.floor(Date.now() / 1000),
          ...(input.caption !== undefined ? { caption: input.caption } : {}),
          ...(input.as === 'photo'
            ? {
                photo: [
                  { file_id: `${fileId}-thumb`, file_unique_id: `${fileId}-t`, width: 90, height: 90, file_size: 10 },
                  { file_id: fileId, file_unique_id: fileId, width: 800, height: 600, file_size: size },
                ],
              }
            : {
                document: {
                  file_id: fileId,
                  file_unique_id: fileId,
                  ...(input.fileName ? { file_name: input.fileName } : {}),
                  ...(input.mimeType ? { mime_type: input.mimeType } : {}),
                  file_size: size,
                },
              }),
        },
      });
    },
    callbackAnswers,
    pressButton(input) {
      const message = messageOf(input.chatId, input.messageId);
      if (!message) throw new Error(`fake Telegram: no bot message ${input.messageId} in chat ${input.chatId}`);
      const id = String(nextCallbackId++);
      callbackQueries.add(id);
      queueUpdate({
        callback_query: {
          id,
          from: { id: input.from.id, is_bot: false, first_name: input.from.first_name, username: input.from.username },
          chat_instance: `instance-${input.chatId}`,
          data: input.data,
          message: {
            message_id: message.messageId,
            from: bot,
            chat: { id: input.chatId, type: input.chatId < 0 ? 'supergroup' : 'private' },
            date: Math.floor(Date.now() / 1000),
            text: message.text,
          },
        },
      });
      return id;
    },
    pushUpdate: queueUpdate,
    waitForCall: (method, predicate = () => true, timeoutMs = 20_000) =>
      waitUntil(() => calls.find((c) => c.method === method && predicate(c)), timeoutMs, `a ${method} call`),
    waitForBotMessage: (chatId, predicate, timeoutMs = 20_000) =>
      waitUntil(
        () => botMessages.find((m) => m.chatId === chatId && predicate(m)),
        timeoutMs,
        `a bot message in chat ${chatId}`,
      ),
    botMessages: (chatId) => botMessages.filter((m) => m.chatId === chatId),
    rateLimitNext(method, retryAfterSeconds) {
      const list = injected.get(method) ?? [];
      list.push({
        status: 429,
        description: `Too Many Requests: retry after ${retryAfterSeconds}`,
        parameters: { retry_after: retryAfterSeconds },
      });
      injected.set(method, list);
    },
    failNext(method, status, description) {
      const list = injected.get(method) ?? [];
      list.push({ status, description });
      injected.set(method, list);
    },
    dropNextGetUpdates() {
      dropNextPoll = true;
    },
    revokeToken() {
      revoked = true;
      heldPoll?.wake(new ApiError(401, 'Unauthorized'));
    },
    close: () =>
      new Promise<void>((resolve) => {
        closed = true;
        if (redeliverTimer) clearTimeout(redeliverTimer);
        heldPoll?.wake();
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
