import WebSocket from 'ws';
import { type ChannelStartContext, sleep } from '../../src-main/plugins/sdk/index.js';

// The Discord Gateway over a plain WebSocket (https://discord.com/developers/docs/events/gateway):
// HELLO (op 10) → heartbeats (op 1, answered by op 11) and IDENTIFY (op 2) → READY; dispatches
// (op 0) carry a sequence number `s`. After a drop the client RESUMEs (op 6, session_id + the
// last seq) at READY's resume_gateway_url and Discord replays what was missed; RECONNECT (op 7)
// asks for the same; INVALID_SESSION (op 9, d=false) means identify again.

export const GatewayOp = {
  dispatch: 0,
  heartbeat: 1,
  identify: 2,
  resume: 6,
  reconnect: 7,
  invalidSession: 9,
  hello: 10,
  heartbeatAck: 11,
} as const;

/** GUILDS | GUILD_MESSAGES | DIRECT_MESSAGES | MESSAGE_CONTENT. */
export const DISCORD_INTENTS = (1 << 0) | (1 << 9) | (1 << 12) | (1 << 15);

/** Close codes after which connecting again would only repeat the failure. */
const FATAL_CLOSES: Record<number, string> = {
  4004: 'Discord rejected the bot token (gateway close 4004 Authentication failed): store a valid token from the Developer Portal with `hearth channels token discord`',
  4010: 'Discord refused the shard settings (gateway close 4010 Invalid shard)',
  4011: 'this bot is in too many guilds to run without sharding (gateway close 4011)',
  4012: 'Discord refused the gateway version (gateway close 4012 Invalid API version)',
  4013: 'Discord refused the intents (gateway close 4013 Invalid intents)',
  4014: 'Discord refused the Message Content intent (gateway close 4014 Disallowed intents): enable "Message Content Intent" for the bot in the Developer Portal',
};
/** Close codes after which the session cannot be resumed (identify anew). */
const SESSION_LOST = new Set([4007, 4009]);

interface Payload {
  op: number;
  d?: unknown;
  s?: number | null;
  t?: string | null;
}

export interface GatewayUser {
  id: string;
  username: string;
  discriminator?: string;
}

export interface DiscordGatewayOptions {
  url: string;
  token: string;
  intents: number;
  signal: AbortSignal;
  log: ChannelStartContext<unknown>['log'];
  /** Each dispatch, in sequence order; the next one waits for this to resolve. */
  onDispatch(type: string, data: unknown): Promise<void>;
  onReady(user: GatewayUser): void;
  onTrouble(error: string, fatal: boolean): void;
  /** Wait before identifying again after INVALID_SESSION (Discord asks for 1–5 s). */
  invalidSessionDelayMs?: () => number;
}

interface Session {
  id: string;
  resumeUrl: string;
}

/** Runs the gateway until `signal` aborts or Discord refuses for good (a fatal close). */
export class DiscordGateway {
  private session: Session | undefined;
  /** Last sequence number received (sent in heartbeats and RESUME). */
  private seq: number | null = null;
  private chain: Promise<void> = Promise.resolve();
  private socket: WebSocket | undefined;
  private readyUser: GatewayUser | undefined;
  /** Counts connections; tests and logs read it. */
  connections = 0;

  constructor(private readonly options: DiscordGatewayOptions) {
    options.signal.addEventListener('abort', () => this.socket?.close(1000), { once: true });
  }

  async run(): Promise<void> {
    const { signal, log } = this.options;
    let backoffMs = 0;
    while (!signal.aborted) {
      const started = Date.now();
      const { code, reason, healthy } = await this.connectOnce();
      if (signal.aborted) return;
      const fatal = FATAL_CLOSES[code];
      if (fatal) {
        this.options.onTrouble(fatal, true);
        return;
      }
      if (SESSION_LOST.has(code)) this.session = undefined;
      // Let what was received be handed over first, so a RESUME carries the right seq.
      await this.chain;
      const why = `the Discord gateway connection closed (${code}${reason ? ` ${reason}` : ''}); resuming`;
      this.options.onTrouble(why, false);
      if (healthy || Date.now() - started > 60_000) backoffMs = 0;
      log.warn('discord gateway closed; reconnecting', { code, reason, retryInMs: backoffMs });
      if (backoffMs > 0) await sleep(backoffMs, signal).catch(() => {});
      backoffMs = Math.min(Math.max(backoffMs * 2, 500), 30_000);
    }
  }

