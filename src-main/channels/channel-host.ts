import { join } from 'node:path';
import type { Clock } from '../base/clock.js';
import { type AsyncDisposable, type Disposable, DisposableStore } from '../base/disposable.js';
import { Emitter } from '../base/emitter.js';
import { HearthError } from '../base/errors.js';
import type { Logger } from '../base/logger.js';
import { formatMegabytes } from '../plugins/sdk/channel-files.js';
import type {
  ChannelAttachment,
  ChannelButtonPress,
  ChannelHealth,
  ChannelInboundMessage,
  ChannelOutboundFile,
  ChannelPlugin,
  ChannelTarget,
  ChannelWebhook,
  RunningChannel,
} from '../plugins/sdk/channels.js';
import type { ToolDefinition } from '../plugins/sdk/index.js';
import { type ChannelDeliveryTarget, type ChatEvent, formatDeliveryTarget } from '../protocol/index.js';
import { channelToolDefinitions, enabledAgentTools } from './channel-agent-tools.js';
import type { ChannelLanguage } from './channel-approval-words.js';
import { type ApprovalPlace, type ChannelApprovalService, ChannelApprovals } from './channel-approvals.js';
import { channelCommands } from './channel-commands.js';
import {
  accountKey,
  accountOn,
  type Dock,
  DockStore,
  OWNER_PERSON,
  personOf,
  splitAccount,
} from './channel-identity.js';
import { type ChannelHostSettings, checkHostSettings, splitChannelConfig } from './channel-settings.js';
import { channelStorageAt } from './channel-storage.js';
import { runChannelTurn } from './channel-turn.js';
import { type PairingRequest, PairingStore } from './pairing-store.js';

export interface ChannelRoute {
  channel: string;
  accountId?: string;
  peerKind: 'direct' | 'group' | 'channel';
  peerId: string;
}

/** What a channel turn needs of the gateway: chat.send as a channel caller, and the `chat` events. */
export interface ChannelChat {
  /** With `sessionKey` (resolved by the host, or a docked conversation's) or `route`, not both. */
  send(params: {
    route?: ChannelRoute;
    sessionKey?: string;
    message: string;
    idempotencyKey: string;
    attachments?: ChannelAttachment[];
  }): Promise<
    | { ok: true; payload: { runId: string; status: string; command?: { reply: string } } }
    | { ok: false; error: { message: string } }
  >;
  onEvent(listener: (event: ChatEvent) => void): Disposable;
}

export interface RegisteredChannel {
  id: string;
  pluginId: string;
  create(): Promise<ChannelPlugin> | ChannelPlugin;
}

export interface ChannelHostDeps {
  channels: readonly RegisteredChannel[];
  /** The `channels` section of hearth.json, read at each (re)start. */
  config(): Record<string, unknown> | undefined;
  onConfigChange(prefixes: readonly string[], listener: () => void): Disposable;
  secrets: { get(account: string): Promise<string | undefined> };
  /** `state/channels`: pairings and each channel's storage. */
  stateDir: string;
  fetch: typeof fetch;
  clock: Clock;
  log: Logger;
  chat: ChannelChat;
  /** The gateway's HTTP route for a channel's webhook (absent without an HTTP server). */
  webhookFor?(channelId: string): ChannelWebhook;
  /** `memory.identityLinks`: person → accounts (`telegram:42`); `owner` answers approvals. */
  identityLinks?(): Record<string, string[]>;
  /** The session a route lands in (agents.bindings, session.dmScope); throws when it cannot be routed. */
  sessionKeyFor?(route: ChannelRoute): string;
  /** `/status`: the model, the session and today's usage, as text. */
  status?(input: { sessionKey: string; channelId: string }): Promise<string>;
  /** The exec approval service (approvals offered in channels); absent: none are. */
  approvals?(): ChannelApprovalService | undefined;
  /** `ui.language` (Settings → Language): what approval prompts, buttons and replies are written in. */
  language?(): ChannelLanguage;
}

/** Where a session's replies, approvals and notices go: the chat its last message came from (or it was docked to). */
interface Delivery {
  channelId: string;
  target: ChannelTarget;
  senderId: string;
  /** The person's last message there (what a channel tool reacts to or pins). */
  lastMessageId?: string;
}

