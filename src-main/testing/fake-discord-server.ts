import { randomBytes } from 'node:crypto';
import { EventEmitter } from 'node:events';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type WebSocket, WebSocketServer } from 'ws';
import { FakeDiscordChatTools } from './fake-discord-chat-tools.js';
import { applicationCommandsFault } from './fake-discord-commands.js';

/**
 * Test support (never shipped): Discord's REST API v10 and Gateway on loopback, built from the
 * published shapes (https://discord.com/developers/docs). REST under `${url}` (= `…/api/v10`) with
 * `Authorization: Bot <token>`: `GET /users/@me`, `GET /gateway/bot`, `POST /channels/{id}/messages`
 * (JSON, or multipart with `payload_json` + `files[n]`), `PATCH /channels/{id}/messages/{id}`,
 * `POST /channels/{id}/typing`; errors as `{message, code}`, 429 as `{message, retry_after, global}`
 * plus `Retry-After`. Attachments are served without auth, as Discord's CDN does. The Gateway at
 * `gatewayUrl` (`?v=10&encoding=json`): HELLO, heartbeat ACKs, IDENTIFY → READY (close 4004 for a
 * bad token), dispatches with sequence numbers, RESUME replaying what the session missed then
 * RESUMED (INVALID_SESSION for an unknown session). Failures are injected: a 429 once, a dropped
 * connection, a RECONNECT request, a revoked token.
 *
 * Message components (https://discord.com/developers/docs/interactions/message-components): a
 * message's `components` (action rows of at most 5 buttons, each with a label of at most 80 and a
 * `custom_id` of at most 100 characters, unique in the message) are checked as Discord checks them
 * (400 50035 Invalid Form Body) and kept; a PATCH with `components` replaces them. `pressButton`
 * dispatches INTERACTION_CREATE (type 3) as Discord does, with an interaction token; the bot
 * answers once with `POST /interactions/{id}/{token}/callback` (authenticated by the token in the
 * path, not the bot token; 10062 Unknown interaction, 40060 already acknowledged). Type 7 updates
 * the message; type 4 with flag 64 is an ephemeral message only the presser sees.
 *
 * Application commands (https://discord.com/developers/docs/interactions/application-commands):
 * `GET /applications/@me`; `PUT /applications/{id}/commands` and
 * `PUT /applications/{id}/guilds/{guild}/commands` (bulk overwrite, checked as Discord checks
 * them, a command keeping its id across overwrites). `invokeCommand` dispatches INTERACTION_CREATE
 * type 2 for a registered command, as a client would send it; the bot answers with type 4
 * (message) or 5 (deferred: a "thinking…" message), then edits and follows up through the
 * interaction webhook (`PATCH|GET|DELETE /webhooks/{app}/{token}/messages/@original|{id}`,
 * `POST /webhooks/{app}/{token}`, JSON or multipart), authenticated by the token in the path.
 */

export interface DiscordUser {
  id: string;
  username: string;
  global_name?: string | null;
  bot?: boolean;
}

export interface DiscordAttachment {
  id: string;
  filename: string;
  size: number;
  url: string;
  proxy_url: string;
  content_type?: string;
}

export interface FakeDiscordCall {
  method: string;
  path: string;
  body: Record<string, unknown> | undefined;
  status: number;
  /** Multipart uploads: the files' names and bytes. */
  files?: { name: string; bytes: Uint8Array; type: string }[];
}

/** A frame the client sent on the gateway. */
export interface GatewayFrame {
  op: number;
  d: unknown;
  connection: number;
}

/** A message the bot sent, with every content it had (the create, then each edit). */
export interface FakeBotMessage {
  id: string;
  channelId: string;
  content: string;
  versions: string[];
  /** Action rows with their buttons, as last sent (empty when none). */
  components: FakeActionRow[];
  replyTo?: string;
  allowedMentions?: unknown;
  files: { name: string; bytes: Uint8Array; type: string }[];
  /** Sent as an interaction's response (`original`) or through its webhook (`followUp`). */
  interaction?: { id: string; role: 'original' | 'followUp' };
  /** A response only the invoking user sees (flag 64). */
  ephemeral?: boolean;
  /** A deferred response still "thinking…" (until the first edit). */
  thinking?: boolean;
}

/** An application command as registered, with the id Discord gave it. */
export interface FakeApplicationCommand {
  id: string;
  name: string;
  description: string;
  type: number;
  options?: {
    type: number;
    name: string;
    description: string;
    required?: boolean;
    choices?: { name: string; value: unknown }[];
  }[];
  [key: string]: unknown;
}

