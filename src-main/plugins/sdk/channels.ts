import type { ChannelAgentTool, ChannelAgentToolsAdapter } from './channel-agent-tools.js';
import type { Contribution, PluginServiceContext } from './contributions.js';

// SDK types for channels (Telegram, webhook…): the contract a messaging platform adapter
// implements, and what the channel host (src-main/channels) hands it. docs/CHANNELS.md.
//
// A plugin describes itself (id, meta, capabilities, config) and can `start` one account. The
// running account reports inbound messages to the host with `receive` and gets replies back
// through its outbound / streaming adapters. The host, not the plugin, decides who may reach the
// agent (DM policy, pairing), routes the message to a session, and runs the turn.

/** How a DM from someone the channel does not know is treated. `pairing` is the default. */
export type DmPolicy = 'pairing' | 'allowlist' | 'open' | 'disabled';
export const dmPolicies: readonly DmPolicy[] = ['pairing', 'allowlist', 'open', 'disabled'];

/** The markdown flavour a channel renders; the host gives the plugin plain model text, the plugin converts. */
export type MarkdownDialect = 'plain' | 'commonmark' | 'telegram-markdown-v2' | 'discord' | 'slack-mrkdwn';

export type ChannelMediaKind = 'image' | 'document' | 'audio' | 'video';

/** What a channel can do. The host shapes replies by it (e.g. no edits: paragraphs as messages). */
export interface ChannelCapabilities {
  /** A sent message can be edited (streamed replies edit one message in place). */
  editMessages: boolean;
  threads: boolean;
  reactions: boolean;
  buttons: boolean;
  groups: boolean;
  media: readonly ChannelMediaKind[];
  /** Longest text one message may carry, in characters (Telegram 4096). */
  maxMessageLength: number;
  markdown: MarkdownDialect;
  /** Largest file `outbound.sendFile` takes, in bytes (the platform's published limit for bots). */
  maxUploadBytes?: number;
}

export interface ChannelMeta {
  /** Shown in the UI and the CLI ("Telegram"). */
  name: string;
  /** An emoji or a short icon name. */
  icon?: string;
  description?: string;
}

/** A secret the channel needs, kept in the secret store under `account` (never in hearth.json). */
export interface ChannelSecretSpec {
  /** Secret store account, e.g. `channels.telegram.token`. */
  account: string;
  description: string;
}

/**
 * The plugin's own settings: `channels.<id>` in hearth.json, minus the keys the host owns
 * (`enabled`, `dmPolicy`, `allowFrom`, `groups`). `validate` must throw an Error naming the
 * field that is wrong; the host shows it as the channel's status and does not start it.
 */
/** One property of a channel's JSON Schema, with the keywords a derived setup wizard reads. */
export interface ChannelConfigSchemaProperty {
  type?: string;
  enum?: readonly unknown[];
  default?: unknown;
  title?: string;
  [keyword: string]: unknown;
}

/** A channel's settings as JSON Schema: an object schema whose properties are the plugin's keys. */
export interface ChannelConfigSchema {
  properties?: Record<string, ChannelConfigSchemaProperty>;
  required?: readonly string[];
  [keyword: string]: unknown;
}

export interface ChannelConfigAdapter<Config> {
  /** JSON Schema of the block (a setup wizard renders it). */
  schema: ChannelConfigSchema;
  validate(raw: Record<string, unknown>): Config;
  secrets?: readonly ChannelSecretSpec[];
}

/** How a setup wizard asks for one value. `secret` values go to the secret store, never hearth.json. */
export type ChannelSetupFieldKind = 'text' | 'secret' | 'number' | 'boolean' | 'select';

/**
 * One question of the setup wizard. A non-secret field is the config key `key` of
 * `channels.<id>`; a secret field is stored in the secret store (see `secret`).
 */