export interface ChannelIdentityView {
  person: string;
  accounts: { account: string; channel: string; userId: string; known: boolean }[];
  dock?: Dock;
}

export interface ChannelStatusView {
  id: string;
  pluginId: string;
  name: string;
  icon?: string;
  configured: boolean;
  enabled: boolean;
  dmPolicy?: string;
  /** The host's keys of `channels.<id>` as in effect (absent until it is configured and valid). */
  settings?: ChannelHostSettings;
  health: ChannelHealth;
  lastMessageAt?: number;
  lastError?: string;
  startedAt?: number;
  restarts: number;
}

const ACCOUNT = 'default';
const SEEN_LIMIT = 2_000;
/** How long a restart lets replies in flight finish; at shutdown the runtime aborts them soon after. */
const RESTART_GRACE_MS = 10_000;
const SHUTDOWN_GRACE_MS = 1_000;

/** The words an unknown sender gets, once per code. Nothing in it comes from their message. */
export function pairingInstruction(request: PairingRequest): string {
  return [
    'Hi! This assistant only answers people its owner has approved.',
    `Your pairing code is ${request.code} (valid for 1 hour).`,
    `Send it to the owner; they approve it in the app (Channels → Pairing requests) or with: hearth channels pairing approve ${request.code}`,
  ].join('\n');
}

interface Entry {
  registered: RegisteredChannel;
  plugin?: ChannelPlugin;
  running?: RunningChannel;
  settings?: ChannelHostSettings;
  controller?: AbortController;
  health: ChannelHealth;
  configured: boolean;
  lastMessageAt?: number;
  lastError?: string;
  startedAt?: number;
  restarts: number;
  seen: Set<string>;
  /** Start/stop of this channel, one after the other. */
  lifecycle: Promise<void>;
  turns: Set<Promise<void>>;
}

/**
 * Runs the configured channel plugins. An inbound message passes the DM policy first (a sender
 * who is not paired or allowlisted never reaches the agent; with `pairing` they get a code, once),
 * then goes to the agent through chat.send with its route, as a caller without approval or admin
 * scopes (a channel message is untrusted input: it cannot `/approve`, change config or raise
 * scopes), and the reply streams back through the channel's streaming adapter. A config change
 * under a channel's prefixes restarts that channel only. A failing channel is a status, never a
 * thrown error at the gateway.
 */
export class ChannelHost implements AsyncDisposable {
  private readonly entries = new Map<string, Entry>();
  private readonly store = new DisposableStore();
  private readonly didChange = new Emitter<{ channel: string; reason: 'status' | 'pairing' }>();
  readonly onDidChange = this.didChange.event;
  private disposed = false;
  private readonly deliveries = new Map<string, Delivery>();
  /** The approval prompter the exec approval service asks (registered by the wiring). */
  readonly approvals: ChannelApprovals;

  private constructor(
    private readonly deps: ChannelHostDeps,
    readonly pairing: PairingStore,
    private readonly docks: DockStore,
  ) {
    this.store.add(this.didChange);
    this.approvals = new ChannelApprovals({
      placeFor: (sessionKey) => this.placeFor(sessionKey),
      isOwner: (channelId, senderId) => this.isOwner(channelId, senderId),
      approvals: () => deps.approvals?.(),
      language: () => deps.language?.() ?? 'en',
      log: deps.log.child({ part: 'channel-approvals' }),
    });
  }

  static async start(deps: ChannelHostDeps): Promise<ChannelHost> {
    const pairing = await PairingStore.open(join(deps.stateDir, 'pairing.json'), deps.clock);
    const docks = await DockStore.open(join(deps.stateDir, 'docks.json'));
    const host = new ChannelHost(deps, pairing, docks);
    for (const registered of deps.channels) {
      const entry: Entry = {
        registered,
        health: { state: 'stopped' },
        configured: false,
        restarts: 0,
        seen: new Set(),
        lifecycle: Promise.resolve(),
        turns: new Set(),
      };
      host.entries.set(registered.id, entry);
      const plugin = await Promise.resolve(registered.create()).catch((error: unknown) => {
        entry.health = {
          state: 'error',
          error: `the ${registered.id} plugin failed to create its channel: ${String(error)}`,
        };
        return undefined;
      });
      if (!plugin) continue;
      entry.plugin = plugin;
      const prefixes = plugin.reload?.configPrefixes ?? [`channels.${registered.id}`];
      host.store.add(deps.onConfigChange(prefixes, () => void host.restart(registered.id, 'config changed')));
      void host.restart(registered.id, 'start');
    }
    return host;
  }