export interface FakeButton {
  type: 2;
  style: number;
  label?: string;
  custom_id?: string;
  url?: string;
  disabled?: boolean;
}
export interface FakeActionRow {
  type: 1;
  components: FakeButton[];
}

/** A press of a button on a bot message, and what the bot answered to it. */
export interface FakeInteraction {
  id: string;
  token: string;
  messageId: string;
  customId: string;
  userId: string;
  /** The bot's initial response (`{type, data}`), once it answered. */
  response?: { type: number; data?: Record<string, unknown> };
  /** `command` for a slash command (type 2); else a component press. */
  kind?: 'component' | 'command';
  channelId?: string;
  /** The response message (type 4 or 5), deleted: the bot took it back. */
  originalDeleted?: boolean;
}

export interface UserMessageInput {
  /** The guild channel or thread; for a DM (no `guildId`) the author's DM channel is used. */
  channelId?: string;
  /** Set: a guild channel or thread; absent: a DM. */
  guildId?: string;
  author: { id: string; username: string; global_name?: string };
  content: string;
  /** Puts `<@botId>` at the start of the content, and the bot in `mentions`. */
  mentionBot?: boolean;
  /** A bot message this one replies to (type 19, `referenced_message`). */
  replyToMessageId?: string;
  attachments?: { bytes: Uint8Array; filename: string; contentType?: string; reportedSize?: number }[];
}

export interface FakeDiscordServer {
  /** Reactions, pins and guild members (the agent tools' routes). */
  chatTools: FakeDiscordChatTools;
  /** REST base, version included: `http://127.0.0.1:<port>/api/v10`. */
  url: string;
  gatewayUrl: string;
  token: string;
  bot: DiscordUser;
  calls: FakeDiscordCall[];
  frames: GatewayFrame[];
  /** Gateway connections opened so far. */
  readonly connections: number;
  /** Queues MESSAGE_CREATE in the current session (delivered now, or on RESUME); returns the message id. */
  sendUserMessage(input: UserMessageInput): string;
  botMessages(channelId: string): FakeBotMessage[];
  /** The DM channel between the bot and a user (where their DMs and the bot's answers go). */
  dmChannelOf(userId: string): string;
  waitForBotMessage(
    channelId: string,
    test: (m: FakeBotMessage) => boolean,
    timeoutMs?: number,
  ): Promise<FakeBotMessage>;
  waitForCall(test: (c: FakeDiscordCall) => boolean, timeoutMs?: number): Promise<FakeDiscordCall>;
  waitForFrame(test: (f: GatewayFrame) => boolean, timeoutMs?: number): Promise<GatewayFrame>;
  /** The next REST call matching `method path-prefix` answers 429 once, with retry_after in the body or only the header. */
  rateLimitNext(method: string, pathPattern: RegExp, retryAfterSeconds: number, via?: 'body' | 'header'): void;
  /** Cuts every gateway connection without a close frame (the client sees 1006). */
  dropConnection(): void;
  /** Sends op 7 RECONNECT on every connection. */
  requestReconnect(): void;
  /** The token stops working: REST answers 401, the gateway closes 4004 at IDENTIFY or RESUME. */
  revokeToken(): void;
  /**
   * A person presses the button labelled `label` on a bot message: INTERACTION_CREATE in the
   * current session (a guild member's press when the message is in `guildId`'s channel, else a
   * DM user's). Returns the interaction; its `response` is set when the bot answers.
   */
  pressButton(input: {
    messageId: string;
    /** The button's label on the message as it is now. */
    label?: string;
    /** Instead of `label`: a press on a view from before an edit (a press racing the edit, as Discord delivers it). */
    customId?: string;
    user: { id: string; username: string; global_name?: string };
    guildId?: string;
  }): FakeInteraction;
  /** Resolves once the bot answered the interaction. */
  waitForInteractionResponse(id: string, timeoutMs?: number): Promise<FakeInteraction>;
  /** The commands registered globally, or in `guildId` (undefined: none registered there yet). */
  registeredCommands(guildId?: string): FakeApplicationCommand[] | undefined;
  /**
   * A person uses a slash command: INTERACTION_CREATE type 2 in the current session, in their DM
   * with the bot, or in `channelId` of `guildId`. Throws unless the command is registered there
   * (globally, or in that guild), as a client only offers registered commands.
   */
  invokeCommand(input: {
    name: string;
    options?: Record<string, string>;
    user: { id: string; username: string; global_name?: string };
    guildId?: string;
    channelId?: string;
  }): FakeInteraction;
  /** The response message of an interaction (its deferred or first message), as it is now. */
  originalOf(interactionId: string): FakeBotMessage | undefined;
  close(): Promise<void>;
}

