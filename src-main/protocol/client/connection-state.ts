import type { HelloOk } from '../connect.js';

export type ConnectionStatus = 'idle' | 'connecting' | 'connected' | 'reconnecting' | 'disconnected' | 'auth-failed';

/** What the UI shows in its connection badge; the client publishes a new object on every change. */
export interface ConnectionState {
  status: ConnectionStatus;
  /** The last error met (connect refused, socket dropped…); cleared on a successful hello. */
  lastError?: { code: string; message: string; detailCode?: string };
  /** Reconnect attempts since the last successful hello. */
  attempt: number;
  /** When `reconnecting`: the clock time of the next try. */
  nextRetryAt?: number;
  hello?: HelloOk;
}

/** Connect failures that retrying with the same credentials cannot fix (PROTOCOL.md §4, §8). */
export function isTerminalConnectError(code: string, detailCode: string | undefined): boolean {
  if (code === 'NOT_PAIRED') return true;
  if (!detailCode) return false;
  if (detailCode === 'AUTH_RATE_LIMITED') return false;
  return (
    detailCode.startsWith('AUTH_') ||
    detailCode.startsWith('DEVICE_AUTH_') ||
    detailCode === 'DEVICE_IDENTITY_REQUIRED' ||
    detailCode === 'PAIRING_REQUIRED' ||
    detailCode === 'PROTOCOL_MISMATCH'
  );
}