  /** Every channel plugin, plus any `channels.<id>` block no plugin provides (shown as an error). */
  list(): ChannelStatusView[] {
    const orphans: ChannelStatusView[] = Object.keys(this.deps.config() ?? {})
      .filter((id) => !this.entries.has(id))
      .map((id) => ({
        id,
        pluginId: '',
        name: id,
        configured: true,
        enabled: false,
        health: {
          state: 'error',
          error: `channels.${id} is configured, but no installed plugin provides a "${id}" channel (installed: ${[...this.entries.keys()].join(', ') || 'none'})`,
        },
        restarts: 0,
      }));
    return [...this.entries.values()]
      .map(
        (entry): ChannelStatusView => ({
          id: entry.registered.id,
          pluginId: entry.registered.pluginId,
          name: entry.plugin?.meta.name ?? entry.registered.id,
          ...(entry.plugin?.meta.icon ? { icon: entry.plugin.meta.icon } : {}),
          configured: entry.configured,
          enabled: entry.settings?.enabled ?? false,
          ...(entry.settings ? { dmPolicy: entry.settings.dmPolicy, settings: entry.settings } : {}),
          health: entry.health,
          ...(entry.lastMessageAt ? { lastMessageAt: entry.lastMessageAt } : {}),
          ...(entry.lastError ? { lastError: entry.lastError } : {}),
          ...(entry.startedAt ? { startedAt: entry.startedAt } : {}),
          restarts: entry.restarts,
        }),
      )
      .concat(orphans);
  }

  plugin(id: string): ChannelPlugin | undefined {
    return this.entries.get(id)?.plugin;
  }

  /** Resolves once every start or restart asked for so far has settled (tests, status after a change). */
  async settled(): Promise<void> {
    await Promise.all([...this.entries.values()].map((entry) => entry.lifecycle));
  }

  /** Stops and starts one channel; throws not_found naming the channels there are. */
  async restartChannel(id: string): Promise<void> {
    if (!this.entries.get(id)?.plugin) {
      throw new HearthError(
        'not_found',
        `no channel ${JSON.stringify(id)} (channels: ${[...this.entries.keys()].join(', ') || 'none'})`,
      );
    }
    await this.restart(id, 'restart asked');
  }

  /** A person approved a pairing code: the sender is told, in the chat the request came from. */
  async approvePairing(code: string) {
    const approved = await this.pairing.approve(code);
    this.didChange.fire({ channel: approved.request.channel, reason: 'pairing' });
    const entry = this.entries.get(approved.request.channel);
    await entry?.running?.outbound
      ?.sendText(
        { peerKind: 'direct', peerId: approved.request.peerId },
        'You are approved: your messages now reach the assistant.',
      )
      .catch((error: unknown) =>
        this.deps.log.warn('could not tell a sender they were approved', { error: String(error) }),
      );
    return approved;
  }

  async rejectPairing(code: string): Promise<PairingRequest> {
    const request = await this.pairing.reject(code);
    this.didChange.fire({ channel: request.channel, reason: 'pairing' });
    return request;
  }

  private restart(id: string, reason: string): Promise<void> {
    const entry = this.entries.get(id)!;
    entry.lifecycle = entry.lifecycle.then(async () => {
      await this.stop(entry);
      if (this.disposed) return;
      if (reason !== 'start') entry.restarts++;
      await this.begin(entry);
      this.didChange.fire({ channel: id, reason: 'status' });
    });
    return entry.lifecycle;
  }

