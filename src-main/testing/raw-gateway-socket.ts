import { createPrivateKey, createPublicKey, generateKeyPairSync, type KeyObject, randomUUID, sign } from 'node:crypto';
import WebSocket from 'ws';
import { deviceIdFromPublicKey } from '../gateway/auth/device-proof.js';
import { base64UrlEncode, buildDeviceAuthPayloadV3 } from '../protocol/index.js';

/** Any server frame, loosely typed: tests inspect whatever came. */
export interface AnyFrame {
  type: string;
  id?: string;
  ok?: boolean;
  payload?: unknown;
  error?: { code: string; message: string; details?: unknown; retryable?: boolean; retryAfterMs?: number };
  event?: string;
  seq?: number;
  stateVersion?: { presence: number; health: number };
}

/**
 * A WebSocket client for tests that sees every frame, raw: the handshake, bad input
 * and fuzz tests need to send what a well-behaved client never would.
 */
export interface RawGatewaySocket {
  readonly ws: WebSocket;
  readonly frames: AnyFrame[];
  challenge(): Promise<{ nonce: string; ts: number }>;
  send(frame: unknown): void;
  sendText(text: string): void;
  next(predicate: (frame: AnyFrame) => boolean, timeoutMs?: number): Promise<AnyFrame>;
  response(id: string, timeoutMs?: number): Promise<AnyFrame>;
  request(method: string, params?: unknown, timeoutMs?: number): Promise<AnyFrame>;
  readonly closed: Promise<{ code: number; reason: string }>;
  close(): void;
}

export async function openRawSocket(
  url: string,
  options: { headers?: Record<string, string>; ca?: string; rejectUnauthorized?: boolean } = {},
): Promise<RawGatewaySocket> {
  const ws = new WebSocket(url, {
    headers: options.headers,
    ca: options.ca,
    rejectUnauthorized: options.rejectUnauthorized,
  });
  const frames: AnyFrame[] = [];
  const waiters: { predicate: (f: AnyFrame) => boolean; resolve: (f: AnyFrame) => void }[] = [];
  let counter = 0;
  const closed = new Promise<{ code: number; reason: string }>((resolve) => {
    ws.on('close', (code, reason) => resolve({ code, reason: reason.toString() }));
  });
  ws.on('message', (data) => {
    const frame = JSON.parse(data.toString()) as AnyFrame;
    frames.push(frame);
    for (const waiter of [...waiters]) {
      if (waiter.predicate(frame)) {
        waiters.splice(waiters.indexOf(waiter), 1);
        waiter.resolve(frame);
      }
    }
  });
  await new Promise<void>((resolve, reject) => {
    ws.once('open', () => resolve());
    ws.once('error', reject);
  });
  ws.on('error', () => {});
  const next = (predicate: (frame: AnyFrame) => boolean, timeoutMs = 5000) =>
    new Promise<AnyFrame>((resolve, reject) => {
      const found = frames.find(predicate);
      if (found) return resolve(found);
      const timer = setTimeout(() => reject(new Error('timed out waiting for a frame')), timeoutMs);
      const waiter = {
        predicate,
        resolve: (frame: AnyFrame) => {
          clearTimeout(timer);
          resolve(frame);
        },
      };
      waiters.push(waiter);
      void closed.then(() => {
        if (waiters.includes(waiter)) {
          clearTimeout(timer);
          reject(new Error('socket closed before the frame arrived'));
        }
      });
    });
  const socket: RawGatewaySocket = {
    ws,
    frames,
    closed,
    async challenge() {
      const frame = await next((f) => f.type === 'event' && f.event === 'connect.challenge');
      return frame.payload as { nonce: string; ts: number };
    },
    send: (frame) => ws.send(JSON.stringify(frame)),
    sendText: (text) => ws.send(text),
    next,
    response: (id, timeoutMs) => next((f) => f.type === 'res' && f.id === id, timeoutMs),
    async request(method, params, timeoutMs) {
      counter += 1;
      const id = `t${counter}:${randomUUID()}`;
      ws.send(JSON.stringify({ type: 'req', id, method, params }));
      return next((f) => f.type === 'res' && f.id === id, timeoutMs);
    },
    close: () => ws.close(),
  };
  return socket;
}

export interface TestDeviceKey {
  id: string;
  publicKey: string;
  privateKey: KeyObject;
}

export function createTestDeviceKey(): TestDeviceKey {
  const { publicKey, privateKey } = generateKeyPairSync('ed25519');
  const raw = publicKey.export({ format: 'der', type: 'spki' }).subarray(12);
  return { id: deviceIdFromPublicKey(raw), publicKey: base64UrlEncode(new Uint8Array(raw)), privateKey };
}

export function deviceKeyFromSeed(seed: Uint8Array): TestDeviceKey {
  const prefix = Buffer.from('302e020100300506032b657004220420', 'hex');
  const privateKey = createPrivateKey({
    key: Buffer.concat([prefix, Buffer.from(seed)]),
    format: 'der',
    type: 'pkcs8',
  });
  const raw = createPublicKey(privateKey).export({ format: 'der', type: 'spki' }).subarray(12);
  return { id: deviceIdFromPublicKey(raw), publicKey: base64UrlEncode(new Uint8Array(raw)), privateKey };
}

export interface ConnectOptions {
  token?: string;
  password?: string;
  deviceToken?: string;
  bootstrapToken?: string;
  scopes?: string[];
  role?: string;
  clientId?: string;
  clientMode?: string;
  platform?: string;
  device?: TestDeviceKey;
  /** Tamper hooks for bad-input tests. */
  signNonce?: string;
  signedAt?: number;
}

export function connectParams(challenge: { nonce: string; ts: number }, options: ConnectOptions) {
  const role = options.role ?? 'operator';
  const scopes = options.scopes ?? ['operator.read'];
  const clientId = options.clientId ?? 'cli';
  const clientMode = options.clientMode ?? 'cli';
  const platform = options.platform ?? 'linux';
  const auth: Record<string, string> = {};
  if (options.token) auth.token = options.token;
  if (options.password) auth.password = options.password;
  if (options.deviceToken) auth.deviceToken = options.deviceToken;
  if (options.bootstrapToken) auth.bootstrapToken = options.bootstrapToken;
  const params: Record<string, unknown> = {
    minProtocol: 4,
    maxProtocol: 4,
    client: { id: clientId, version: 'test', platform, mode: clientMode, instanceId: randomUUID() },
    caps: [],
    auth,
    role,
    scopes,
  };
  if (options.device) {
    const signedAt = options.signedAt ?? challenge.ts;
    const payload = buildDeviceAuthPayloadV3({
      deviceId: options.device.id,
      clientId,
      clientMode,
      role,
      scopes,
      signedAt,
      token: options.token ?? options.deviceToken ?? options.bootstrapToken,
      nonce: options.signNonce ?? challenge.nonce,
      platform,
    });
    params.device = {
      id: options.device.id,
      publicKey: options.device.publicKey,
      signature: base64UrlEncode(new Uint8Array(sign(null, Buffer.from(payload), options.device.privateKey))),
      signedAt,
      nonce: options.signNonce ?? challenge.nonce,
    };
  }
  return params;
}

/** Opens a socket and completes the handshake; returns the socket and the connect response. */
export async function connectRaw(
  url: string,
  options: ConnectOptions & { headers?: Record<string, string>; ca?: string },
) {
  const socket = await openRawSocket(url, { headers: options.headers, ca: options.ca });
  const challenge = await socket.challenge();
  const hello = await socket.request('connect', connectParams(challenge, options));
  return { socket, hello };
}
