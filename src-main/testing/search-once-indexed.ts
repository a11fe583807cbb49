import type { AnyFrame, RawGatewaySocket } from './raw-gateway-socket.js';

/**
 * The first index run of `agentId` to finish (`memory.changed` with reason `files`) among the
 * frames from index `from` on: take `from = socket.frames.length` before the step that starts the run.
 */
export function indexRunAfter(
  socket: RawGatewaySocket,
  agentId: string,
  from: number,
  timeoutMs = 60_000,
): Promise<AnyFrame> {
  return socket.next(
    (frame) =>
      socket.frames.indexOf(frame) >= from &&
      frame.type === 'event' &&
      frame.event === 'memory.changed' &&
      (frame.payload as { agentId?: string }).agentId === agentId &&
      (frame.payload as { reason?: string }).reason === 'files',
    timeoutMs,
  );
}

/**
 * `memory.search` until its answer contains `needle`, waiting between tries for the agent's next
 * finished index run, never on a timer: the index builds in the background after the gateway
 * starts, as slowly as a loaded machine makes it.
 */
export async function searchOnceIndexed(
  socket: RawGatewaySocket,
  params: { query: string; agentId?: string; userId?: string },
  needle: string,
  timeoutMs = 60_000,
): Promise<AnyFrame> {
  for (;;) {
    // Counted from before the search, so a run that ends while it is answered is not missed.
    const from = socket.frames.length;
    const found = await socket.request('memory.search', params);
    if (JSON.stringify(found.payload ?? found.error).includes(needle)) return found;
    await indexRunAfter(socket, params.agentId ?? 'main', from, timeoutMs).catch(() => {
      throw new Error(
        `memory.search ${JSON.stringify(params)} never found "${needle}", and no index run finished within ${timeoutMs} ms`,
      );
    });
  }
}