  /**
   * Stops receiving at once (the context's signal), lets replies in flight finish for up to
   * `graceMs`, then disposes the running channel (its connection).
   */
  private async stop(entry: Entry, graceMs = RESTART_GRACE_MS): Promise<void> {
    entry.controller?.abort(new Error('channel stopping'));
    const running = entry.running;
    entry.running = undefined;
    entry.controller = undefined;
    if (entry.turns.size > 0) {
      await new Promise<void>((resolve) => {
        const timer = this.deps.clock.setTimeout(resolve, graceMs);
        void Promise.allSettled([...entry.turns]).then(() => {
          timer.dispose();
          resolve();
        });
      });
    }
    if (running)
      await running
        .dispose()
        .catch((error: unknown) => this.deps.log.warn('channel stop failed', { error: String(error) }));
    entry.health = { ...entry.health, state: 'stopped' };
  }

  private async begin(entry: Entry): Promise<void> {
    const { id } = entry.registered;
    const plugin = entry.plugin!;
    const log = this.deps.log.child({ channel: id });
    const raw = this.deps.config()?.[id];
    entry.configured = raw !== undefined;
    if (!entry.configured) {
      entry.settings = undefined;
      entry.health = { state: 'stopped', error: `not configured (add "channels.${id}" to hearth.json)` };
      return;
    }
    let pluginConfig: unknown;
    try {
      const split = splitChannelConfig(id, raw, plugin.security?.defaultDmPolicy ?? 'pairing');
      checkHostSettings(id, plugin, split.host);
      entry.settings = split.host;
      pluginConfig = plugin.config.validate(split.plugin);
    } catch (error) {
      entry.health = { state: 'error', error: `invalid config: ${(error as Error).message}` };
      log.error('channel config is invalid; not started', { error: (error as Error).message });
      return;
    }
    if (!entry.settings.enabled) {
      entry.health = { state: 'stopped', error: `disabled (channels.${id}.enabled is false)` };
      return;
    }
    const controller = new AbortController();
    entry.controller = controller;
    entry.health = { state: 'starting' };
    entry.startedAt = this.deps.clock.now();
    try {
      entry.running = await plugin.start({
        channelId: id,
        accountId: ACCOUNT,
        config: pluginConfig,
        secret: (account) => this.deps.secrets.get(account),
        storage: channelStorageAt(join(this.deps.stateDir, `${id}.json`)),
        log,
        fetch: this.deps.fetch,
        signal: controller.signal,
        // Refused once stopping, so the plugin does not acknowledge a message nobody took.
        receive: (message) =>
          controller.signal.aborted ? Promise.reject(new Error('channel stopping')) : this.receive(entry, message),
        ...(this.deps.webhookFor ? { webhook: this.deps.webhookFor(id) } : {}),
        receivePress: (press: ChannelButtonPress) =>
          controller.signal.aborted ? Promise.resolve() : this.approvals.press(id, press),
        // Every other installed channel is a `/dock_<id>` (some may still be being created now).
        commands: channelCommands(
          this.deps.channels
            .filter((other) => other.id !== id)
            .map((other) => ({ id: other.id, name: this.entries.get(other.id)?.plugin?.meta.name ?? other.id })),
        ),
        reportHealth: (health) => {
          if (controller.signal.aborted) return;
          entry.health = health;
          if (health.error) entry.lastError = health.error;
          this.didChange.fire({ channel: id, reason: 'status' });
        },
      });
    } catch (error) {
      controller.abort();
      entry.controller = undefined;
      entry.health = { state: 'error', error: (error as Error).message };
      entry.lastError = (error as Error).message;
      log.error('channel failed to start', { error: (error as Error).message });
    }
  }

