import { EventEmitter } from 'node:events';
import type { BridgeWebContents, FrameEventLike, IpcMainLike } from '../../app/ipc-bridge.js';

/**
 * Small in-test stand-ins for the Electron objects the shell is handed. Electron is
 * the edge here (its binary cannot run on these machines), so faking it is allowed;
 * each fake keeps only the behaviour the shell relies on.
 */
export class FakeWebContents extends EventEmitter implements BridgeWebContents {
  private static nextId = 1;
  readonly id = FakeWebContents.nextId++;
  readonly sent: { channel: string; args: unknown[] }[] = [];
  private destroyed = false;

  send(channel: string, ...args: unknown[]): void {
    if (this.destroyed) throw new Error('Object has been destroyed');
    this.sent.push({ channel, args });
  }

  isDestroyed(): boolean {
    return this.destroyed;
  }

  destroy(): void {
    this.destroyed = true;
    this.emit('destroyed');
  }

  framesSent(channel: string): unknown[] {
    return this.sent.filter((entry) => entry.channel === channel).map((entry) => entry.args[0]);
  }
}

export class FakeIpcMain extends EventEmitter implements IpcMainLike {
  override on(channel: string, listener: (event: FrameEventLike, ...args: unknown[]) => void): this {
    return super.on(channel, listener);
  }

  override removeListener(channel: string, listener: (event: FrameEventLike, ...args: unknown[]) => void): this {
    return super.removeListener(channel, listener);
  }

  /** What Electron does when a renderer calls ipcRenderer.send(channel, ...args). */
  deliver(channel: string, from: { id: number }, url: string | null, ...args: unknown[]): void {
    const event: FrameEventLike = { sender: from, senderFrame: url === null ? null : { url, parent: null } };
    this.emit(channel, event, ...args);
  }

  deliverFromSubframe(channel: string, from: { id: number }, url: string, ...args: unknown[]): void {
    const event: FrameEventLike = { sender: from, senderFrame: { url, parent: {} } };
    this.emit(channel, event, ...args);
  }
}

/** Lets queued microtasks and promise callbacks run. */
export function flush(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}
