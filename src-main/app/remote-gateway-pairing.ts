import type WebSocket from 'ws';
import {
  type ConnectChallenge,
  type ConnectParams,
  decodeSetupCode,
  type HelloOk,
  type SetupCode,
  SetupCodeError,
} from '../protocol/index.js';
import {
  type DesktopDevice,
  desktopConnectParams,
  gatewayIdOf,
  type RemoteGatewayIdentity,
  type RemoteGatewayRecord,
} from './remote-gateway-identity.js';
import { CertificatePinError, openPinnedSocket } from './remote-gateway-socket.js';

/** Scopes the desktop asks a remote gateway for; a setup code allows these by default. */
export const REMOTE_SCOPES = ['operator.read', 'operator.write', 'operator.approvals'];

export type HandshakeOutcome =
  | { kind: 'hello'; hello: HelloOk }
  | { kind: 'refused'; error: { code: string; message: string; details?: unknown } };

/**
 * One `connect` on a fresh pinned socket: challenge → signed params → hello or refusal.
 * The socket is handed back open after a hello (the relay keeps using it) and closed otherwise.
 * Throws CertificatePinError, or Error when the gateway cannot be reached.
 */
export async function handshake(
  url: string,
  pin: string,
  params: (challenge: ConnectChallenge) => ConnectParams,
  timeoutMs = 10_000,
): Promise<{ outcome: HandshakeOutcome; socket: WebSocket }> {
  const socket = await openPinnedSocket(url, { pin, timeoutMs });
  return new Promise((resolve, reject) => {
    const id = 'desktop-connect';
    const timer = setTimeout(() => fail(new Error(`no answer from ${url} within ${timeoutMs / 1000} s`)), timeoutMs);
    const fail = (error: Error) => {
      clearTimeout(timer);
      socket.off('message', onMessage);
      socket.close();
      reject(error);
    };
    const onMessage = (data: WebSocket.RawData) => {
      let frame: { type?: string; event?: string; payload?: unknown; id?: string; ok?: boolean; error?: unknown };
      try {
        frame = JSON.parse(data.toString()) as typeof frame;
      } catch {
        return fail(new Error(`${url} sent something that is not a protocol frame`));
      }
      if (frame.type === 'event' && frame.event === 'connect.challenge') {
        socket.send(
          JSON.stringify({ type: 'req', id, method: 'connect', params: params(frame.payload as ConnectChallenge) }),
        );
        return;
      }
      if (frame.type !== 'res' || frame.id !== id) return;
      clearTimeout(timer);
      socket.off('message', onMessage);
      if (frame.ok) {
        resolve({ outcome: { kind: 'hello', hello: frame.payload as HelloOk }, socket });
      } else {
        socket.close();
        const error = (frame.error ?? { code: 'INTERNAL', message: 'connect failed' }) as {
          code: string;
          message: string;
          details?: unknown;
        };
        resolve({ outcome: { kind: 'refused', error }, socket });
      }
    };
    socket.on('message', onMessage);
    socket.once('close', (code, reason) =>
      fail(new Error(`${url} closed the connection (${code} ${reason.toString()})`)),
    );
  });
}

export type PairingProblemKind =
  | 'invalid-code'
  | 'expired'
  | 'already-used'
  | 'rejected'
  | 'timed-out'
  | 'rate-limited'
  | 'signature'
  | 'certificate'
  | 'other';

/** Why pairing stopped, in the words the pairing screen shows (kind picks the title, message the detail). */
export class RemotePairingError extends Error {
  constructor(
    readonly kind: PairingProblemKind,
    message: string,
  ) {
    super(message);
    this.name = 'RemotePairingError';
  }
}

export interface PairingProgress {
  phase: 'connecting' | 'waiting';
  deviceId: string;
  expiresAt: number;
  gatewayName?: string;
  requestId?: string;
  /** e.g. the gateway cannot be reached yet; pairing keeps trying until the code expires. */
  notice?: string;
}

export interface PairDesktopDeps {
  identity: RemoteGatewayIdentity;
  version: string;
  platform: string;
  displayName: string;
  now(): number;
  sleep(ms: number): Promise<void>;
  onProgress(progress: PairingProgress): void;
  /** Set when the person cancelled: the loop stops at its next step. */
  cancelled(): boolean;
  pollMs?: number;
}

/** Pending requests live 5 minutes on the gateway; a new request id sooner means the old one was declined. */
const REQUEST_TTL_MS = 5 * 60_000;