  /** The gate: only a paired, allowlisted (or, with `open`, any) sender's message becomes a turn. */
  private async receive(entry: Entry, message: ChannelInboundMessage): Promise<void> {
    const { id } = entry.registered;
    const settings = entry.settings!;
    const log = this.deps.log.child({ channel: id });
    if (entry.seen.has(message.messageId)) return;
    entry.seen.add(message.messageId);
    if (entry.seen.size > SEEN_LIMIT) entry.seen.delete(entry.seen.values().next().value!);
    entry.lastMessageAt = this.deps.clock.now();
    const known = settings.allowFrom.includes(message.sender.id) || this.pairing.isPaired(id, message.sender.id);

    if (message.target.peerKind !== 'direct') {
      if (!settings.groups.enabled) return;
      if (settings.groups.allowlist.length > 0 && !settings.groups.allowlist.includes(message.target.peerId)) {
        log.info('message in a group not on groups.allowlist; ignored', { group: message.target.peerId });
        return;
      }
      if (settings.groups.requireMention && !message.addressedToBot) return;
      // Codes go by DM only; in a group, an unknown sender is not answered at all.
      if (!known && settings.dmPolicy !== 'open') {
        log.info('group message from a sender who is not paired; ignored', { sender: message.sender.id });
        return;
      }
    } else {
      switch (settings.dmPolicy) {
        case 'disabled':
          return;
        case 'open':
          break;
        case 'allowlist':
          if (!known) {
            log.info('DM from a sender not on allowFrom; ignored', { sender: message.sender.id });
            return;
          }
          break;
        case 'pairing':
          if (!known) {
            await this.askToPair(entry, message);
            return;
          }
          break;
      }
    }
    const running = entry.running;
    if (!running) return;
    const account = accountKey(id, message.sender.id);
    const direct = message.target.peerKind === 'direct';
    if (direct)
      await this.docks
        .sawDirect(account, message.target.peerId)
        .catch((error: unknown) => log.warn('could not remember a DM chat', { error: String(error) }));
    const person = direct ? personOf(account, this.links()) : undefined;
    const docked = person ? this.docks.dockOf(person) : undefined;
    const sessionKey = docked?.sessionKey ?? this.sessionKeyOf(id, message);

    // Channel commands the host answers itself, without a model turn.
    const reply = await this.command(entry, message, sessionKey, person);
    if (reply !== undefined) {
      await running.outbound
        ?.sendText(message.target, reply)
        .catch((error: unknown) => log.warn('could not answer a channel command', { error: String(error) }));
      return;
    }
    if (sessionKey)
      this.deliveries.set(sessionKey, {
        channelId: id,
        target: message.target,
        senderId: message.sender.id,
        lastMessageId: message.messageId,
      });
    const turn = runChannelTurn({
      channelId: id,
      accountId: ACCOUNT,
      message,
      ...(docked ? { sessionKey: docked.sessionKey } : {}),
      running,
      chat: this.deps.chat,
      clock: this.deps.clock,
      log,
      onError: (error) => {
        entry.lastError = error;
        this.didChange.fire({ channel: id, reason: 'status' });
      },
    });
    const finished = turn.done.finally(() => entry.turns.delete(finished));
    entry.turns.add(finished);
    await turn.started;
  }

  /**
   * The model's tools for a run of `sessionKey`: those of the channel the session is on (where its
   * last message came from, or it was docked to), when `channels.<id>.agentTools` enables them.
   * A session on no channel (the app's own chats, a subagent) gets none.
   */
  agentToolsFor(sessionKey: string): ToolDefinition[] {
    const live = () => {
      const delivery = this.deliveries.get(sessionKey);
      const entry = delivery ? this.entries.get(delivery.channelId) : undefined;
      if (!delivery || !entry?.settings || !entry.running) return undefined;
      const tools = enabledAgentTools(entry.settings.agentTools, entry.running.agentTools);
      if (tools.length === 0) return undefined;
      const { target, senderId, lastMessageId } = delivery;
      const conversation = { target, senderId, ...(lastMessageId ? { lastMessageId } : {}) };
      return {
        channelId: delivery.channelId,
        name: entry.plugin?.meta.name ?? delivery.channelId,
        conversation,
        tools,
      };
    };
    const now = live();
    if (!now) return [];
    return channelToolDefinitions({
      channelId: now.channelId,
      channelName: now.name,
      sessionKey,
      tools: now.tools,
      // At call time: still this channel (a dock elsewhere ends it), its current connection and chat.
      conversation: () => {
        const later = live();
        return later?.channelId === now.channelId ? later : undefined;
      },
    });
  }

  private links(): Record<string, string[]> {
    return this.deps.identityLinks?.() ?? {};
  }

