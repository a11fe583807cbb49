import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorCodes, serverFrameSchema } from '../protocol/index.js';
import { connectRaw, openRawSocket, type RawGatewaySocket } from '../testing/raw-gateway-socket.js';
import { startTestHost, type TestHost } from '../testing/test-host.js';

// Property: whatever arrives on the wire, the gateway answers with well-formed
// frames or closes that one socket with a protocol close code — it never crashes,
// and other clients keep working.

let host: TestHost;
beforeAll(async () => {
  host = await startTestHost();
});
afterAll(async () => {
  await host.close();
});

const methods = [
  'health',
  'status',
  'system-presence',
  'config.get',
  'config.schema',
  'config.patch',
  'connect',
  'chat.send',
  'x',
  '',
];

const validRequest = fc.record({
  type: fc.constant('req'),
  id: fc.string({ minLength: 1, maxLength: 8 }),
  method: fc.constantFrom(...methods),
  params: fc.option(fc.jsonValue({ maxDepth: 3 }), { nil: undefined }),
});

/** Valid-looking frames with one thing broken. */
const mutatedRequest = fc
  .tuple(
    validRequest,
    fc.constantFrom('drop-type', 'drop-id', 'type', 'id-number', 'extra-key', 'method-type', 'params-string', 'none'),
    fc.jsonValue(),
  )
  .map(([frame, mutation, junk]) => {
    const out: Record<string, unknown> = { ...frame };
    if (mutation === 'drop-type') delete out.type;
    if (mutation === 'drop-id') delete out.id;
    if (mutation === 'type') out.type = junk;
    if (mutation === 'id-number') out.id = 7;
    if (mutation === 'extra-key') out.surprise = junk;
    if (mutation === 'method-type') out.method = junk;
    if (mutation === 'params-string') out.params = 'params';
    return JSON.stringify(out);
  });

const anyFrame = fc.oneof(
  { weight: 5, arbitrary: mutatedRequest },
  { weight: 3, arbitrary: validRequest.map((f) => JSON.stringify(f)) },
  { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 4 }).map((v) => JSON.stringify(v)) },
  { weight: 1, arbitrary: fc.string({ maxLength: 200, unit: 'binary' }) },
);

const allowedCloseCodes = [1000, 1002, 1008, 1009];

function checkFrames(socket: RawGatewaySocket): void {
  for (const frame of socket.frames) {
    expect(serverFrameSchema.safeParse(frame).success).toBe(true);
    if (frame.type === 'res' && frame.ok === false) expect(errorCodes).toContain(frame.error?.code);
  }
}

describe('wire fuzz', () => {
  it('survives 10 000 random and mutated frames', async () => {
    const sentinel = await connectRaw(host.wsUrl, { token: host.token, scopes: ['operator.read'] });
    const samples = fc.sample(anyFrame, { numRuns: 10_000, seed: 20261130 });
    let socket: RawGatewaySocket | undefined;
    let closes = 0;
    for (let i = 0; i < samples.length; i++) {
      const preConnect = i % 10 === 0;
      if (preConnect) {
        const fresh = await openRawSocket(host.wsUrl);
        await fresh.challenge();
        fresh.sendText(samples[i]!);
        // Whatever it was, the socket either gets an answer or is closed: no half-open sockets.
        fresh.sendText(JSON.stringify({ type: 'req', id: 'probe', method: 'health' }));
        const outcome = await Promise.race([
          fresh.closed.then((c) => c.code),
          fresh.response('probe', 20_000).then(() => 'answered'),
        ]);
        if (typeof outcome === 'number') expect(allowedCloseCodes).toContain(outcome);
        checkFrames(fresh);
        fresh.close();
        continue;
      }
      if (!socket)
        socket = (await connectRaw(host.wsUrl, { token: host.token, scopes: ['operator.read', 'operator.write'] }))
          .socket;
      socket.sendText(samples[i]!);
      if (i % 50 === 49 || socket.ws.readyState !== socket.ws.OPEN) {
        const done = await Promise.race([
          socket.closed.then((c) => c.code),
          socket.request('health', {}, 20_000).then(() => 'open'),
        ]);
        checkFrames(socket);
        if (typeof done === 'number') {
          expect(allowedCloseCodes).toContain(done);
          closes += 1;
          socket = undefined;
        }
      }
    }
    socket?.close();
    expect(closes).toBeGreaterThan(0);
    expect(await sentinel.socket.request('health', {})).toMatchObject({ ok: true });
    expect(sentinel.socket.ws.readyState).toBe(sentinel.socket.ws.OPEN);
    sentinel.socket.close();
  }, 180_000);
});