  /** One WebSocket connection, until it closes. `healthy`: it reached READY or RESUMED. */
  private connectOnce(): Promise<{ code: number; reason: string; healthy: boolean }> {
    const { token, intents, log } = this.options;
    const base = this.session?.resumeUrl ?? this.options.url;
    const url = `${base.replace(/\/+$/, '')}/?v=10&encoding=json`;
    this.connections++;
    return new Promise((resolve) => {
      let heartbeat: ReturnType<typeof setTimeout> | undefined;
      let acked = true;
      let healthy = false;
      let settled = false;
      const ws = new WebSocket(url, { handshakeTimeout: 15_000 });
      this.socket = ws;
      const send = (payload: Payload) => {
        if (ws.readyState === WebSocket.OPEN) ws.send(JSON.stringify(payload));
      };
      const finish = (code: number, reason: string) => {
        if (settled) return;
        settled = true;
        if (heartbeat) clearTimeout(heartbeat);
        resolve({ code, reason, healthy });
      };
      const beat = () => send({ op: GatewayOp.heartbeat, d: this.seq });
      const schedule = (ms: number, interval: number) => {
        heartbeat = setTimeout(() => {
          if (!acked) {
            // No ACK since the last beat: a zombie connection. Drop it and resume.
            log.warn('discord gateway missed a heartbeat ACK; reconnecting');
            ws.terminate();
            return;
          }
          acked = false;
          beat();
          schedule(interval, interval);
        }, ms);
      };
      ws.on('message', (raw) => {
        let payload: Payload;
        try {
          payload = JSON.parse(String(raw)) as Payload;
        } catch {
          log.warn('discord gateway sent a frame that is not JSON; ignored');
          return;
        }
        switch (payload.op) {
          case GatewayOp.hello: {
            const interval = Number((payload.d as { heartbeat_interval?: unknown })?.heartbeat_interval) || 41_250;
            schedule(Math.floor(interval * Math.random()), interval);
            if (this.session && this.seq !== null)
              send({ op: GatewayOp.resume, d: { token, session_id: this.session.id, seq: this.seq } });
            else
              send({
                op: GatewayOp.identify,
                d: { token, intents, properties: { os: process.platform, browser: 'hearth', device: 'hearth' } },
              });
            break;
          }
          case GatewayOp.heartbeatAck:
            acked = true;
            break;
          case GatewayOp.heartbeat:
            beat();
            break;
          case GatewayOp.reconnect:
            ws.close(4000, 'reconnect requested');
            break;
          case GatewayOp.invalidSession: {
            const resumable = payload.d === true;
            if (!resumable) {
              this.session = undefined;
              this.seq = null;
            }
            const delay = this.options.invalidSessionDelayMs?.() ?? 1000 + Math.random() * 4000;
            setTimeout(() => ws.close(4000, 'invalid session'), delay);
            break;
          }
          case GatewayOp.dispatch: {
            if (typeof payload.s === 'number') this.seq = payload.s;
            const type = payload.t ?? '';
            const data = payload.d;
            if (type === 'READY') {
              const ready = data as { session_id?: unknown; resume_gateway_url?: unknown; user?: GatewayUser };
              if (typeof ready.session_id === 'string')
                this.session = {
                  id: ready.session_id,
                  resumeUrl: typeof ready.resume_gateway_url === 'string' ? ready.resume_gateway_url : this.options.url,
                };
              this.readyUser = ready.user ?? this.readyUser;
            }
            if ((type === 'READY' || type === 'RESUMED') && this.readyUser) {
              healthy = true;
              this.options.onReady(this.readyUser);
            }
            this.chain = this.chain.then(() =>
              this.options.onDispatch(type, data).catch((error: unknown) => {
                log.error('discord dispatch failed', { type, error: String(error) });
              }),
            );
            break;
          }
        }
      });
      ws.on('close', (code, reason) => finish(code, String(reason)));
      ws.on('error', (error) => {
        log.debug('discord gateway socket error', { error: String(error.message).split(token).join('<token>') });
        // 'close' follows an error once the socket was opened; a failed handshake only errors.
        if (ws.readyState !== WebSocket.OPEN) setImmediate(() => finish(1006, error.message));
      });
    });
  }
}
