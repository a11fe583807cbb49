import { createHmac, randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { type WebSocket, WebSocketServer } from 'ws';
import { FakeSlackChatTools } from './fake-slack-chat-tools.js';
import { FakeSlackUploads } from './fake-slack-uploads.js';

/**
 * Test support (never shipped): Slack on loopback, speaking the published wire.
 * - Web API (https://api.slack.com/web): `POST /api/<method>`, token as `Authorization: Bearer`
 *   (or a `token` field), JSON or form body, answered HTTP 200 `{ok:true,…}` or `{ok:false,error}`;
 *   a rate limit is HTTP 429 with `Retry-After` seconds. auth.test, apps.connections.open (app
 *   token only), chat.postMessage (echoed back as the bot's own `message` event, as Slack does),
 *   chat.update.
 * - Socket Mode (https://api.slack.com/apis/socket-mode): the URL apps.connections.open gives is a
 *   WebSocket here; it says `hello`, sends `events_api` envelopes and expects `{envelope_id}` back.
 *   An envelope not acknowledged when its connection goes is sent again on the next one with
 *   `retry_attempt` + 1 and `retry_reason: "timeout"`, as Slack does.
 * Injections: 429 once per method, a dropped connection (right after an envelope went out),
 * `disconnect` asked by the server, an envelope delivered again, a revoked token.
 * - Block Kit (https://api.slack.com/reference/block-kit): `blocks` on chat.postMessage /
 *   chat.update (a JSON array, or a JSON string in a form body) are checked as Slack checks them
 *   (`invalid_blocks`: at most 50 blocks; sections with 1–3000 characters of text; actions of 1–25
 *   elements; buttons with plain_text of at most 75, an action_id of at most 255 unique in the
 *   message, style primary|danger) and kept; chat.update without `blocks` keeps the old ones, as
 *   Slack does. chat.postEphemeral records a message only `user` sees. `pressButton` builds the
 *   `block_actions` payload Slack sends for a press (https://api.slack.com/reference/interaction-payloads/block-actions)
 *   and delivers it in an `interactive` envelope, acknowledged with its envelope_id; for the
 *   Events API, `interactionRequest` gives the form body (`payload=<JSON>`) to post, signed.
 * - Files out: files.getUploadURLExternal → POST to the upload URL (served here) →
 *   files.completeUploadExternal; see fake-slack-uploads.ts.
 */

export interface FakeSlackCall {
  method: string;
  params: Record<string, unknown>;
  /** HTTP status answered. */
  status: number;
  /** Slack's `error` when `ok` was false. */
  error?: string;
}

/** A message the bot posted, with every text it had (the post, then each update). */
export interface FakeSlackBotMessage {
  channel: string;
  ts: string;
  threadTs?: string;
  text: string;
  versions: string[];
  /** Block Kit blocks, as last set (empty when none). */
  blocks: Record<string, unknown>[];
}

/** A message only `user` sees (chat.postEphemeral). */
export interface FakeSlackEphemeral {
  channel: string;
  user: string;
  text: string;
  threadTs?: string;
}

export interface SlackButtonPressInput {
  channel: string;
  /** The bot message whose button is pressed. */
  ts: string;
  user: { id: string; name?: string };
  /** The button's text on the message as it is now. */
  label?: string;
  /** Instead of `label`: a press from a view before an update (a press racing it). */
  actionId?: string;
}

export interface SlackUserMessageInput {
  channel: string;
  user: string;
  text: string;
  /** `im` (a DM, default), `channel`, `group`, `mpim`. */
  channelType?: 'im' | 'channel' | 'group' | 'mpim';
  threadTs?: string;
  /** Puts `<@BOT>` at the start; Slack then sends an `app_mention` event too. */
  mentionBot?: boolean;
  /** The connection is cut right after this message's envelope went out (before any ack could arrive). */
  dropAfterDelivery?: boolean;
}

export interface FakeSlackServer {
  /** Reactions, pins and conversation members (the agent tools' methods). */
  chatTools: FakeSlackChatTools;
  /** Files the bot uploaded and shared (the external upload flow). */
  uploads: FakeSlackUploads;
  /** Web API base URL (`…/api`), for `apiBaseUrl`. */
  apiUrl: string;
  botToken: string;
  appToken: string;
  bot: { userId: string; name: string; botId: string; team: string; teamId: string };
  calls: FakeSlackCall[];
  /** Every envelope sent, in order (with redeliveries). */
  envelopes: { envelopeId: string; eventId: string; retryAttempt: number }[];
  /** Event ids acknowledged. */
  acked: Set<string>;
  /** Socket Mode connections that got `hello`. */
  readonly connections: number;
  /** A person writes; returns the event id and the message ts. */
  sendUserMessage(input: SlackUserMessageInput): { eventId: string; ts: string };
  /**
   * A person shares a file (subtype file_share, with `files`); the bytes are served at its
   * `url_private_download`, to the bot token only. `reportedSize` overrides the size Slack reports.
   */
  sendUserFile(input: {
    channel: string;
    user: string;
    bytes: Uint8Array;
    name: string;
    mimetype: string;
    text?: string;
    reportedSize?: number;
  }): { eventId: string; ts: string };
  /** Sends a raw event (malformed-event tests); returns its event id. */
  sendEvent(event: Record<string, unknown>): string;
  /** Sends an event already delivered once more, `retry_attempt` + 1 (whether acknowledged or not). */
  redeliver(eventId: string): void;
  /** Server asks the app to reconnect (`disconnect`, reason refresh_requested). */
  askToReconnect(): void;
  waitForCall(method: string, predicate?: (call: FakeSlackCall) => boolean, timeoutMs?: number): Promise<FakeSlackCall>;
  waitForBotMessage(
    channel: string,
    predicate: (message: FakeSlackBotMessage) => boolean,
    timeoutMs?: number,
  ): Promise<FakeSlackBotMessage>;
  waitForAck(eventId: string, timeoutMs?: number): Promise<void>;
  waitForConnections(count: number, timeoutMs?: number): Promise<void>;
  botMessages(channel: string): FakeSlackBotMessage[];
  /** The next call of `method` answers HTTP 429 with `Retry-After: seconds`. */
  rateLimitNext(method: string, seconds: number): void;
  /** From now on the bot token is refused with `invalid_auth`. */
  revokeToken(): void;
  ephemerals: FakeSlackEphemeral[];
  waitForEphemeral(
    user: string,
    predicate: (message: FakeSlackEphemeral) => boolean,
    timeoutMs?: number,
  ): Promise<FakeSlackEphemeral>;
  /**
   * A person presses a button of a bot message: the `block_actions` payload, sent in an
   * `interactive` envelope on the live Socket Mode connection. Returns the envelope id.
   */
  pressButton(input: SlackButtonPressInput): string;
  /** Resolves once the app acknowledged envelope `envelopeId`. */
  waitForEnvelopeAck(envelopeId: string, timeoutMs?: number): Promise<void>;
  /** Events API mode: the form body Slack POSTs to the Interactivity Request URL for a press. */
  interactionRequest(input: SlackButtonPressInput): string;
  /** The signing secret Events API requests are signed with. */
  signingSecret: string;
  /**
   * Events API mode: POSTs a body to the app's Request URL as Slack does, signed (`X-Slack-Signature`
   * v0 over `v0:timestamp:body`) unless `signature` is given; `ageSeconds` backdates the timestamp;
   * `retryNum` sets `X-Slack-Retry-Num`. Resolves with the HTTP status and body.
   */
  postToRequestUrl(
    url: string,
    body: string,
    options?: { signature?: string; ageSeconds?: number; retryNum?: number; contentType?: string },
  ): Promise<{ status: number; text: string }>;
  /** An `event_callback` body for a person's message (DM unless `channelType`), with its event id. */
  eventCallback(
    input: Omit<SlackUserMessageInput, 'dropAfterDelivery'>,
    eventId?: string,
  ): { body: string; eventId: string; ts: string };
  close(): Promise<void>;
}

interface Pending {
  envelopeId: string;
  eventId: string;
  retryAttempt: number;
  event: Record<string, unknown>;
  dropAfter: boolean;
}

async function readParams(request: IncomingMessage): Promise<Record<string, unknown>> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  const body = Buffer.concat(chunks).toString('utf8');
  const url = new URL(request.url ?? '/', 'http://x');
  const params: Record<string, unknown> = Object.fromEntries(url.searchParams);
  if (!body) return params;
  if ((request.headers['content-type'] ?? '').includes('application/json'))
    return { ...params, ...(JSON.parse(body) as Record<string, unknown>) };
  return { ...params, ...Object.fromEntries(new URLSearchParams(body)) };
}