export interface ChannelSetupField {
  /** The config key (`mode`), or for a secret a short name of it (`token`). */
  key: string;
  label: string;
  /** One or two sentences: where to find the value, what it changes. */
  help?: string;
  kind: ChannelSetupFieldKind;
  required?: boolean;
  /** What the channel uses when the field is left empty (not written to hearth.json). */
  default?: string | number | boolean;
  /** `select`: the choices. */
  options?: readonly { value: string; label: string }[];
  placeholder?: string;
  /** Shown under "Advanced" (API base URLs, intervals): the defaults suit most people. */
  advanced?: boolean;
  /** Asked only when another field has this value (`webhookUrl` when `mode` is `webhook`). */
  when?: { key: string; equals: string | number | boolean };
  /**
   * `secret`: the secret store entry the value is stored in. With `configKey`, the entry named
   * by that config key when the block sets it (Telegram's `tokenSecret`), else `account`.
   */
  secret?: { account: string; configKey?: string };
}

/** The setup adapter: what the UI's wizard asks, rendered from this description. */
export interface ChannelSetupAdapter {
  /** What to do before the wizard (e.g. "create a bot with @BotFather"), as short steps. */
  steps?: readonly string[];
  fields: readonly ChannelSetupField[];
}

export type ChannelPeerKind = 'direct' | 'group' | 'channel';

/** Where a message came from and where its reply goes. */
export interface ChannelTarget {
  peerKind: ChannelPeerKind;
  /** The chat (DM: the person's chat; group: the group's id). */
  peerId: string;
  /** The message being answered, for channels that thread or quote replies. */
  replyToMessageId?: string;
}

/** A photo or file that came with a message, downloaded by the plugin; it reaches the model. */
export interface ChannelAttachment {
  kind: 'image' | 'file';
  mediaType: string;
  name?: string;
  /** base64 */
  data: string;
}

/** One inbound message, already normalised by the plugin. Its text is untrusted input. */
export interface ChannelInboundMessage {
  /** Unique per account on the platform; the host drops a message id it has already taken. */
  messageId: string;
  target: ChannelTarget;
  sender: { id: string; name?: string; username?: string };
  /** The text, or a photo's caption (may be empty when attachments carry the message). */
  text: string;
  attachments?: ChannelAttachment[];
  /**
   * Downloads what the message carries; the host calls it only for a sender who passed the DM
   * policy, so a stranger's files are never fetched. `notes` name what could not be read.
   */
  loadAttachments?(): Promise<{ attachments: ChannelAttachment[]; notes: string[] }>;
  /** In a group: the bot was mentioned or the message replies to the bot. Ignored for DMs. */
  addressedToBot?: boolean;
  ts: number;
}

/** Health the UI and `hearth channels status` show. */
export type ChannelState = 'starting' | 'connected' | 'reconnecting' | 'error' | 'stopped';
export interface ChannelHealth {
  state: ChannelState;
  /** Who the channel is logged in as, e.g. `@my_bot`. */
  account?: string;
  /** Why it is not connected, in words a person can act on ("the bot token was rejected (401)…"). */
  error?: string;
}

/** A small JSON document the host persists for the channel (e.g. the Telegram update offset). */
export interface ChannelStorage {
  read(): Promise<Record<string, unknown>>;
  write(value: Record<string, unknown>): Promise<void>;
}

/** One HTTP request to a channel's webhook (body read in full, at most 1 MiB). */
export interface ChannelWebhookRequest {
  method: string;
  /** Lower-case header names. */
  headers: Record<string, string | undefined>;
  body: string;
}
export interface ChannelWebhookResponse {
  /** 2xx tells the platform the update was taken; anything else makes it deliver again. */
  status: number;
  body?: string;
}

/** Inbound HTTP for a webhook mode: the gateway serves `path` on its own port. */
export interface ChannelWebhook {
  /** e.g. `/channels/telegram/webhook`; the public URL the platform calls must reach it. */
  path: string;
  /** Only one handler at a time; disposing it answers 404 again. */
  listen(handler: (request: ChannelWebhookRequest) => Promise<ChannelWebhookResponse>): { dispose(): void };
}