  private sessionKeyOf(channelId: string, message: ChannelInboundMessage): string | undefined {
    try {
      return this.deps.sessionKeyFor?.({
        channel: channelId,
        accountId: ACCOUNT,
        peerKind: message.target.peerKind,
        peerId: message.target.peerId,
      });
    } catch {
      return undefined; // chat.send gives the routing error to the sender
    }
  }

  /** A sender the channel lets through: on allowFrom, or paired. */
  private isKnown(channelId: string, senderId: string): boolean {
    const entry = this.entries.get(channelId);
    return (entry?.settings?.allowFrom.includes(senderId) ?? false) || this.pairing.isPaired(channelId, senderId);
  }

  /** The owner's account on a channel: linked to `owner` in identityLinks, and paired or allowlisted there. */
  isOwner(channelId: string, senderId: string): boolean {
    return (
      (this.links()[OWNER_PERSON] ?? []).includes(accountKey(channelId, senderId)) && this.isKnown(channelId, senderId)
    );
  }

  /** A running channel's DM target for a user id: the plugin's directory, the chat last seen, else the id. */
  private async directTarget(channelId: string, userId: string): Promise<ChannelTarget> {
    const running = this.entries.get(channelId)?.running;
    if (running?.directory) return running.directory.directTarget(userId);
    return { peerKind: 'direct', peerId: this.docks.direct(accountKey(channelId, userId)) ?? userId };
  }

  /** Where an approval of this session's run is offered: its chat if the owner is there, else the owner's DM. */
  private placeFor(sessionKey: string): ApprovalPlace | undefined {
    const delivery = this.deliveries.get(sessionKey);
    if (!delivery) return undefined;
    const entry = this.entries.get(delivery.channelId);
    const running = entry?.running;
    if (!running || !entry.plugin) return undefined;
    const buttons = entry.plugin.capabilities.buttons && running.buttons !== undefined;
    const base = { channelId: delivery.channelId, running, buttons };
    // A DM with the owner, or a group (the owner may press there; anyone else is refused).
    if (delivery.target.peerKind !== 'direct' || this.isOwner(delivery.channelId, delivery.senderId))
      return { ...base, target: delivery.target };
    const owner = accountOn(OWNER_PERSON, delivery.channelId, this.links());
    if (!owner || !this.isKnown(delivery.channelId, owner.userId)) return undefined;
    const peerId = this.docks.direct(accountKey(delivery.channelId, owner.userId)) ?? owner.userId;
    return {
      ...base,
      target: { peerKind: 'direct', peerId },
      onBehalfOf: `${accountKey(delivery.channelId, delivery.senderId)}'s conversation`,
    };
  }

  /**
   * Tells the owner on every channel where their account is linked and known (a spend limit
   * crossed). `onceKey` makes it once ever per key (kept across restarts); answers how many got it.
   */
  async notifyOwner(text: string, onceKey?: string): Promise<number> {
    if (onceKey && !(await this.docks.firstNotice(onceKey))) return 0;
    let sent = 0;
    for (const account of this.links()[OWNER_PERSON] ?? []) {
      const split = splitAccount(account);
      const running = split ? this.entries.get(split.channel)?.running : undefined;
      if (!split || !running?.outbound || !this.isKnown(split.channel, split.userId)) continue;
      try {
        await running.outbound.sendText(await this.directTarget(split.channel, split.userId), text);
        sent++;
      } catch (error) {
        this.deps.log.warn('could not send the owner a notice', { channel: split.channel, error: String(error) });
      }
    }
    return sent;
  }

