import { createStore, type StoreApi } from 'zustand/vanilla';
import type { ConnectChallenge, ConnectParams } from '../../../src-main/protocol/connect.js';
import { type SetupCode, SetupCodeError } from '../../../src-main/protocol/setup-code.js';
import type { DeviceIdentity } from '../../gateway/device-identity.js';
import { signedConnectParams } from '../../gateway/device-identity-params.js';
import { readPairInput, shortDeviceId } from './pair-code.js';
import type { AttemptOutcome } from './pairing-attempt.js';
import { type PairingProblem, pairingProblem, problemFromRefusal } from './pairing-messages.js';

/** Pending requests live 5 minutes on the gateway (PROTOCOL.md §4); a new id sooner means the old one was declined. */
const REQUEST_TTL_MS = 5 * 60_000;

export type PairingPhase = 'idle' | 'connecting' | 'waiting' | 'paired' | 'failed';

export interface PairingState {
  phase: PairingPhase;
  deviceName: string;
  deviceId?: string;
  shortId?: string;
  expiresAt?: number;
  requestId?: string;
  /** Shown while still trying, e.g. "can't reach your computer yet". */
  notice?: string;
  problem?: PairingProblem;
  /** Reads the code and keeps trying until approved, refused or the code expires. */
  start(input: string): Promise<void>;
  /** Shows a problem found outside the pairing loop (e.g. a revoked device token). */
  fail(problem: PairingProblem): void;
  cancel(): void;
}

export interface PairingDeps {
  identity(): Promise<DeviceIdentity>;
  /** One handshake against `url` with the given params. */
  attempt(url: string, params: (challenge: ConnectChallenge) => Promise<ConnectParams>): Promise<AttemptOutcome>;
  /** Where to connect: the page's own origin first (it was loaded from the gateway), then the code's URLs. */
  socketUrls(code: SetupCode): string[];
  deviceName: string;
  platform: string;
  locale?: string;
  now(): number;
  sleep(ms: number): Promise<void>;
  /** Stores the device token and switches the app to it. */
  onPaired(deviceToken: string): void;
  pollMs?: number;
}

export function createPairingStore(deps: PairingDeps): StoreApi<PairingState> {
  let run = 0;
  const store = createStore<PairingState>((set, get) => ({
    phase: 'idle',
    deviceName: deps.deviceName,
    fail: (problem) => set({ phase: 'failed', problem, notice: undefined }),
    cancel() {
      run += 1;
      set({ phase: 'idle', problem: undefined, notice: undefined, requestId: undefined });
    },
    async start(input) {
      const mine = ++run;
      const live = () => mine === run;
      let code: SetupCode;
      try {
        code = readPairInput(input);
      } catch (error) {
        const detail = error instanceof SetupCodeError ? `${capitalise(error.message)}.` : undefined;
        set({ phase: 'failed', problem: pairingProblem('invalid-code', detail) });
        return;
      }
      if (code.expiresAt <= deps.now()) {
        set({ phase: 'failed', problem: pairingProblem('expired'), expiresAt: code.expiresAt });
        return;
      }
      set({ phase: 'connecting', problem: undefined, notice: undefined, expiresAt: code.expiresAt });
      let identity: DeviceIdentity;
      try {
        identity = await deps.identity();
      } catch (error) {
        const detail = error instanceof Error ? `${capitalise(error.message)}.` : undefined;
        if (live()) set({ phase: 'failed', problem: pairingProblem('unsupported', detail) });
        return;
      }
      if (!live()) return;
      set({ deviceId: identity.id, shortId: shortDeviceId(identity.id) });
      const params = (challenge: ConnectChallenge) =>
        signedConnectParams(challenge, {
          identity,
          auth: { bootstrapToken: code.bootstrapToken },
          platform: deps.platform,
          locale: deps.locale,
          displayName: deps.deviceName,
        });
      const urls = deps.socketUrls(code);
      let seen: { requestId: string; since: number } | undefined;
      while (live() && deps.now() < code.expiresAt) {
        let outcome: AttemptOutcome = { kind: 'unreachable', reason: 'no gateway address' };
        for (const url of urls) {
          outcome = await deps.attempt(url, params);
          if (outcome.kind !== 'unreachable') break;
        }
        if (!live()) return;
        if (outcome.kind === 'hello') {
          const token = outcome.hello.auth.deviceToken;
          if (!token) {
            set({
              phase: 'failed',
              problem: pairingProblem('other', 'The gateway approved this device but sent no token.'),
            });
            return;
          }
          deps.onPaired(token);
          set({ phase: 'paired', notice: undefined });
          return;
        }
        if (outcome.kind === 'unreachable') {
          set({
            notice: `Can't reach your computer yet (${outcome.reason}). Is this phone on the same network? Retrying…`,
          });
        } else {
          const details = (outcome.error.details ?? {}) as { code?: unknown; requestId?: unknown };
          if (details.code !== 'PAIRING_REQUIRED') {
            set({ phase: 'failed', problem: problemFromRefusal(outcome.error), notice: undefined });
            return;
          }
          const requestId = typeof details.requestId === 'string' ? details.requestId : '';
          const now = deps.now();
          if (seen && requestId !== seen.requestId && now - seen.since < REQUEST_TTL_MS) {
            set({ phase: 'failed', problem: pairingProblem('rejected'), notice: undefined });
            return;
          }
          if (!seen || requestId !== seen.requestId) seen = { requestId, since: now };
          set({ phase: 'waiting', requestId, notice: undefined });
        }
        await deps.sleep(deps.pollMs ?? 2000);
      }
      if (live() && get().phase !== 'paired')
        set({ phase: 'failed', problem: pairingProblem('timed-out'), notice: undefined });
    },
  }));
  return store;
}

function capitalise(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