/**
 * One chat command the host answers (`/new`, `/approve`, `/status`, `/dock_<channel>`), described
 * for a platform with native commands (Discord slash commands). channel-commands.ts.
 */
export interface ChannelCommand {
  /** `[a-z0-9_]{1,32}`, without the slash: `new`, `dock_telegram`. */
  name: string;
  /** At most 100 characters. */
  description: string;
  /** Its arguments, in the order they follow the name in the typed form. */
  options?: readonly ChannelCommandOption[];
}
export interface ChannelCommandOption {
  /** `[a-z0-9_-]{1,32}` */
  name: string;
  /** At most 100 characters. */
  description: string;
  required?: boolean;
  /** The values it may take (shown as choices); absent: free text. */
  choices?: readonly string[];
}

/** What a running account receives from the host. */
export interface ChannelStartContext<Config> {
  channelId: string;
  /** `default` unless the plugin runs several accounts. */
  accountId: string;
  config: Config;
  /** Reads a secret the plugin declared (`config.secrets`). */
  secret(account: string): Promise<string | undefined>;
  storage: ChannelStorage;
  log: PluginServiceContext['log'];
  fetch: typeof fetch;
  /** Aborted when the account stops (shutdown, or its config changed). */
  signal: AbortSignal;
  /**
   * Hands an inbound message to the host. Resolves once the host has taken it (persisted its
   * id, started or refused the turn), not when the reply is done: acknowledge the message to the
   * platform (e.g. advance the update offset) only after this resolves, so none is lost.
   */
  receive(message: ChannelInboundMessage): Promise<void>;
  reportHealth(health: ChannelHealth): void;
  /** Set when the gateway serves HTTP (webhook modes need it). */
  webhook?: ChannelWebhook;
  /**
   * Hands a button press (of a prompt sent with `buttons.sendPrompt`) to the host. The host
   * checks who pressed and calls `press.answer` (the presser sees a short notice). Present when
   * the host handles buttons; a plugin without buttons never calls it.
   */
  receivePress?(press: ChannelButtonPress): Promise<void>;
  /**
   * The chat commands the host answers, for a platform with native commands to register
   * (Discord slash commands). An invocation goes to `receive` as the text a person would type.
   */
  commands?: readonly ChannelCommand[];
}

/** Sends whole messages. Text arrives as model markdown; the plugin renders its dialect. */
export interface ChannelOutboundAdapter {
  sendText(target: ChannelTarget, text: string): Promise<{ messageId: string }>;
  /** A "typing…" indicator, when the platform has one. */
  sendTyping?(target: ChannelTarget): Promise<void>;
  /** A photo or document from the agent's workspace (capabilities.media; size checked by the host). */
  sendFile?(target: ChannelTarget, file: ChannelOutboundFile): Promise<{ messageId: string }>;
}

/** A photo or document the agent sends (`outbound.sendFile`), read by the host from its workspace. channel-files.ts. */
export interface ChannelOutboundFile {
  /** `image` goes out as a photo where the platform shows photos inline; `document` as a file. */
  kind: 'image' | 'document';
  /** The file name the recipient sees (no folders). */
  name: string;
  mediaType: string;
  data: Uint8Array;
  /** Plain model text shown with the file (the plugin renders its dialect). */
  caption?: string;
}

/** One reply being streamed: `update` with the whole text so far (often), `end` once. */
export interface ChannelReplyStream {
  /** Must not throw; the plugin decides how often the platform sees an update. */
  update(textSoFar: string): void;
  /** The final text: sent or edited in; resolves when the platform has it. */
  end(finalText: string): Promise<void>;
}

/** How a streamed reply appears (Telegram: one message edited in place at a bounded rate). */
export interface ChannelStreamingAdapter {
  begin(target: ChannelTarget): ChannelReplyStream;
}

/** One button of a prompt. `id` is short (at most 16 characters, `[a-z0-9_-]`). */
export interface ChannelButton {
  id: string;
  label: string;
  style?: 'primary' | 'danger';
}