export async function startFakeSlackServer(
  options: { botToken?: string; appToken?: string } = {},
): Promise<FakeSlackServer> {
  const botToken = options.botToken ?? 'xoxb-fake-1234';
  const appToken = options.appToken ?? 'xapp-fake-5678';
  const signingSecret = 'fake-signing-secret-0123456789abcdef';
  const bot = { userId: 'UBOT0001', name: 'hearth', botId: 'BBOT0001', team: 'Fake Team', teamId: 'T0001' };
  const calls: FakeSlackCall[] = [];
  const chatTools = new FakeSlackChatTools();
  const uploads = new FakeSlackUploads(() => `http://127.0.0.1:${(server.address() as AddressInfo).port}`);
  const envelopes: FakeSlackServer['envelopes'] = [];
  const acked = new Set<string>();
  const botMessages: FakeSlackBotMessage[] = [];
  const ephemerals: FakeSlackEphemeral[] = [];
  /** Interactive envelopes sent, and whether the app acknowledged them. */
  const interactive = new Map<string, boolean>();
  const rateLimits = new Map<string, number[]>();
  const listeners = new Set<() => void>();
  const pending = new Map<string, Pending>();
  const tickets = new Set<string>();
  const sockets = new Set<Socket>();
  const dms = new Map<string, string>();
  const files = new Map<string, Uint8Array>();
  let live: WebSocket | undefined;
  let connections = 0;
  let revoked = false;
  let tsCounter = 0;
  let eventCounter = 0;
  const changed = () => {
    for (const listener of [...listeners]) listener();
  };
  const nextTs = () => `${Math.floor(Date.now() / 1000)}.${String(++tsCounter).padStart(6, '0')}`;

  const deliver = (item: Pending) => {
    if (!live || live.readyState !== live.OPEN) return;
    envelopes.push({ envelopeId: item.envelopeId, eventId: item.eventId, retryAttempt: item.retryAttempt });
    live.send(
      JSON.stringify({
        envelope_id: item.envelopeId,
        type: 'events_api',
        accepts_response_payload: false,
        retry_attempt: item.retryAttempt,
        retry_reason: item.retryAttempt > 0 ? 'timeout' : '',
        payload: {
          token: 'verification-token',
          team_id: bot.teamId,
          api_app_id: 'AAPP0001',
          event: item.event,
          type: 'event_callback',
          event_id: item.eventId,
          event_time: Math.floor(Date.now() / 1000),
        },
      }),
    );
    if (item.dropAfter) {
      item.dropAfter = false;
      live.terminate();
    }
    changed();
  };

  const queueEvent = (event: Record<string, unknown>, dropAfter = false) => {
    const eventId = `Ev${String(++eventCounter).padStart(8, '0')}`;
    const item: Pending = { envelopeId: randomUUID(), eventId, retryAttempt: 0, event, dropAfter };
    pending.set(eventId, item);
    deliver(item);
    return eventId;
  };

  /** Slack's checks of `blocks` (undefined: valid); names the first fault, as `errors` does. */
  const blocksFault = (blocks: unknown): string | undefined => {
    if (!Array.isArray(blocks)) return 'blocks must be an array';
    if (blocks.length > 50) return 'no more than 50 items allowed [json-pointer:/blocks]';
    const actionIds = new Set<string>();
    const blockIds = new Set<string>();
    const plain = (value: unknown, max: number, at: string) => {
      const text = value as { type?: unknown; text?: unknown } | undefined;
      if (text?.type !== 'plain_text') return `must be plain_text [json-pointer:${at}]`;
      if (typeof text.text !== 'string' || text.text === '' || text.text.length > max)
        return `must be 1 to ${max} characters [json-pointer:${at}/text]`;
      return undefined;
    };
    for (const [b, block] of (blocks as Record<string, unknown>[]).entries()) {
      const at = `/blocks/${b}`;
      if (typeof block?.block_id === 'string') {
        if (block.block_id.length > 255 || blockIds.has(block.block_id))
          return `block_id must be unique and at most 255 characters [json-pointer:${at}/block_id]`;
        blockIds.add(block.block_id);
      }
      switch (block?.type) {
        case 'section': {
          const text = block.text as { type?: unknown; text?: unknown } | undefined;
          if (text?.type !== 'plain_text' && text?.type !== 'mrkdwn')
            return `must be plain_text or mrkdwn [json-pointer:${at}/text]`;
          if (typeof text.text !== 'string' || text.text === '' || text.text.length > 3000)
            return `must be 1 to 3000 characters [json-pointer:${at}/text/text]`;
          break;
        }
        case 'actions': {
          const elements = block.elements;
          if (!Array.isArray(elements) || elements.length === 0 || elements.length > 25)
            return `must have 1 to 25 items [json-pointer:${at}/elements]`;
          for (const [e, element] of (elements as Record<string, unknown>[]).entries()) {
            const where = `${at}/elements/${e}`;
            if (element?.type !== 'button') continue;
            const fault = plain(element.text, 75, `${where}/text`);
            if (fault) return fault;
            const id = element.action_id;
            if (typeof id !== 'string' || id === '' || id.length > 255 || actionIds.has(id))
              return `action_id must be unique and 1 to 255 characters [json-pointer:${where}/action_id]`;
            actionIds.add(id);
            if (element.value !== undefined && (typeof element.value !== 'string' || element.value.length > 2000))
              return `must be at most 2000 characters [json-pointer:${where}/value]`;
            if (element.style !== undefined && element.style !== 'primary' && element.style !== 'danger')
              return `must be primary or danger [json-pointer:${where}/style]`;
          }
          break;
        }
        case 'divider':
        case 'context':
        case 'header':
        case 'image':
        case 'rich_text':
          break;
        default:
          return `unsupported type: ${String(block?.type)} [json-pointer:${at}/type]`;
      }
    }
    return undefined;
  };
  /** `blocks` as given: a JSON array, or a JSON string (form bodies); `invalid_json` otherwise. */
  const blocksOf = (raw: unknown): unknown => {
    if (typeof raw !== 'string') return raw;
    try {
      return JSON.parse(raw) as unknown;
    } catch {
      return 'invalid';
    }
  };

  const answer = (response: ServerResponse, call: FakeSlackCall, body: Record<string, unknown>) => {
    calls.push(call);
    response.writeHead(call.status, { 'content-type': 'application/json; charset=utf-8' });
    response.end(JSON.stringify(body));
    changed();
  };

  const server = createServer((request, response) => {
    void (async () => {
      const path = (request.url ?? '').split('?')[0]!;
      if (path.startsWith('/files-pri/')) {
        const bytes = files.get(path);
        const authorised = request.headers.authorization === `Bearer ${botToken}` && !revoked;
        calls.push({ method: 'files.download', params: { path }, status: bytes && authorised ? 200 : 404 });
        changed();
        // Slack answers a file request without the token with its login page; a 404 here is as clear.
        if (!bytes || !authorised) return void response.writeHead(404).end();
        response.writeHead(200, { 'content-type': 'application/octet-stream' });
        return void response.end(Buffer.from(bytes));
      }
      if (path.startsWith('/upload/v1/') && request.method === 'POST') {
        const chunks: Buffer[] = [];
        for await (const chunk of request) chunks.push(chunk as Buffer);
        const answered = await uploads.receive(
          path,
          new Uint8Array(Buffer.concat(chunks)),
          request.headers['content-type'] ?? '',
        );
        calls.push({ method: 'files.upload_url', params: { path }, status: answered.status });
        response.writeHead(answered.status, { 'content-type': 'text/plain; charset=utf-8' });
        response.end(answered.text);
        return changed();
      }
      const method = path.replace(/^\/api\//, '');
      let params: Record<string, unknown>;
      try {
        params = await readParams(request);
      } catch {
        return answer(
          response,
          { method, params: {}, status: 200, error: 'invalid_json' },
          { ok: false, error: 'invalid_json' },
        );
      }
      const token =
        /^Bearer (.+)$/.exec(request.headers.authorization ?? '')?.[1] ?? (params.token as string | undefined);
      const fail = (error: string) => answer(response, { method, params, status: 200, error }, { ok: false, error });
      const limits = rateLimits.get(method);
      if (limits?.length) {
        const seconds = limits.shift()!;
        calls.push({ method, params, status: 429, error: 'ratelimited' });
        response.writeHead(429, { 'content-type': 'application/json; charset=utf-8', 'retry-after': String(seconds) });
        response.end(JSON.stringify({ ok: false, error: 'ratelimited' }));
        return changed();
      }
      if (!token) return fail('not_authed');
      if (method === 'apps.connections.open') {
        if (token.startsWith('xoxb-')) return fail('not_allowed_token_type');
        if (token !== appToken) return fail('invalid_auth');
        const ticket = randomUUID();
        tickets.add(ticket);
        const { port } = server.address() as AddressInfo;
        return answer(
          response,
          { method, params, status: 200 },
          { ok: true, url: `ws://127.0.0.1:${port}/link/?ticket=${ticket}` },
        );
      }
      if (token !== botToken || revoked) return fail('invalid_auth');
      switch (method) {
        case 'auth.test':
          return answer(
            response,
            { method, params, status: 200 },
            {
              ok: true,
              url: 'https://fake-team.slack.com/',
              team: bot.team,
              user: bot.name,
              team_id: bot.teamId,
              user_id: bot.userId,
              bot_id: bot.botId,
              is_enterprise_install: false,
            },
          );
        case 'chat.postMessage': {
          // A user id posts into the app's DM with that person, as Slack does.
          const channel =
            typeof params.channel === 'string' && params.channel.startsWith('U')
              ? (dms.get(params.channel) ?? `D${params.channel.slice(1)}`)
              : params.channel;
          const text = params.text;
          if (typeof channel !== 'string' || channel === '') return fail('channel_not_found');
          const blocks = params.blocks === undefined ? [] : blocksOf(params.blocks);
          const fault = blocksFault(blocks);
          if (fault)
            return answer(
              response,
              { method, params, status: 200, error: 'invalid_blocks' },
              { ok: false, error: 'invalid_blocks', errors: [fault] },
            );
          if (typeof text !== 'string' || text === '') return fail('no_text');
          const ts = nextTs();
          const threadTs = typeof params.thread_ts === 'string' ? params.thread_ts : undefined;
          botMessages.push({
            channel,
            ts,
            ...(threadTs ? { threadTs } : {}),
            text,
            versions: [text],
            blocks: blocks as Record<string, unknown>[],
          });
          answer(
            response,
            { method, params, status: 200 },
            {
              ok: true,
              channel,
              ts,
              message: {
                type: 'message',
                user: bot.userId,
                bot_id: bot.botId,
                text,
                ts,
                ...(threadTs ? { thread_ts: threadTs } : {}),
              },
            },
          );
          // Slack sends the bot its own message as an event; the app must skip it.
          queueEvent({
            type: 'message',
            channel,
            channel_type: channel.startsWith('D') ? 'im' : 'channel',
            user: bot.userId,
            bot_id: bot.botId,
            text,
            ts,
            ...(threadTs ? { thread_ts: threadTs } : {}),
          });
          return;
        }
        case 'chat.update': {
          const message = botMessages.find((m) => m.channel === params.channel && m.ts === params.ts);
          if (!message) return fail('message_not_found');
          if (typeof params.text !== 'string' || params.text === '') return fail('no_text');
          if (params.blocks !== undefined) {
            const blocks = blocksOf(params.blocks);
            const fault = blocksFault(blocks);
            if (fault)
              return answer(
                response,
                { method, params, status: 200, error: 'invalid_blocks' },
                { ok: false, error: 'invalid_blocks', errors: [fault] },
              );
            message.blocks = blocks as Record<string, unknown>[];
          }
          message.text = params.text;
          message.versions.push(params.text);
          return answer(
            response,
            { method, params, status: 200 },
            { ok: true, channel: message.channel, ts: message.ts, text: message.text },
          );
        }
        case 'chat.postEphemeral': {
          const { channel, user, text } = params;
          if (typeof channel !== 'string' || channel === '') return fail('channel_not_found');
          if (typeof user !== 'string' || user === '') return fail('user_not_found');
          if (typeof text !== 'string' || text === '') return fail('no_text');
          const threadTs = typeof params.thread_ts === 'string' ? params.thread_ts : undefined;
          ephemerals.push({ channel, user, text, ...(threadTs ? { threadTs } : {}) });
          return answer(response, { method, params, status: 200 }, { ok: true, message_ts: nextTs() });
        }
        default: {
          const upload = uploads.handle(method, params, bot.userId);
          if (upload) {
            if (upload.ok !== true) return fail(String(upload.error));
            return answer(response, { method, params, status: 200 }, upload);
          }
          const tool = chatTools.handle(method, params);
          if (!tool) return fail('unknown_method');
          if (tool.ok !== true) return fail(String(tool.error));
          return answer(response, { method, params, status: 200 }, tool);
        }
      }
    })();
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });

  const wss = new WebSocketServer({ noServer: true });
  server.on('upgrade', (request, socket, head) => {
    const ticket = new URL(request.url ?? '/', 'http://x').searchParams.get('ticket') ?? '';
    if (!tickets.delete(ticket)) {
      socket.end('HTTP/1.1 401 Unauthorized\r\n\r\n');
      return;
    }
    wss.handleUpgrade(request, socket, head, (ws) => {
      live?.terminate();
      live = ws;
      connections++;
      ws.send(
        JSON.stringify({
          type: 'hello',
          num_connections: 1,
          debug_info: { host: 'applink-fake', build_number: 1, approximate_connection_time: 18060 },
          connection_info: { app_id: 'AAPP0001' },
        }),
      );
      ws.on('message', (data) => {
        let frame: { envelope_id?: string };
        try {
          frame = JSON.parse(String(data)) as typeof frame;
        } catch {
          return;
        }
        for (const item of pending.values())
          if (item.envelopeId === frame.envelope_id) {
            pending.delete(item.eventId);
            acked.add(item.eventId);
          }
        if (typeof frame.envelope_id === 'string' && interactive.has(frame.envelope_id))
          interactive.set(frame.envelope_id, true);
        changed();
      });
      ws.on('close', () => {
        if (live === ws) live = undefined;
        // What was sent on this connection and not acknowledged comes again on the next one.
        for (const item of pending.values()) {
          item.retryAttempt++;
          item.envelopeId = randomUUID();
        }
        changed();
      });
      changed();
      for (const item of [...pending.values()]) deliver(item);
    });
  });

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  const waitUntil = <T>(find: () => T | undefined, timeoutMs: number, what: string) =>
    new Promise<T>((resolve, reject) => {
      const found = find();
      if (found !== undefined) return resolve(found);
      const timer = setTimeout(() => {
        listeners.delete(check);
        reject(
          new Error(
            `fake Slack: timed out waiting for ${what}; calls: ${calls.map((c) => `${c.method}(${c.error ?? c.status})`).join(', ')}`,
          ),
        );
      }, timeoutMs);
      function check() {
        const value = find();
        if (value === undefined) return;
        clearTimeout(timer);
        listeners.delete(check);
        resolve(value);
      }
      listeners.add(check);
    });

  /** The block_actions payload Slack sends when `input.user` presses a button of a bot message. */
  const blockActions = (input: SlackButtonPressInput): Record<string, unknown> => {
    const message = botMessages.find((m) => m.channel === input.channel && m.ts === input.ts);
    if (!message) throw new Error(`fake Slack: no bot message ${input.ts} in ${input.channel}`);
    let found: { block: Record<string, unknown>; element: Record<string, unknown> } | undefined;
    for (const block of message.blocks)
      for (const element of (block.elements as Record<string, unknown>[] | undefined) ?? [])
        if (
          element.type === 'button' &&
          (input.actionId !== undefined
            ? element.action_id === input.actionId
            : (element.text as { text?: unknown }).text === input.label)
        )
          found = { block, element };
    if (!found && input.actionId === undefined)
      throw new Error(`fake Slack: message ${input.ts} has no button "${input.label}"`);
    const actionTs = nextTs();
    return {
      type: 'block_actions',
      user: {
        id: input.user.id,
        username: input.user.name ?? input.user.id,
        name: input.user.name ?? input.user.id,
        team_id: bot.teamId,
      },
      api_app_id: 'AAPP0001',
      token: 'verification-token',
      container: {
        type: 'message',
        message_ts: message.ts,
        channel_id: message.channel,
        is_ephemeral: false,
        ...(message.threadTs ? { thread_ts: message.threadTs } : {}),
      },
      trigger_id: `${Date.now()}.${bot.teamId}.${randomUUID().replace(/-/g, '')}`,
      team: { id: bot.teamId, domain: 'fake-team' },
      enterprise: null,
      is_enterprise_install: false,
      channel: { id: message.channel, name: message.channel.startsWith('D') ? 'directmessage' : 'general' },
      message: {
        type: 'message',
        user: bot.userId,
        bot_id: bot.botId,
        text: message.text,
        ts: message.ts,
        ...(message.threadTs ? { thread_ts: message.threadTs } : {}),
        blocks: message.blocks,
      },
      state: { values: {} },
      response_url: `http://127.0.0.1:${port}/actions/${bot.teamId}/${randomUUID()}`,
      actions: [
        found
          ? {
              action_id: found.element.action_id,
              block_id: found.block.block_id,
              text: found.element.text,
              ...(found.element.value !== undefined ? { value: found.element.value } : {}),
              ...(found.element.style !== undefined ? { style: found.element.style } : {}),
              type: 'button',
              action_ts: actionTs,
            }
          : // A view from before an update: Slack still sends what was pressed.
            { action_id: input.actionId, block_id: 'hearth_prompt', type: 'button', action_ts: actionTs },
      ],
    };
  };

  const sentEvents = new Map<string, Record<string, unknown>>();
  const send = (event: Record<string, unknown>, dropAfter = false) => {
    const eventId = queueEvent(event, dropAfter);
    sentEvents.set(eventId, event);
    return eventId;
  };

  return {
    apiUrl: `http://127.0.0.1:${port}/api`,
    botToken,
    appToken,
    bot,
    calls,
    chatTools,
    uploads,
    envelopes,
    acked,
    get connections() {
      return connections;
    },
    sendUserMessage(input) {
      const ts = nextTs();
      if ((input.channelType ?? 'im') === 'im') dms.set(input.user, input.channel);
      const text = input.mentionBot ? `<@${bot.userId}> ${input.text}` : input.text;
      const base = {
        channel: input.channel,
        user: input.user,
        text,
        ts,
        event_ts: ts,
        team: bot.teamId,
        ...(input.threadTs ? { thread_ts: input.threadTs } : {}),
      };
      const eventId = send(
        { type: 'message', channel_type: input.channelType ?? 'im', ...base },
        input.dropAfterDelivery ?? false,
      );
      if (input.mentionBot) send({ type: 'app_mention', ...base });
      return { eventId, ts };
    },
    sendUserFile(input) {
      const ts = nextTs();
      dms.set(input.user, input.channel);
      const id = `F${String(files.size + 1).padStart(8, '0')}`;
      const path = `/files-pri/${bot.teamId}-${id}/${encodeURIComponent(input.name)}`;
      files.set(path, input.bytes);
      const url = `http://127.0.0.1:${port}${path}`;
      const eventId = send({
        type: 'message',
        subtype: 'file_share',
        channel_type: 'im',
        channel: input.channel,
        user: input.user,
        text: input.text ?? '',
        ts,
        event_ts: ts,
        files: [
          {
            id,
            name: input.name,
            mimetype: input.mimetype,
            size: input.reportedSize ?? input.bytes.length,
            url_private: url,
            url_private_download: url,
          },
        ],
      });
      return { eventId, ts };
    },
    sendEvent: (event) => send(event),
    redeliver(eventId) {
      const event = sentEvents.get(eventId);
      if (!event) throw new Error(`fake Slack: no event ${eventId} was sent`);
      const attempts = envelopes.filter((e) => e.eventId === eventId).length;
      const item: Pending = { envelopeId: randomUUID(), eventId, retryAttempt: attempts, event, dropAfter: false };
      pending.set(eventId, item);
      deliver(item);
    },
    askToReconnect() {
      live?.send(
        JSON.stringify({ type: 'disconnect', reason: 'refresh_requested', debug_info: { host: 'applink-fake' } }),
      );
    },
    waitForCall: (method, predicate = () => true, timeoutMs = 20_000) =>
      waitUntil(() => calls.find((c) => c.method === method && predicate(c)), timeoutMs, `a ${method} call`),
    waitForBotMessage: (channel, predicate, timeoutMs = 20_000) =>
      waitUntil(
        () => botMessages.find((m) => m.channel === channel && predicate(m)),
        timeoutMs,
        `a bot message in ${channel}`,
      ),
    waitForAck: (eventId, timeoutMs = 20_000) =>
      waitUntil(() => (acked.has(eventId) ? true : undefined), timeoutMs, `the ack of ${eventId}`).then(() => {}),
    waitForConnections: (count, timeoutMs = 20_000) =>
      waitUntil(() => (connections >= count && live ? true : undefined), timeoutMs, `${count} connections`).then(
        () => {},
      ),
    botMessages: (channel) => botMessages.filter((m) => m.channel === channel),
    rateLimitNext(method, seconds) {
      const list = rateLimits.get(method) ?? [];
      list.push(seconds);
      rateLimits.set(method, list);
    },
    revokeToken() {
      revoked = true;
    },
    ephemerals,
    waitForEphemeral: (user, predicate, timeoutMs = 20_000) =>
      waitUntil(
        () => ephemerals.find((m) => m.user === user && predicate(m)),
        timeoutMs,
        `an ephemeral message to ${user}`,
      ),
    pressButton(input) {
      const payload = blockActions(input);
      if (!live || live.readyState !== live.OPEN) throw new Error('fake Slack: no Socket Mode connection');
      const envelopeId = randomUUID();
      interactive.set(envelopeId, false);
      live.send(
        JSON.stringify({ envelope_id: envelopeId, type: 'interactive', accepts_response_payload: false, payload }),
      );
      changed();
      return envelopeId;
    },
    waitForEnvelopeAck: (envelopeId, timeoutMs = 20_000) =>
      waitUntil(() => (interactive.get(envelopeId) ? true : undefined), timeoutMs, `the ack of ${envelopeId}`).then(
        () => {},
      ),
    interactionRequest: (input) => new URLSearchParams({ payload: JSON.stringify(blockActions(input)) }).toString(),
    signingSecret,
    async postToRequestUrl(url, body, options = {}) {
      const timestamp = String(Math.floor(Date.now() / 1000) - (options.ageSeconds ?? 0));
      const signature =
        options.signature ??
        `v0=${createHmac('sha256', signingSecret).update(`v0:${timestamp}:${body}`).digest('hex')}`;
      const response = await fetch(url, {
        method: 'POST',
        headers: {
          'content-type': options.contentType ?? 'application/json',
          'x-slack-request-timestamp': timestamp,
          'x-slack-signature': signature,
          ...(options.retryNum
            ? { 'x-slack-retry-num': String(options.retryNum), 'x-slack-retry-reason': 'http_timeout' }
            : {}),
        },
        body,
      });
      return { status: response.status, text: await response.text() };
    },
    eventCallback(input, eventId = `Ev${String(++eventCounter).padStart(8, '0')}`) {
      const ts = nextTs();
      const text = input.mentionBot ? `<@${bot.userId}> ${input.text}` : input.text;
      const event = {
        type: 'message',
        channel_type: input.channelType ?? 'im',
        channel: input.channel,
        user: input.user,
        text,
        ts,
        event_ts: ts,
        ...(input.threadTs ? { thread_ts: input.threadTs } : {}),
      };
      const body = JSON.stringify({
        token: 'verification-token',
        team_id: bot.teamId,
        api_app_id: 'AAPP0001',
        event,
        type: 'event_callback',
        event_id: eventId,
        event_time: Math.floor(Date.now() / 1000),
      });
      return { body, eventId, ts };
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const client of wss.clients) client.terminate();
        wss.close();
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
