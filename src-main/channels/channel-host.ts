import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Clock } from '../base/clock.js';
import { type AsyncDisposable, type Disposable, DisposableStore } from '../base/disposable.js';
import { Emitter } from '../base/emitter.js';
import { HearthError } from '../base/errors.js';
import type { Logger } from '../base/logger.js';
import type {
  ChannelAttachment,
  ChannelHealth,
  ChannelInboundMessage,
  ChannelPlugin,
  ChannelStorage,
  ChannelWebhook,
  RunningChannel,
} from '../plugins/sdk/channels.js';
import type { ChatEvent } from '../protocol/index.js';
import { type ChannelHostSettings, splitChannelConfig } from './channel-settings.js';
import { runChannelTurn } from './channel-turn.js';
import { type PairingRequest, PairingStore } from './pairing-store.js';

/** What a channel turn needs of the gateway: chat.send as a channel caller, and the `chat` events. */
export interface ChannelChat {
  send(params: {
    route: { channel: string; accountId?: string; peerKind: 'direct' | 'group' | 'channel'; peerId: string };
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
}

export interface ChannelStatusView {
  id: string;
  pluginId: string;
  name: string;
  icon?: string;
  configured: boolean;
  enabled: boolean;
  dmPolicy?: string;
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
    `Send it to the owner; they approve it with: hearth channels pairing approve ${request.code}`,
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

  private constructor(
    private readonly deps: ChannelHostDeps,
    readonly pairing: PairingStore,
  ) {
    this.store.add(this.didChange);
  }

  static async start(deps: ChannelHostDeps): Promise<ChannelHost> {
    const pairing = await PairingStore.open(join(deps.stateDir, 'pairing.json'), deps.clock);
    const host = new ChannelHost(deps, pairing);
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
          ...(entry.settings ? { dmPolicy: entry.settings.dmPolicy } : {}),
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
        storage: this.storageFor(id),
        log,
        fetch: this.deps.fetch,
        signal: controller.signal,
        // Refused once stopping, so the plugin does not acknowledge a message nobody took.
        receive: (message) =>
          controller.signal.aborted ? Promise.reject(new Error('channel stopping')) : this.receive(entry, message),
        ...(this.deps.webhookFor ? { webhook: this.deps.webhookFor(id) } : {}),
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

  private storageFor(id: string): ChannelStorage {
    const file = join(this.deps.stateDir, `${id}.json`);
    return {
      read: async () => {
        try {
          return JSON.parse(await readFile(file, 'utf8')) as Record<string, unknown>;
        } catch {
          return {};
        }
      },
      // Written after every update, so no fsync: a rename keeps the file whole, and after a power
      // loss the worst case is an older offset (a message answered twice), never a lost one.
      write: async (value) => {
        await mkdir(this.deps.stateDir, { recursive: true });
        const temp = `${file}.${process.pid}.tmp`;
        await writeFile(temp, JSON.stringify(value), { mode: 0o600 });
        await rename(temp, file);
      },
    };
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
    const turn = runChannelTurn({
      channelId: id,
      accountId: ACCOUNT,
      message,
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