interface Session {
  id: string;
  seq: number;
  events: { s: number; t: string; d: unknown }[];
  socket?: WebSocket;
}

export async function startFakeDiscordServer(
  options: { token?: string; botUsername?: string; heartbeatIntervalMs?: number } = {},
): Promise<FakeDiscordServer> {
  const token = options.token ?? `MTA${randomBytes(18).toString('base64url')}.Gh${randomBytes(4).toString('hex')}`;
  let revoked = false;
  const bot: DiscordUser = {
    id: '1100000000000000001',
    username: options.botUsername ?? 'hearth_test_bot',
    global_name: null,
    bot: true,
  };
  const calls: FakeDiscordCall[] = [];
  const chatTools = new FakeDiscordChatTools();
  const frames: GatewayFrame[] = [];
  const messages: FakeBotMessage[] = [];
  const files = new Map<string, { bytes: Uint8Array; type: string }>();
  const sessions = new Map<string, Session>();
  let current: Session | undefined;
  const sockets = new Set<WebSocket>();
  const rateLimits: { method: string; pattern: RegExp; seconds: number; via: 'body' | 'header' }[] = [];
  const interactions = new Map<string, FakeInteraction>();
  /** Registered commands by scope: `global` or a guild id. */
  const commandSets = new Map<string, FakeApplicationCommand[]>();
  const originals = new Map<string, FakeBotMessage>();
  const changes = new EventEmitter();
  changes.setMaxListeners(0);
  let nextId = 1_200_000_000_000_000_000n;
  const snowflake = () => String(nextId++);
  let connections = 0;
  let origin = '';

  const dmChannels = new Map<string, string>();
  /** A person's DM channel with the bot (the same one their DMs come from). */
  const dmChannelOf = (userId: string) => {
    let id = dmChannels.get(userId);
    if (!id) {
      id = snowflake();
      dmChannels.set(userId, id);
    }
    return id;
  };
  const notify = () => changes.emit('change');
  const waitFor = <T>(find: () => T | undefined, what: string, timeoutMs = 20_000): Promise<T> =>
    new Promise((resolve, reject) => {
      const check = () => {
        const found = find();
        if (found === undefined) return;
        cleanup();
        resolve(found);
      };
      const timer = setTimeout(() => {
        cleanup();
        reject(new Error(`fake Discord: timed out waiting for ${what}`));
      }, timeoutMs);
      const cleanup = () => {
        clearTimeout(timer);
        changes.off('change', check);
      };
      changes.on('change', check);
      check();
    });

  const send = (socket: WebSocket | undefined, payload: Record<string, unknown>) => {
    if (socket && socket.readyState === socket.OPEN) socket.send(JSON.stringify(payload));
  };
  const dispatch = (session: Session, t: string, d: unknown) => {
    session.seq += 1;
    session.events.push({ s: session.seq, t, d });
    send(session.socket, { op: 0, s: session.seq, t, d });
  };

  const answer = (res: ServerResponse, status: number, body?: unknown, headers: Record<string, string> = {}) => {
    if (body === undefined) {
      res.writeHead(status, headers).end();
      return;
    }
    res.writeHead(status, { 'content-type': 'application/json', ...headers }).end(JSON.stringify(body));
  };

  /** Discord's checks of `components` (undefined: valid); the message names the first fault. */
  const componentsFault = (components: unknown): string | undefined => {
    if (!Array.isArray(components)) return 'components: must be an array';
    if (components.length > 5) return 'components: at most 5 action rows';
    const ids = new Set<string>();
    for (const [r, row] of (components as { type?: unknown; components?: unknown }[]).entries()) {
      if (row?.type !== 1) return `components.${r}.type: an action row (1) is expected at the top level`;
      if (!Array.isArray(row.components) || row.components.length === 0 || row.components.length > 5)
        return `components.${r}.components: 1 to 5 buttons`;
      for (const [b, button] of (row.components as Record<string, unknown>[]).entries()) {
        const at = `components.${r}.components.${b}`;
        if (button?.type !== 2) return `${at}.type: a button (2) is expected`;
        const style = button.style;
        if (typeof style !== 'number' || style < 1 || style > 6) return `${at}.style: 1 to 6`;
        if (typeof button.label === 'string' && button.label.length > 80) return `${at}.label: at most 80`;
        if (style === 5) {
          if (typeof button.url !== 'string') return `${at}.url: a link button needs a url`;
          continue;
        }
        const id = button.custom_id;
        if (typeof id !== 'string' || id === '' || id.length > 100) return `${at}.custom_id: 1 to 100 characters`;
        if (ids.has(id)) return `${at}.custom_id: must be unique in the message`;
        ids.add(id);
      }
    }
    return undefined;
  };

  async function handle(req: IncomingMessage, res: ServerResponse) {
    const url = new URL(req.url ?? '/', origin);
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const raw = Buffer.concat(chunks);
    const method = req.method ?? 'GET';
    if (method === 'GET' && url.pathname.startsWith('/attachments/')) {
      const file = files.get(url.pathname);
      calls.push({ method, path: url.pathname, body: undefined, status: file ? 200 : 404 });
      notify();
      if (!file) return answer(res, 404, { message: 'Not Found', code: 0 });
      res.writeHead(200, { 'content-type': file.type }).end(Buffer.from(file.bytes));
      return;
    }
    if (!url.pathname.startsWith('/api/v10/')) return answer(res, 404, { message: '404: Not Found', code: 0 });
    const path = url.pathname.slice('/api/v10'.length);
    let body: Record<string, unknown> | undefined;
    let uploaded: FakeDiscordCall['files'];
    const contentType = req.headers['content-type'] ?? '';
    if (raw.length > 0) {
      if (contentType.startsWith('multipart/form-data')) {
        const form = await new Response(raw, { headers: { 'content-type': contentType } }).formData();
        body = JSON.parse(String(form.get('payload_json') ?? '{}')) as Record<string, unknown>;
        uploaded = [];
        for (const [key, value] of form.entries())
          if (/^files\[\d+\]$/.test(key) && typeof value !== 'string')
            uploaded.push({ name: value.name, type: value.type, bytes: new Uint8Array(await value.arrayBuffer()) });
      } else {
        try {
          body = JSON.parse(raw.toString('utf8')) as Record<string, unknown>;
        } catch {
          return answer(res, 400, { message: '400: Bad Request', code: 50109 });
        }
      }
    }
    const record = (status: number) => {
      calls.push({ method, path, body, status, ...(uploaded ? { files: uploaded } : {}) });
      notify();
    };
    const callback = /^\/interactions\/(\d+)\/([^/]+)\/callback$/.exec(path);
    if (method === 'POST' && callback) {
      // Authenticated by the interaction token in the path, as Discord does; no bot token needed.
      const interaction = interactions.get(callback[1]!);
      if (!interaction || interaction.token !== callback[2]) {
        record(404);
        return answer(res, 404, { message: 'Unknown interaction', code: 10062 });
      }
      if (interaction.response) {
        record(400);
        return answer(res, 400, { message: 'Interaction has already been acknowledged.', code: 40060 });
      }
      const type = body?.type;
      const data = (body?.data ?? undefined) as Record<string, unknown> | undefined;
      // A component interaction takes 4 (message), 5 (deferred message), 6 (deferred update), 7 (update), 9 (modal);
      // a command 4, 5 or 9 (there is no message of its own to update).
      const allowed = interaction.kind === 'command' ? [4, 5, 9] : [4, 5, 6, 7, 9];
      if (typeof type !== 'number' || !allowed.includes(type)) {
        record(400);
        return answer(res, 400, { message: 'Invalid Form Body', code: 50035, errors: { type: 'invalid' } });
      }
      if (data?.components !== undefined) {
        const fault = componentsFault(data.components);
        if (fault) {
          record(400);
          return answer(res, 400, { message: 'Invalid Form Body', code: 50035, errors: { detail: fault } });
        }
      }
      if ((type === 4 || type === 7) && typeof data?.content === 'string' && data.content.length > 2000) {
        record(400);
        return answer(res, 400, { message: 'Invalid Form Body', code: 50035 });
      }
      if (type === 7) {
        const message = messages.find((m) => m.id === interaction.messageId);
        if (message) {
          if (typeof data?.content === 'string') {
            message.content = data.content;
            message.versions.push(data.content);
          }
          if (data?.components !== undefined) message.components = data.components as FakeActionRow[];
        }
      }
      if (interaction.kind === 'command' && (type === 4 || type === 5)) {
        const content = type === 4 && typeof data?.content === 'string' ? data.content : '';
        const flags = typeof data?.flags === 'number' ? data.flags : 0;
        const message: FakeBotMessage = {
          id: snowflake(),
          channelId: interaction.channelId!,
          content,
          versions: [content],
          components: [],
          allowedMentions: data?.allowed_mentions,
          files: [],
          interaction: { id: interaction.id, role: 'original' },
          ...((flags & 64) !== 0 ? { ephemeral: true } : {}),
          ...(type === 5 ? { thinking: true } : {}),
        };
        messages.push(message);
        originals.set(interaction.id, message);
      }
      interaction.response = { type, ...(data ? { data } : {}) };
      record(204);
      return answer(res, 204);
    }
    const hook = /^\/webhooks\/(\d+)\/([^/]+)(?:\/messages\/(@original|\d+))?$/.exec(path);
    if (hook) {
      // The interaction webhook: authenticated by the interaction token in the path (valid 15 min).
      const interaction = [...interactions.values()].find((i) => i.token === hook[2]);
      const reply = (status: number, result?: unknown) => {
        record(status);
        answer(res, status, result);
      };
      if (!interaction || hook[1] !== bot.id) return reply(404, { message: 'Unknown Webhook', code: 10015 });
      if (!interaction.response) return reply(404, { message: 'Unknown Webhook', code: 10015 });
      const shape = (m: FakeBotMessage) => ({
        id: m.id,
        channel_id: m.channelId,
        content: m.content,
        author: bot,
        attachments: m.files.map((f, i) => ({ id: String(i), filename: f.name, size: f.bytes.length })),
        flags: m.ephemeral ? 64 : 0,
      });
      const content = typeof body?.content === 'string' ? body.content : undefined;
      if (content !== undefined && content.length > 2000)
        return reply(400, { message: 'Invalid Form Body', code: 50035 });
      if (method === 'POST' && !hook[3]) {
        if (!content && !uploaded?.length) return reply(400, { message: 'Cannot send an empty message', code: 50006 });
        const message: FakeBotMessage = {
          id: snowflake(),
          channelId: interaction.channelId ?? '',
          content: content ?? '',
          versions: [content ?? ''],
          components: [],
          allowedMentions: body?.allowed_mentions,
          files: uploaded ?? [],
          interaction: { id: interaction.id, role: 'followUp' },
        };
        messages.push(message);
        return reply(200, shape(message));
      }
      const original = originals.get(interaction.id);
      const target =
        hook[3] === '@original'
          ? original
          : messages.find((m) => m.id === hook[3] && m.interaction?.id === interaction.id);
      if (!target || !messages.includes(target)) return reply(404, { message: 'Unknown Message', code: 10008 });
      if (method === 'GET') return reply(200, shape(target));
      if (method === 'DELETE') {
        messages.splice(messages.indexOf(target), 1);
        if (target === original) interaction.originalDeleted = true;
        return reply(204);
      }
      if (method === 'PATCH') {
        const next = content ?? target.content;
        if (next === '' && !uploaded?.length && !target.files.length)
          return reply(400, { message: 'Cannot send an empty message', code: 50006 });
        target.content = next;
        target.versions.push(next);
        target.thinking = false;
        if (uploaded?.length) target.files = uploaded;
        return reply(200, shape(target));
      }
      return reply(405, { message: '405: Method Not Allowed', code: 0 });
    }
    if (revoked || req.headers.authorization !== `Bot ${token}`) {
      record(401);
      return answer(res, 401, { message: '401: Unauthorized', code: 0 });
    }
    const limit = rateLimits.findIndex((r) => r.method === method && r.pattern.test(path));
    if (limit >= 0) {
      const { seconds, via } = rateLimits.splice(limit, 1)[0]!;
      record(429);
      return answer(
        res,
        429,
        via === 'body'
          ? { message: 'You are being rate limited.', retry_after: seconds, global: false }
          : { message: 'You are being rate limited.', global: false },
        { 'retry-after': String(seconds), 'x-ratelimit-scope': 'user' },
      );
    }
    const ok = (status: number, result?: unknown) => {
      record(status);
      answer(res, status, result);
    };
    if (method === 'GET' && path === '/users/@me') return ok(200, bot);
    if (method === 'GET' && path === '/applications/@me')
      return ok(200, { id: bot.id, name: bot.username, bot, flags: 0, bot_public: true });
    const bulk = /^\/applications\/(\d+)(?:\/guilds\/(\d+))?\/commands$/.exec(path);
    if (bulk && method === 'PUT') {
      if (bulk[1] !== bot.id) return ok(403, { message: 'Missing Access', code: 50001 });
      const fault = applicationCommandsFault(body);
      if (fault) return ok(400, { message: 'Invalid Form Body', code: 50035, errors: { detail: fault } });
      const scope = bulk[2] ?? 'global';
      const before = commandSets.get(scope) ?? [];
      // A bulk overwrite replaces the set; a command with an existing name keeps its id.
      const next = (body as unknown as Record<string, unknown>[]).map(
        (command): FakeApplicationCommand => ({
          ...command,
          id: before.find((b) => b.name === command.name)?.id ?? snowflake(),
          application_id: bot.id,
          ...(bulk[2] ? { guild_id: bulk[2] } : {}),
          version: snowflake(),
          type: typeof command.type === 'number' ? command.type : 1,
          name: String(command.name),
          description: String(command.description),
        }),
      );
      commandSets.set(scope, next);
      return ok(200, next);
    }
    if (bulk && method === 'GET') return ok(200, commandSets.get(bulk[2] ?? 'global') ?? []);
    if (method === 'GET' && path === '/gateway/bot')
      return ok(200, {
        url: origin.replace(/^http/, 'ws').concat('/gateway'),
        shards: 1,
        session_start_limit: { total: 1000, remaining: 999, reset_after: 14_400_000, max_concurrency: 1 },
      });
    if (method === 'POST' && path === '/users/@me/channels') {
      const recipient = String(body?.recipient_id ?? '');
      if (!/^\d+$/.test(recipient)) return ok(400, { message: 'Invalid Form Body', code: 50035 });
      return ok(200, { id: dmChannelOf(recipient), type: 1, recipients: [{ id: recipient }] });
    }
    let match = /^\/channels\/(\d+)\/typing$/.exec(path);
    if (method === 'POST' && match) return ok(204);
    match = /^\/channels\/(\d+)\/messages$/.exec(path);
    if (method === 'POST' && match) {
      const content = typeof body?.content === 'string' ? body.content : '';
      if (content.length > 2000)
        return ok(400, {
          message: 'Invalid Form Body',
          code: 50035,
          errors: {
            content: { _errors: [{ code: 'BASE_TYPE_MAX_LENGTH', message: 'Must be 2000 or fewer in length.' }] },
          },
        });
      if (content === '' && !uploaded?.length) return ok(400, { message: 'Cannot send an empty message', code: 50006 });
      const fault = body?.components === undefined ? undefined : componentsFault(body.components);
      if (fault) return ok(400, { message: 'Invalid Form Body', code: 50035, errors: { detail: fault } });
      const reference = body?.message_reference as { message_id?: string } | undefined;
      const message: FakeBotMessage = {
        id: snowflake(),
        channelId: match[1]!,
        content,
        versions: [content],
        components: (body?.components as FakeActionRow[] | undefined) ?? [],
        ...(reference?.message_id ? { replyTo: reference.message_id } : {}),
        allowedMentions: body?.allowed_mentions,
        files: uploaded ?? [],
      };
      messages.push(message);
      return ok(200, {
        id: message.id,
        type: message.replyTo ? 19 : 0,
        channel_id: message.channelId,
        content,
        author: bot,
        attachments: [],
        timestamp: new Date().toISOString(),
      });
    }
    match = /^\/channels\/(\d+)\/messages\/(\d+)$/.exec(path);
    if (method === 'PATCH' && match) {
      const message = messages.find((m) => m.channelId === match![1] && m.id === match![2]);
      if (!message) return ok(404, { message: 'Unknown Message', code: 10008 });
      const content = typeof body?.content === 'string' ? body.content : message.content;
      if (content.length > 2000) return ok(400, { message: 'Invalid Form Body', code: 50035 });
      const fault = body?.components === undefined ? undefined : componentsFault(body.components);
      if (fault) return ok(400, { message: 'Invalid Form Body', code: 50035, errors: { detail: fault } });
      if (body?.components !== undefined) message.components = body.components as FakeActionRow[];
      message.content = content;
      message.versions.push(content);
      return ok(200, {
        id: message.id,
        channel_id: message.channelId,
        content,
        author: bot,
        edited_timestamp: new Date().toISOString(),
      });
    }
    const tool = chatTools.handle(method, path, url.searchParams);
    if (tool) return ok(tool.status, tool.body);
    return ok(404, { message: '404: Not Found', code: 0 });
  }

  const server: Server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      if (!res.headersSent) answer(res, 500, { message: String(error), code: 0 });
    });
  });
  const wss = new WebSocketServer({ noServer: true });
  server.on('upgrade', (req, socket, head) => {
    const url = new URL(req.url ?? '/', origin);
    if (url.pathname.replace(/\/+$/, '') !== '/gateway') {
      socket.destroy();
      return;
    }
    wss.handleUpgrade(req, socket, head, (ws) => {
      if (url.searchParams.get('v') !== '10' || url.searchParams.get('encoding') !== 'json') {
        ws.close(4012, 'Invalid API version');
        return;
      }
      const connection = ++connections;
      sockets.add(ws);
      notify();
      let session: Session | undefined;
      send(ws, { op: 10, d: { heartbeat_interval: options.heartbeatIntervalMs ?? 41_250 }, s: null, t: null });
      ws.on('close', () => {
        sockets.delete(ws);
        if (session?.socket === ws) session.socket = undefined;
        notify();
      });
      ws.on('message', (data) => {
        let frame: { op?: number; d?: Record<string, unknown> | number | null };
        try {
          frame = JSON.parse(String(data)) as typeof frame;
        } catch {
          ws.close(4002, 'Decode error');
          return;
        }
        frames.push({ op: frame.op ?? -1, d: frame.d, connection });
        notify();
        const d = (frame.d ?? {}) as Record<string, unknown>;
        switch (frame.op) {
          case 1:
            send(ws, { op: 11 });
            return;
          case 2: {
            if (revoked || d.token !== token) {
              ws.close(4004, 'Authentication failed.');
              return;
            }
            if (session) {
              ws.close(4005, 'Already authenticated.');
              return;
            }
            session = { id: randomBytes(16).toString('hex'), seq: 0, events: [], socket: ws };
            sessions.set(session.id, session);
            current = session;
            dispatch(session, 'READY', {
              v: 10,
              user: bot,
              guilds: [],
              session_id: session.id,
              resume_gateway_url: origin.replace(/^http/, 'ws').concat('/gateway'),
              application: { id: bot.id, flags: 0 },
            });
            return;
          }
          case 6: {
            if (revoked || d.token !== token) {
              ws.close(4004, 'Authentication failed.');
              return;
            }
            const found = typeof d.session_id === 'string' ? sessions.get(d.session_id) : undefined;
            if (!found || typeof d.seq !== 'number') {
              send(ws, { op: 9, d: false, s: null, t: null });
              return;
            }
            session = found;
            found.socket?.terminate();
            found.socket = ws;
            current = found;
            for (const event of found.events.filter((e) => e.s > (d.seq as number)))
              send(ws, { op: 0, s: event.s, t: event.t, d: event.d });
            found.seq += 1;
            found.events.push({ s: found.seq, t: 'RESUMED', d: null });
            send(ws, { op: 0, s: found.seq, t: 'RESUMED', d: null });
            return;
          }
          default:
            ws.close(4001, 'Unknown opcode.');
        }
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  return {
    url: `${origin}/api/v10`,
    gatewayUrl: `${origin.replace(/^http/, 'ws')}/gateway`,
    token,
    bot,
    calls,
    chatTools,
    frames,
    get connections() {
      return connections;
    },
    sendUserMessage(input) {
      if (!current) throw new Error('fake Discord: no gateway session yet (the bot has not identified)');
      const id = snowflake();
      const channelId = input.guildId ? input.channelId : dmChannelOf(input.author.id);
      if (!channelId) throw new Error('fake Discord: a guild message needs a channelId');
      const content = input.mentionBot ? `<@${bot.id}> ${input.content}` : input.content;
      const replied = input.replyToMessageId ? messages.find((m) => m.id === input.replyToMessageId) : undefined;
      const attachments: DiscordAttachment[] = (input.attachments ?? []).map((file) => {
        const fileId = snowflake();
        const path = `/attachments/${channelId}/${fileId}/${encodeURIComponent(file.filename)}`;
        files.set(path, { bytes: file.bytes, type: file.contentType ?? 'application/octet-stream' });
        return {
          id: fileId,
          filename: file.filename,
          size: file.reportedSize ?? file.bytes.length,
          url: `${origin}${path}`,
          proxy_url: `${origin}${path}`,
          ...(file.contentType ? { content_type: file.contentType } : {}),
        };
      });
      dispatch(current, 'MESSAGE_CREATE', {
        id,
        type: replied ? 19 : 0,
        channel_id: channelId,
        ...(input.guildId ? { guild_id: input.guildId } : {}),
        author: { id: input.author.id, username: input.author.username, global_name: input.author.global_name ?? null },
        content,
        timestamp: new Date().toISOString(),
        edited_timestamp: null,
        tts: false,
        mention_everyone: false,
        mentions: input.mentionBot ? [bot] : [],
        mention_roles: [],
        attachments,
        embeds: [],
        pinned: false,
        ...(replied
          ? {
              message_reference: { message_id: replied.id, channel_id: replied.channelId },
              referenced_message: {
                id: replied.id,
                channel_id: replied.channelId,
                author: bot,
                content: replied.content,
              },
            }
          : {}),
      });
      return id;
    },
    dmChannelOf,
    botMessages: (channelId) => messages.filter((m) => m.channelId === channelId),
    waitForBotMessage: (channelId, test, timeoutMs) =>
      waitFor(
        () => messages.find((m) => m.channelId === channelId && test(m)),
        `a bot message in ${channelId}`,
        timeoutMs,
      ),
    waitForCall: (test, timeoutMs) => waitFor(() => calls.find(test), 'a REST call', timeoutMs),
    waitForFrame: (test, timeoutMs) => waitFor(() => frames.find(test), 'a gateway frame', timeoutMs),
    rateLimitNext(method, pathPattern, retryAfterSeconds, via = 'body') {
      rateLimits.push({ method, pattern: pathPattern, seconds: retryAfterSeconds, via });
    },
    dropConnection() {
      for (const socket of sockets) socket.terminate();
    },
    requestReconnect() {
      for (const socket of sockets) send(socket, { op: 7, d: null, s: null, t: null });
    },
    revokeToken() {
      revoked = true;
    },
    pressButton(input) {
      if (!current) throw new Error('fake Discord: no gateway session yet (the bot has not identified)');
      const message = messages.find((m) => m.id === input.messageId);
      if (!message) throw new Error(`fake Discord: no bot message ${input.messageId}`);
      const customId =
        input.customId ??
        message.components.flatMap((row) => row.components).find((b) => b.label === input.label)?.custom_id;
      if (!customId) throw new Error(`fake Discord: message ${input.messageId} has no button "${input.label}"`);
      const interaction: FakeInteraction = {
        id: snowflake(),
        token: `aW50ZXJhY3Rpb246${randomBytes(24).toString('base64url')}`,
        messageId: message.id,
        customId,
        userId: input.user.id,
      };
      interactions.set(interaction.id, interaction);
      const user = {
        id: input.user.id,
        username: input.user.username,
        global_name: input.user.global_name ?? null,
        discriminator: '0',
      };
      dispatch(current, 'INTERACTION_CREATE', {
        id: interaction.id,
        application_id: bot.id,
        type: 3,
        token: interaction.token,
        version: 1,
        channel_id: message.channelId,
        channel: { id: message.channelId, type: input.guildId ? 0 : 1 },
        ...(input.guildId ? { guild_id: input.guildId, member: { user, roles: [], permissions: '0' } } : { user }),
        data: { custom_id: customId, component_type: 2 },
        message: {
          id: message.id,
          channel_id: message.channelId,
          content: message.content,
          author: bot,
          components: message.components,
        },
        app_permissions: '0',
        locale: 'en-US',
        entitlements: [],
        authorizing_integration_owners: {},
        context: input.guildId ? 0 : 1,
      });
      return interaction;
    },
    registeredCommands: (guildId) => commandSets.get(guildId ?? 'global'),
    originalOf: (interactionId) => {
      const original = originals.get(interactionId);
      return original && messages.includes(original) ? original : undefined;
    },
    invokeCommand(input) {
      if (!current) throw new Error('fake Discord: no gateway session yet (the bot has not identified)');
      const command = [
        ...(commandSets.get('global') ?? []),
        ...((input.guildId && commandSets.get(input.guildId)) || []),
      ].find((c) => c.name === input.name);
      if (!command)
        throw new Error(`fake Discord: no command /${input.name} is registered for ${input.guildId ?? 'DMs'}`);
      const channelId = input.guildId ? input.channelId : dmChannelOf(input.user.id);
      if (!channelId) throw new Error('fake Discord: a guild command needs a channelId');
      const interaction: FakeInteraction = {
        id: snowflake(),
        token: `aW50ZXJhY3Rpb246${randomBytes(24).toString('base64url')}`,
        messageId: '',
        customId: '',
        userId: input.user.id,
        kind: 'command',
        channelId,
      };
      interactions.set(interaction.id, interaction);
      const user = {
        id: input.user.id,
        username: input.user.username,
        global_name: input.user.global_name ?? null,
        discriminator: '0',
      };
      dispatch(current, 'INTERACTION_CREATE', {
        id: interaction.id,
        application_id: bot.id,
        type: 2,
        token: interaction.token,
        version: 1,
        channel_id: channelId,
        channel: { id: channelId, type: input.guildId ? 0 : 1 },
        ...(input.guildId ? { guild_id: input.guildId, member: { user, roles: [], permissions: '0' } } : { user }),
        data: {
          id: command.id,
          name: command.name,
          type: 1,
          ...(input.options
            ? { options: Object.entries(input.options).map(([name, value]) => ({ name, type: 3, value })) }
            : {}),
        },
        app_permissions: '0',
        locale: 'en-US',
        entitlements: [],
        authorizing_integration_owners: {},
        context: input.guildId ? 0 : 1,
      });
      return interaction;
    },
    waitForInteractionResponse: (id, timeoutMs) =>
      waitFor(
        () => {
          const interaction = interactions.get(id);
          return interaction?.response ? interaction : undefined;
        },
        `the response to interaction ${id}`,
        timeoutMs,
      ),
    async close() {
      for (const socket of sockets) socket.terminate();
      wss.close();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeAllConnections();
    },
  };
}
