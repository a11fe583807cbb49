import type { Transport } from '../../../src-main/protocol/client/transport.js';
import type { ConnectChallenge, ConnectParams, HelloOk } from '../../../src-main/protocol/connect.js';

export type AttemptOutcome =
  | { kind: 'hello'; hello: HelloOk }
  | { kind: 'refused'; error: { code: string; message: string; details?: unknown } }
  | { kind: 'unreachable'; reason: string };

/**
 * One pairing handshake on a fresh socket: challenge → signed `connect` → hello or refusal.
 * Unlike the app's client it keeps the refusal's details (requestId, retryAfterMs), which
 * the pairing screen needs, and it never retries by itself.
 */
export function attemptHandshake(
  transport: Transport,
  connectParams: (challenge: ConnectChallenge) => Promise<ConnectParams>,
  timeoutMs = 10_000,
): Promise<AttemptOutcome> {
  return new Promise((resolve) => {
    let done = false;
    const id = `pair-${Math.random().toString(36).slice(2)}`;
    const finish = (outcome: AttemptOutcome) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      transport.close(1000, 'pairing attempt done');
      resolve(outcome);
    };
    const timer = setTimeout(() => finish({ kind: 'unreachable', reason: 'no answer from the gateway' }), timeoutMs);
    transport.onClose((info) =>
      finish({ kind: 'unreachable', reason: info.reason || `connection closed (${info.code})` }),
    );
    transport.onFrame((frame) => {
      if (frame.type === 'event' && frame.event === 'connect.challenge') {
        connectParams(frame.payload as ConnectChallenge).then(
          (params) => transport.send({ type: 'req', id, method: 'connect', params }),
          (error: unknown) =>
            finish({
              kind: 'refused',
              error: { code: 'UNSUPPORTED', message: error instanceof Error ? error.message : String(error) },
            }),
        );
        return;
      }
      if (frame.type === 'res' && frame.id === id) {
        if (frame.ok) finish({ kind: 'hello', hello: frame.payload as HelloOk });
        else finish({ kind: 'refused', error: frame.error ?? { code: 'INTERNAL', message: 'connect failed' } });
      }
    });
    transport
      .open()
      .catch((error: unknown) =>
        finish({ kind: 'unreachable', reason: error instanceof Error ? error.message : String(error) }),
      );
  });
}
