import { connect } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { connectRaw, openRawSocket } from '../testing/raw-gateway-socket.js';
import { startTestHost, type TestHost } from '../testing/test-host.js';

// The WebSocket server (ws) loads on a listener's first upgrade, not before the port opens (#23):
// the upgrades that arrive while it loads are each served, and one whose peer leaves meanwhile is dropped.
let host: TestHost | undefined;
afterEach(async () => {
  await host?.close();
  host = undefined;
});

describe('WebSocket upgrades of a fresh listener', () => {
  it('serves every upgrade that arrives together with the first one', async () => {
    host = await startTestHost({ capabilities: false });
    const url = host.wsUrl;
    const sockets = await Promise.all([1, 2, 3].map(() => openRawSocket(url)));
    for (const socket of sockets) {
      expect(await socket.next(() => true)).toMatchObject({ type: 'event', event: 'connect.challenge' });
      socket.close();
    }
  });

  it('drops an upgrade whose peer went away before it was served, and serves the next', async () => {
    host = await startTestHost({ capabilities: false });
    const { port } = new URL(host.url);
    const gone = connect(Number(port), '127.0.0.1');
    await new Promise<void>((resolve) => gone.once('connect', () => resolve()));
    const closed = new Promise<void>((resolve) => gone.once('close', () => resolve()));
    gone.write(
      `GET / HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n` +
        'Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n',
    );
    gone.resetAndDestroy();
    await closed;
    const { socket, hello } = await connectRaw(host.wsUrl, { token: host.token, scopes: ['operator.read'] });
    expect(hello).toMatchObject({ ok: true });
    socket.close();
  });
});
