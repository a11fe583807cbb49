import type { RawGatewaySocket } from './raw-gateway-socket.js';

/**
 * Resolves once `channels.list` shows the channel connected, waiting on `channels.changed`
 * events between looks (never on a sleep): a channel starts in the background after the host.
 */
export async function waitForChannelConnected(
  socket: RawGatewaySocket,
  channelId: string,
  timeoutMs = 20_000,
): Promise<void> {
  for (;;) {
    const seen = socket.frames.length;
    const listed = await socket.request('channels.list', {});
    const status = (listed.payload as { channels: { id: string; state: string }[] }).channels.find(
      (channel) => channel.id === channelId,
    );
    if (status?.state === 'connected') return;
    await socket.next((frame) => frame.event === 'channels.changed' && socket.frames.indexOf(frame) >= seen, timeoutMs);
  }
}