  /**
   * Background work's result (a cron run, a heartbeat reply) sent where the person asked, not in
   * answer to a message. A DM reaches only someone who may write to the agent (paired or on
   * allowFrom), so a job can never message a stranger; a group only where the channel answers
   * groups. Resolves with where it went; throws naming why it cannot be sent.
   */
  async deliver(target: ChannelDeliveryTarget, text: string): Promise<string> {
    if (target.kind === 'owner') {
      const sent = await this.notifyOwner(text);
      if (sent === 0) {
        throw new HearthError(
          'unavailable',
          'no channel reaches the owner: link their accounts under memory.identityLinks.owner (e.g. ["telegram:<your user id>"]), pair them, and keep the channel connected',
        );
      }
      return `the owner, on ${sent} channel${sent === 1 ? '' : 's'}`;
    }
    const to = formatDeliveryTarget(target);
    const entry = this.entries.get(target.channel);
    if (!entry?.plugin) {
      throw new HearthError(
        'not_found',
        `${to}: no channel "${target.channel}" (channels: ${[...this.entries.keys()].join(', ') || 'none'})`,
      );
    }
    const running = entry.running;
    if (!running?.outbound) {
      const health = `${entry.health.state}${entry.health.error ? `: ${entry.health.error}` : ''}`;
      throw new HearthError('unavailable', `${to}: ${entry.plugin.meta.name} is not running (${health})`);
    }
    let destination: ChannelTarget;
    if (target.peerKind === 'direct') {
      if (!this.isKnown(target.channel, target.peerId)) {
        throw new HearthError(
          'forbidden',
          `${to}: that user is not paired with ${entry.plugin.meta.name} or on its allowFrom; the agent only writes to people who may write to it`,
        );
      }
      destination = await this.directTarget(target.channel, target.peerId);
    } else {
      if (!entry.settings?.groups.enabled) {
        throw new HearthError(
          'forbidden',
          `${to}: groups are off for ${entry.plugin.meta.name} (channels.${target.channel}.groups.enabled)`,
        );
      }
      destination = { peerKind: target.peerKind, peerId: target.peerId };
    }
    await running.outbound.sendText(destination, text);
    return to;
  }

  /**
   * A file the agent sends (`channel_send_file`) into the chat this session's replies go to. Throws
   * naming why not: the conversation is not on a channel, the channel does not take that kind of
   * file, or the file is over the platform's limit.
   */
  async sendFile(sessionKey: string, file: ChannelOutboundFile): Promise<string> {
    const delivery = this.deliveries.get(sessionKey);
    if (!delivery)
      throw new HearthError('not_found', 'this conversation is not on a channel: there is no chat to send a file to');
    const entry = this.entries.get(delivery.channelId);
    const plugin = entry?.plugin;
    const name = plugin?.meta.name ?? delivery.channelId;
    const running = entry?.running;
    if (!plugin || !running?.outbound) throw new HearthError('unavailable', `${name} is not running`);
    const kind = file.kind === 'image' ? 'image' : 'document';
    if (!running.outbound.sendFile || !plugin.capabilities.media.includes(kind))
      throw new HearthError('unavailable', `${name} cannot send ${kind === 'image' ? 'photos' : 'documents'}`);
    const limit = plugin.capabilities.maxUploadBytes;
    if (limit !== undefined && file.data.length > limit)
      throw new HearthError(
        'bad_request',
        `${file.name} is ${formatMegabytes(file.data.length)}, over ${name}'s limit of ${formatMegabytes(limit)} for a bot's file; send a smaller file or a link`,
      );
    await running.outbound.sendFile(delivery.target, file);
    return `sent ${file.name} (${formatMegabytes(file.data.length)}) to the ${name} chat`;
  }

  /** Linked identities (identityLinks), whether each account may reach the agent, and docked conversations. */
  identities(): ChannelIdentityView[] {
    return Object.entries(this.links()).map(([person, accounts]) => {
      const dock = this.docks.dockOf(person);
      return {
        person,
        accounts: accounts.map((account) => {
          const split = splitAccount(account);
          return {
            account,
            channel: split?.channel ?? '',
            userId: split?.userId ?? account,
            known: split ? this.isKnown(split.channel, split.userId) : false,
          };
        }),
        ...(dock ? { dock } : {}),
      };
    });
  }