/**
 * Pairs this desktop with another machine's gateway from its setup code (the
 * `hearth://pair?code=…` link or the bare code): the protocol the phone uses — the
 * device's own Ed25519 key plus the code's single-use bootstrap token, over TLS pinned
 * to the code's fingerprint — and waits until a person approves it on that machine.
 * The device token it gets goes to the secret store; the gateway is remembered by pin.
 */
export async function pairDesktop(codeText: string, deps: PairDesktopDeps): Promise<RemoteGatewayRecord> {
  let code: SetupCode;
  try {
    code = decodeSetupCode(codeText, deps.now());
  } catch (error) {
    if (error instanceof SetupCodeError) {
      throw new RemotePairingError(/expired/.test(error.message) ? 'expired' : 'invalid-code', `${error.message}.`);
    }
    throw error;
  }
  const bad = code.urls.find((url) => !url.startsWith('wss://'));
  if (bad) throw new RemotePairingError('invalid-code', `The gateway address ${bad} is not wss:// (pinned TLS).`);
  const device: DesktopDevice = await deps.identity.device();
  const base = { deviceId: device.id, expiresAt: code.expiresAt, gatewayName: code.name };
  deps.onProgress({ phase: 'connecting', ...base });
  const params = (challenge: ConnectChallenge) =>
    desktopConnectParams(device, challenge, {
      version: deps.version,
      platform: deps.platform,
      scopes: REMOTE_SCOPES,
      auth: { bootstrapToken: code.bootstrapToken },
      displayName: deps.displayName,
    });
  let seen: { requestId: string; since: number } | undefined;
  while (!deps.cancelled() && deps.now() < code.expiresAt) {
    let unreachable: string | undefined;
    for (const url of code.urls) {
      let result: Awaited<ReturnType<typeof handshake>>;
      try {
        result = await handshake(url, code.tlsFingerprint, params);
      } catch (error) {
        if (error instanceof CertificatePinError) throw new RemotePairingError('certificate', error.message);
        unreachable = (error as Error).message;
        continue;
      }
      unreachable = undefined;
      const { outcome, socket } = result;
      if (outcome.kind === 'hello') {
        socket.close(1000, 'paired');
        const token = outcome.hello.auth.deviceToken;
        if (!token)
          throw new RemotePairingError('other', 'The gateway approved this computer but sent no device token.');
        const record: RemoteGatewayRecord = {
          id: gatewayIdOf(code.tlsFingerprint),
          urls: [url, ...code.urls.filter((other) => other !== url)],
          tlsFingerprint: code.tlsFingerprint,
          name: code.name,
          scopes: [...outcome.hello.auth.scopes],
          pairedAt: deps.now(),
        };
        await deps.identity.saveToken(record.id, token);
        const file = await deps.identity.read();
        await deps.identity.write({
          ...file,
          gateways: [...file.gateways.filter((gateway) => gateway.id !== record.id), record],
        });
        return record;
      }
      const details = (outcome.error.details ?? {}) as { code?: unknown; requestId?: unknown; retryAfterMs?: unknown };
      if (details.code !== 'PAIRING_REQUIRED') throw refusalError(outcome.error, details);
      const requestId = typeof details.requestId === 'string' ? details.requestId : '';
      const now = deps.now();
      if (seen && requestId !== seen.requestId && now - seen.since < REQUEST_TTL_MS) {
        throw new RemotePairingError('rejected', 'The pairing request was declined on the other computer.');
      }
      if (!seen || requestId !== seen.requestId) seen = { requestId, since: now };
      deps.onProgress({ phase: 'waiting', ...base, requestId });
      break;
    }
    if (unreachable) deps.onProgress({ phase: 'connecting', ...base, notice: unreachable });
    await deps.sleep(deps.pollMs ?? 2000);
  }
  if (deps.cancelled()) throw new RemotePairingError('other', 'Pairing was cancelled.');
  throw new RemotePairingError('timed-out', 'Nobody approved this computer before the code expired.');
}

function refusalError(
  error: { code: string; message: string },
  details: { code?: unknown; retryAfterMs?: unknown },
): RemotePairingError {
  const detailCode = typeof details.code === 'string' ? details.code : '';
  if (detailCode === 'AUTH_BOOTSTRAP_TOKEN_INVALID') return new RemotePairingError('already-used', `${error.message}.`);
  if (detailCode === 'AUTH_RATE_LIMITED') return new RemotePairingError('rate-limited', `${error.message}.`);
  if (detailCode.startsWith('DEVICE_AUTH_')) return new RemotePairingError('signature', `${error.message}.`);
  return new RemotePairingError('other', `${error.message}.`);
}
