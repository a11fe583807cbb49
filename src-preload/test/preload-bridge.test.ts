import { EventEmitter } from 'node:events';
import { describe, expect, it } from 'vitest';
import type { HearthBridge, IpcRendererLike } from '../hearth-bridge.js';
import { runPreloadInSandbox } from './load-preload.js';

const FRAME_CHANNEL = 'hearth:frame';

class FakeIpcRenderer extends EventEmitter implements IpcRendererLike {
  readonly sent: { channel: string; args: unknown[] }[] = [];
  send(channel: string, ...args: unknown[]): void {
    this.sent.push({ channel, args });
  }
  async invoke(channel: string, ...args: unknown[]): Promise<unknown> {
    this.sent.push({ channel, args });
    return { active: 'local', gateways: [] };
  }
  /** What Electron does when main calls webContents.send(channel, frame). */
  deliver(frame: unknown): void {
    this.emit(FRAME_CHANNEL, { sender: this, ports: [] }, frame);
  }
}

async function exposedBridge(
  argv = ['electron', '--hearth-version=0.1.0', '--hearth-gateway-url=http://127.0.0.1:18790'],
) {
  const ipc = new FakeIpcRenderer();
  const result = await runPreloadInSandbox({ ipcRenderer: ipc, argv });
  return { ipc, result, bridge: result.exposed.get('hearth') as HearthBridge };
}

const request = { type: 'req' as const, id: '1', method: 'health' };

describe('preload (run as Electron runs a sandboxed preload)', () => {
  it('exposes window.hearth and nothing else, requiring only electron', async () => {
    const { result, bridge } = await exposedBridge();
    expect([...result.exposed.keys()]).toEqual(['hearth']);
    expect(result.required).toEqual(['electron']);
    expect(Object.keys(bridge).sort()).toEqual([
      'gatewayUrl',
      'gateways',
      'onFrame',
      'onGatewaysChange',
      'send',
      'setLanguage',
      'version',
    ]);
    expect(Object.values(bridge).filter((v) => typeof v === 'object')).toEqual([]);
    expect(Object.isFrozen(bridge)).toBe(true);
  });

  it('carries the app version and gateway URL main passed on the command line', async () => {
    const { bridge } = await exposedBridge();
    expect([bridge.version, bridge.gatewayUrl]).toEqual(['0.1.0', 'http://127.0.0.1:18790']);
    const bare = (await exposedBridge(['electron'])).bridge;
    expect(bare.version).toBe('unknown');
    expect('gatewayUrl' in bare).toBe(false);
  });

  it('sends frames on the frame channel as they are, returning nothing', async () => {
    const { ipc, bridge } = await exposedBridge();
    expect(bridge.send(request)).toBeUndefined();
    expect(ipc.sent).toEqual([{ channel: FRAME_CHANNEL, args: [request] }]);
  });

  it('hands listeners the frame only, never the IPC event (whose sender is ipcRenderer)', async () => {
    const { ipc, bridge } = await exposedBridge();
    const received: unknown[][] = [];
    bridge.onFrame((...args: unknown[]) => void received.push(args));
    ipc.deliver({ type: 'event', event: 'tick', payload: { ts: 1 } });
    expect(received).toEqual([[{ type: 'event', event: 'tick', payload: { ts: 1 } }]]);
  });

  it('unsubscribes once, leaving other listeners in place', async () => {
    const { ipc, bridge } = await exposedBridge();
    const a: unknown[] = [];
    const b: unknown[] = [];
    const offA = bridge.onFrame((f) => void a.push(f));
    bridge.onFrame((f) => void b.push(f));
    offA();
    offA();
    ipc.deliver({ type: 'event', event: 'tick' });
    expect(a).toEqual([]);
    expect(b).toHaveLength(1);
  });

  it('keeps frames that arrive before the page subscribes and hands them over in order', async () => {
    const { ipc, bridge } = await exposedBridge();
    ipc.deliver({ type: 'event', event: 'connect.challenge', payload: { nonce: 'n1' } });
    ipc.deliver({ type: 'event', event: 'tick' });
    const received: unknown[] = [];
    bridge.onFrame((f) => void received.push(f));
    ipc.deliver({ type: 'event', event: 'presence' });
    expect(received.map((f) => (f as { event: string }).event)).toEqual(['connect.challenge', 'tick', 'presence']);
  });

  it('uses a single IPC listener however often the page subscribes', async () => {
    const { ipc, bridge } = await exposedBridge();
    for (let i = 0; i < 5; i++) bridge.onFrame(() => {})();
    expect(ipc.listenerCount(FRAME_CHANNEL)).toBe(1);
  });

  it('rejects a listener that is not a function', async () => {
    const { bridge } = await exposedBridge();
    expect(() => bridge.onFrame('nope' as never)).toThrow(/hearth.onFrame needs a function/);
  });

  it('does nothing outside a renderer (loading it under Node never touches electron)', async () => {
    const result = await runPreloadInSandbox({ ipcRenderer: new FakeIpcRenderer(), processType: 'browser' });
    expect(result.required).toEqual([]);
    expect(result.exposed.size).toBe(0);
    expect(typeof result.exports.createBridge).toBe('function');
  });

  it('hands gateway commands to main and only the view back to the page', async () => {
    const { ipc, bridge } = await exposedBridge();
    expect(await bridge.gateways({ kind: 'use', id: 'local' })).toEqual({ active: 'local', gateways: [] });
    expect(ipc.sent).toEqual([{ channel: 'hearth:gateways', args: [{ kind: 'use', id: 'local' }] }]);
    const views: unknown[][] = [];
    const stop = bridge.onGatewaysChange((...args) => views.push(args));
    ipc.emit('hearth:gateways-changed', { sender: ipc }, { active: 'abcdef0123456789', gateways: [] });
    stop();
    ipc.emit('hearth:gateways-changed', { sender: ipc }, { active: 'local', gateways: [] });
    expect(views).toEqual([[{ active: 'abcdef0123456789', gateways: [] }]]);
  });

  it('tells main the chosen language, and only a language it knows', async () => {
    const { ipc, bridge } = await exposedBridge();
    bridge.setLanguage('zh');
    bridge.setLanguage('<script>');
    expect(ipc.sent.filter((sent) => sent.channel === 'hearth:language')).toEqual([
      { channel: 'hearth:language', args: ['zh'] },
    ]);
  });
});
