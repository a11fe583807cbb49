import { randomUUID } from 'node:crypto';
import type { Clock } from '../../base/clock.js';
import { type Disposable, Emitter } from '../../base/index.js';
import type { PairingRequestView } from '../../protocol/methods/devices.js';

export const PAIRING_REQUEST_TTL_MS = 5 * 60_000;

export interface PairingRequest {
  requestId: string;
  deviceId: string;
  publicKey: string;
  clientId: string;
  clientMode: string;
  role: string;
  scopes: string[];
  displayName?: string;
  platform?: string;
  remoteAddress?: string;
  silent: boolean;
  isRepair: boolean;
  reason: 'not-paired' | 'role-upgrade' | 'scope-upgrade';
  /** Came in with a valid bootstrap (setup-code) token. */
  viaBootstrap: boolean;
  /** Which setup code (a hash of its token, never the token): one code, one pending request. */
  setupCodeKey?: string;
  /** The device that asked for that setup code: it may not approve what its code brought in. */
  setupCodeIssuerDeviceId?: string;
  ts: number;
  expiresAtMs: number;
}

export type PairingDecision = 'approved' | 'rejected' | 'expired';

/**
 * Devices waiting for a person to approve them. One pending request per device:
 * a device that retries gets its existing request back instead of a new prompt.
 */
export class PairingRequests implements Disposable {
  private readonly pending = new Map<string, PairingRequest>();
  private readonly didRequest = new Emitter<PairingRequest>();
  private readonly didResolve = new Emitter<{ request: PairingRequest; decision: PairingDecision }>();
  readonly onDidRequest = this.didRequest.event;
  readonly onDidResolve = this.didResolve.event;
  private readonly sweeper: Disposable;

  constructor(private readonly clock: Clock) {
    this.sweeper = clock.setInterval(() => this.sweep(), 30_000);
  }

  open(request: Omit<PairingRequest, 'requestId' | 'ts' | 'expiresAtMs'>): PairingRequest {
    this.sweep();
    const existing = [...this.pending.values()].find((r) => r.deviceId === request.deviceId && r.role === request.role);
    if (existing) return existing;
    const now = this.clock.now();
    const created: PairingRequest = {
      ...request,
      requestId: randomUUID(),
      ts: now,
      expiresAtMs: now + PAIRING_REQUEST_TTL_MS,
    };
    this.pending.set(created.requestId, created);
    this.didRequest.fire(created);
    return created;
  }

  list(): PairingRequest[] {
    this.sweep();
    return [...this.pending.values()];
  }

  get(requestId: string): PairingRequest | undefined {
    this.sweep();
    return this.pending.get(requestId);
  }

  /** Removes and returns the request; undefined when unknown or already resolved. */
  resolve(requestId: string, decision: Exclude<PairingDecision, 'expired'>): PairingRequest | undefined {
    this.sweep();
    const request = this.pending.get(requestId);
    if (!request) return undefined;
    this.pending.delete(requestId);
    this.didResolve.fire({ request, decision });
    return request;
  }

  private sweep(): void {
    const now = this.clock.now();
    for (const request of [...this.pending.values()]) {
      if (request.expiresAtMs <= now) {
        this.pending.delete(request.requestId);
        this.didResolve.fire({ request, decision: 'expired' });
      }
    }
  }

  dispose(): void {
    this.sweeper.dispose();
    this.didRequest.dispose();
    this.didResolve.dispose();
  }
}

/** What clients see of a request (device.pair.list, device.pair.requested). */
export function pairingRequestView(request: PairingRequest): PairingRequestView {
  return {
    requestId: request.requestId,
    deviceId: request.deviceId,
    publicKey: request.publicKey,
    clientId: request.clientId,
    clientMode: request.clientMode,
    displayName: request.displayName,
    platform: request.platform,
    remoteAddress: request.remoteAddress,
    role: request.role,
    scopes: request.scopes,
    isRepair: request.isRepair,
    reason: request.reason,
    viaSetupCode: request.viaBootstrap,
    ts: request.ts,
    expiresAtMs: request.expiresAtMs,
  };
}