/** A message with buttons (an exec approval: Allow once / Always / Deny). */
export interface ChannelPrompt {
  /** Chosen by the host, at most 40 characters `[A-Za-z0-9_-]`; comes back with every press. */
  promptId: string;
  /** Plain text (the plugin escapes it for its dialect). */
  text: string;
  buttons: readonly ChannelButton[];
}

/** Someone pressed a button of a prompt. Untrusted: the host checks `sender`. */
export interface ChannelButtonPress {
  promptId: string;
  buttonId: string;
  sender: { id: string; name?: string; username?: string };
  /** The chat the prompt is in, and the prompt's message. */
  target: ChannelTarget;
  messageId: string;
  /** Answers the press to the presser alone (Telegram answerCallbackQuery); call once. */
  answer(notice?: string): Promise<void>;
}

/** Messages with buttons (capabilities.buttons). Without it the host falls back to text commands. */
export interface ChannelButtonsAdapter {
  sendPrompt(target: ChannelTarget, prompt: ChannelPrompt): Promise<{ messageId: string }>;
  /** Replaces the prompt's text with `text` and takes its buttons away (settled, here or elsewhere). */
  settlePrompt(target: ChannelTarget, messageId: string, text: string): Promise<void>;
}

/** Finds a person's direct chat on the platform (where a DM to a user id goes). */
export interface ChannelDirectoryAdapter {
  /** The DM target for a platform user id (Telegram: the chat id is the user id). */
  directTarget(userId: string): Promise<ChannelTarget>;
}

/** The running account: disposing it stops it (and aborts `signal`). */
export interface RunningChannel {
  outbound?: ChannelOutboundAdapter;
  streaming?: ChannelStreamingAdapter;
  /** Prompts with buttons and their presses (approvals in the channel). */
  buttons?: ChannelButtonsAdapter;
  /** A user id's DM target, when it is not the user id itself (docking, owner notices). */
  directory?: ChannelDirectoryAdapter;
  /** The tools `agentTools` declares, bound to this account's connection (channel-agent-tools.ts). */
  agentTools?: readonly ChannelAgentTool[];
  dispose(): Promise<void>;
}

/** What an id on the platform looks like: `pattern` is a JavaScript regular expression source. */
export interface ChannelIdFormat {
  pattern: string;
  /** Shown in an error, e.g. "a numeric Telegram user id, such as 123456789". */
  description: string;
}

export interface ChannelPlugin<Config = unknown> {
  id: string;
  meta: ChannelMeta;
  capabilities: ChannelCapabilities;
  config: ChannelConfigAdapter<Config>;
  /**
   * Setup: the wizard the UI renders (`channels.setup.describe`). Absent: the host derives one
   * from `config.schema` and `config.secrets`.
   */
  setup?: ChannelSetupAdapter;
  /**
   * Pairing and security: the DM policy when config names none (default `pairing`); the shape of
   * a sender id and a group id, so `allowFrom` and `groups.allowlist` entries are checked when set.
   */
  security?: { defaultDmPolicy?: DmPolicy; senderId?: ChannelIdFormat; groupId?: ChannelIdFormat };
  /** Tools the channel gives the model (react, pin, members); off unless `channels.<id>.agentTools`. */
  agentTools?: ChannelAgentToolsAdapter;
  /** Config paths whose change restarts this channel only (default `channels.<id>`). */
  reload?: { configPrefixes: readonly string[] };
  /**
   * Starts one account. Should resolve quickly (connect in the background and report health);
   * a rejection is shown as the channel's status, never thrown at the gateway.
   */
  start(context: ChannelStartContext<Config>): Promise<RunningChannel>;
}

/** Identity function that gives channel authors type checking of their config type. */
export function defineChannel<Config>(plugin: ChannelPlugin<Config>): ChannelPlugin<Config> {
  return plugin;
}

// `start` is a method, so a ChannelPlugin<TelegramConfig> is a ChannelService.
export type ChannelService = ChannelPlugin<unknown>;
export type ChannelContribution = Contribution<ChannelService, PluginServiceContext>;
