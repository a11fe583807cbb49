import type { AnyFrame, RawGatewaySocket } from './raw-gateway-socket.js';

/**
 * Test support (never shipped): one chat turn over a real socket, as a client sees it —
 * `chat.send`, then the run's `chat` event in state `final` or `error`.
 */
export function isChatEnd(frame: AnyFrame, runId: string): boolean {
  if (frame.event !== 'chat') return false;
  const payload = frame.payload as { runId?: string; state?: string };
  return payload.runId === runId && (payload.state === 'final' || payload.state === 'error');
}

export interface ChatTurnInput {
  /** The idempotency key, which is also the run id the events carry. */
  key: string;
  message: string;
  sessionKey?: string;
  /** Where the message came from (channel, peerKind, peerId), for routed turns. */
  route?: Record<string, string>;
}

/** Sends one message and resolves with the payload of the run's end event. */
export async function chatTurn(
  socket: RawGatewaySocket,
  input: ChatTurnInput,
  timeoutMs = 30_000,
): Promise<Record<string, unknown>> {
  const target = input.route ? { route: input.route } : { sessionKey: input.sessionKey ?? 'main' };
  await socket.request('chat.send', { ...target, message: input.message, idempotencyKey: input.key });
  const end = await socket.next((frame) => isChatEnd(frame, input.key), timeoutMs);
  return end.payload as Record<string, unknown>;
}
