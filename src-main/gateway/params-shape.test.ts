import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ServerFrame } from '../protocol/index.js';
import { connectRaw, openRawSocket, type RawGatewaySocket } from '../testing/raw-gateway-socket.js';
import { startTestHost, type TestHost } from '../testing/test-host.js';
import { assertParamsShape, paramsShapeLimits } from './params-shape.js';

// Issue 17: deeply nested params (or absurd key counts) get a coded INVALID_REQUEST on any
// method, never INTERNAL (a stack overflow) or a megabyte-long error message.

let host: TestHost;
let admin: RawGatewaySocket;
beforeAll(async () => {
  host = await startTestHost({ capabilities: false });
  admin = (await connectRaw(host.wsUrl, { token: host.token, scopes: ['operator.admin'] })).socket;
});
afterAll(async () => {
  admin.close();
  await host.close();
});

const deepArray = (depth: number) => `${'['.repeat(depth)}${']'.repeat(depth)}`;
function deepObject(depth: number): string {
  let text = '1';
  for (let i = 0; i < depth; i++) text = `{"a":${text}}`;
  return text;
}
function manyKeys(count: number): string {
  const parts: string[] = [];
  for (let i = 0; i < count; i++) parts.push(`"k${i}":${i}`);
  return `{${parts.join(',')}}`;
}

describe('params shape', () => {
  it('answers INVALID_REQUEST PARAMS_TOO_COMPLEX for 10 000-deep params and huge key counts, on any method', async () => {
    const params = [
      deepArray(10_000),
      deepObject(10_000),
      `{"patch":${deepObject(10_000)}}`,
      `{"raw":"{}","idempotencyKey":"k1","x":${deepArray(10_000)}}`,
      `{"patch":${manyKeys(20_000)}}`,
      manyKeys(20_000),
      `{"list":[${Array.from({ length: 250_000 }, () => '0').join(',')}]}`,
    ];
    const methods = [
      'health',
      'config.patch',
      'config.set',
      'chat.send',
      'device.pair.approve',
      'sessions.list',
      'no.such',
    ];
    let n = 0;
    for (const method of methods) {
      for (const text of params) {
        n += 1;
        const id = `deep-${n}`;
        admin.sendText(`{"type":"req","id":"${id}","method":"${method}","params":${text}}`);
        const res = await admin.response(id, 20_000);
        expect(res.error?.code, `${method} #${n}`).toBe('INVALID_REQUEST');
        expect(res.error?.details, `${method} #${n}`).toMatchObject({ code: 'PARAMS_TOO_COMPLEX' });
        expect(res.error!.message.length).toBeLessThan(200);
      }
    }
    expect(await admin.request('health', {})).toMatchObject({ ok: true });
  });

  it('refuses the same in connect, with a coded error', async () => {
    const socket = await openRawSocket(host.wsUrl);
    await socket.challenge();
    socket.sendText(
      `{"type":"req","id":"c1","method":"connect","params":{"minProtocol":4,"maxProtocol":4,"permissions":${deepObject(5_000)}}}`,
    );
    const res = await socket.response('c1');
    expect(res.error).toMatchObject({ code: 'INVALID_REQUEST', details: { code: 'PARAMS_TOO_COMPLEX' } });
    expect((await socket.closed).code).toBe(1008);
  });

  it('answers the same over the in-process bridge (a structured clone too deep to stringify)', async () => {
    const bridge = host.gateway.connectInProcess();
    const frames: ServerFrame[] = [];
    const waiters: (() => void)[] = [];
    bridge.onFrame((frame) => {
      frames.push(frame);
      for (const wake of waiters.splice(0)) wake();
    });
    const response = async (id: string) => {
      for (;;) {
        const found = frames.find((f) => f.type === 'res' && f.id === id);
        if (found) return found as Extract<ServerFrame, { type: 'res' }>;
        await new Promise<void>((resolve) => waiters.push(resolve));
      }
    };
    bridge.send({
      type: 'req',
      id: 'c',
      method: 'connect',
      params: {
        minProtocol: 4,
        maxProtocol: 4,
        client: { id: 'hearth-desktop', version: 't', platform: 'linux', mode: 'ui' },
        scopes: ['operator.admin'],
      },
    });
    expect((await response('c')).ok).toBe(true);
    let deep: unknown = 1;
    for (let i = 0; i < 10_000; i++) deep = [deep];
    bridge.send({ type: 'req', id: 'd', method: 'config.patch', params: { patch: { a: deep } } });
    expect((await response('d')).error).toMatchObject({
      code: 'INVALID_REQUEST',
      details: { code: 'PARAMS_TOO_COMPLEX' },
    });
    bridge.send({ type: 'req', id: 'h', method: 'health', params: {} });
    expect((await response('h')).ok).toBe(true);
    bridge.dispose();
  });

  it('lets ordinary nesting through, up to the limit', () => {
    let value: unknown = 1;
    for (let i = 0; i < paramsShapeLimits.maxDepth - 1; i++) value = { a: value };
    expect(() => assertParamsShape(value)).not.toThrow();
    expect(() => assertParamsShape({ wrap: value })).not.toThrow();
    expect(() => assertParamsShape({ wrap: { more: value } })).toThrow(/nested deeper than 64/);
    expect(() => assertParamsShape({ text: 'x'.repeat(1_000_000), list: [1, 2, 3] })).not.toThrow();
  });
});