  /** `/approve` (an approval offered here, from the owner), `/status`, `/dock_<channel>`; undefined for anything else. */
  private async command(
    entry: Entry,
    message: ChannelInboundMessage,
    sessionKey: string | undefined,
    person: string | undefined,
  ): Promise<string | undefined> {
    const { id } = entry.registered;
    const text = message.text.trim();
    const name = /^\/([A-Za-z0-9_]+)(?:@\S+)?(?:\s|$)/.exec(text)?.[1]?.toLowerCase();
    if (!name) return undefined;
    if (name === 'approve') return this.approvals.command(id, message.sender.id, text);
    if (name === 'status') {
      if (!sessionKey || !this.deps.status) return 'Status is not available here.';
      try {
        return await this.deps.status({ sessionKey, channelId: id });
      } catch (error) {
        return `Status is not available: ${(error as Error).message}`;
      }
    }
    if (name.startsWith('dock_')) return this.dock(entry, message, sessionKey, person, name.slice('dock_'.length));
    return undefined;
  }

  /** `/dock_<channel>`: the conversation continues on the same person's account there, in the same session. */
  private async dock(
    entry: Entry,
    message: ChannelInboundMessage,
    sessionKey: string | undefined,
    person: string | undefined,
    to: string,
  ): Promise<string> {
    const from = entry.registered.id;
    const account = accountKey(from, message.sender.id);
    if (message.target.peerKind !== 'direct') return 'Only a direct conversation can be docked; write to me in a DM.';
    const target = this.entries.get(to);
    if (!target?.plugin)
      return `There is no channel "${to}" (channels: ${[...this.entries.keys()].join(', ') || 'none'}).`;
    const toName = target.plugin.meta.name;
    if (to === from) return `This conversation is already on ${toName}.`;
    const linked = person ? accountOn(person, to, this.links()) : undefined;
    if (!person || !linked)
      return (
        `I cannot move this conversation to ${toName}: your account ${account} is not linked to an account on ${toName}. ` +
        `Link them in hearth.json under memory.identityLinks, e.g. {"you": ["${account}", "${to}:<your ${toName} user id>"]}.`
      );
    if (!target.running || target.health.state !== 'connected')
      return `I cannot move this conversation to ${toName}: it is not connected (${target.health.state}${target.health.error ? `: ${target.health.error}` : ''}).`;
    if (!this.isKnown(to, linked.userId))
      return `I cannot move this conversation to ${toName}: ${accountKey(to, linked.userId)} is linked, but not paired there yet. Write to the bot on ${toName} and approve its pairing code first.`;
    if (!sessionKey) return 'I cannot move this conversation: it has no session yet.';
    const destination = await this.directTarget(to, linked.userId);
    const fromName = entry.plugin?.meta.name ?? from;
    await this.docks.dock(person, { sessionKey, channel: to, userId: linked.userId, dockedAt: this.deps.clock.now() });
    this.deliveries.set(sessionKey, { channelId: to, target: destination, senderId: linked.userId });
    this.didChange.fire({ channel: to, reason: 'status' });
    await target.running.outbound
      ?.sendText(destination, `Continuing your conversation from ${fromName} here.`)
      .catch((error: unknown) => this.deps.log.warn('could not greet a docked conversation', { error: String(error) }));
    return `Moved this conversation to ${toName}: write to me there, it keeps everything we said.`;
  }

  private async askToPair(entry: Entry, message: ChannelInboundMessage): Promise<void> {
    const { id } = entry.registered;
    const asked = await this.pairing.ask(id, message.sender, message.target.peerId);
    const log = this.deps.log.child({ channel: id });
    if (asked.kind === 'full') {
      log.warn('a sender asked to pair, but 3 requests are already pending; ignored', { sender: message.sender.id });
      return;
    }
    if (asked.kind === 'pending') return;
    this.didChange.fire({ channel: id, reason: 'pairing' });
    log.info('channel pairing requested', { sender: message.sender.id, code: asked.request.code });
    await entry.running?.outbound
      ?.sendText(message.target, pairingInstruction(asked.request))
      .catch((error: unknown) => log.warn('could not send the pairing instruction', { error: String(error) }));
  }

  async dispose(): Promise<void> {
    if (this.disposed) return;
    this.disposed = true;
    this.store.dispose();
    await Promise.all(
      [...this.entries.values()].map((entry) => {
        entry.lifecycle = entry.lifecycle.then(() => this.stop(entry, SHUTDOWN_GRACE_MS));
        return entry.lifecycle;
      }),
    );
  }
}
