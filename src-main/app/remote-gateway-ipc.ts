import type { Disposable, Logger } from '../base/index.js';
import { isSameOrigin } from './app-origin.js';
import type { FrameEventLike } from './ipc-bridge.js';
import type { GatewaySwitch, GatewaysView } from './remote-gateway-switch.js';

/** Commands from the window (invoke) and the view pushed back on every change; the preload uses the same names. */
export const GATEWAYS_CHANNEL = 'hearth:gateways';
export const GATEWAYS_CHANGED_CHANNEL = 'hearth:gateways-changed';

export interface IpcMainInvokeLike {
  handle(channel: string, listener: (event: FrameEventLike, ...args: unknown[]) => unknown): void;
  removeHandler(channel: string): void;
}

export interface ViewReceiver {
  send(channel: string, ...args: unknown[]): void;
  isDestroyed(): boolean;
}

export type GatewaysCommand =
  | { kind: 'view' }
  | { kind: 'pair'; code: string }
  | { kind: 'cancel-pairing' }
  | { kind: 'use'; id: string }
  | { kind: 'forget'; id: string };

/** Reads a command from the page; anything else is refused naming what was wrong. */
export function parseGatewaysCommand(value: unknown): GatewaysCommand {
  if (typeof value !== 'object' || value === null) throw new Error('gateways command must be an object');
  const { kind, code, id } = value as { kind?: unknown; code?: unknown; id?: unknown };
  switch (kind) {
    case 'view':
    case 'cancel-pairing':
      return { kind };
    case 'pair':
      if (typeof code !== 'string' || code.trim() === '' || code.length > 4096)
        throw new Error('pair needs "code": the setup code or hearth:// link');
      return { kind, code: code.trim() };
    case 'use':
    case 'forget':
      if (typeof id !== 'string' || !/^(local|[0-9a-f]{16})$/.test(id))
        throw new Error(`${kind} needs "id": "local" or a paired gateway's id`);
      return { kind, id };
    default:
      throw new Error(`unknown gateways command ${JSON.stringify(kind)} (view, pair, cancel-pairing, use, forget)`);
  }
}

/**
 * The window's handle on which gateway the desktop uses: list, pair, switch, forget.
 * A separate channel from the protocol frames on purpose: it must work while the window
 * has no gateway at all (a remote one unreachable, or refused for its certificate), which
 * is exactly when the person wants to switch back to this computer. Only our own
 * top-level document is heard, as on the frame channel.
 */
export function serveGatewaysIpc(deps: {
  ipcMain: IpcMainInvokeLike;
  switcher: GatewaySwitch;
  appOrigin: string;
  receivers(): ViewReceiver[];
  logger: Logger;
}): Disposable {
  const log = deps.logger.child({ component: 'gateways-ipc' });
  deps.ipcMain.handle(GATEWAYS_CHANNEL, async (event, ...args): Promise<GatewaysView> => {
    const url = event.senderFrame?.url ?? '';
    if (!event.senderFrame || event.senderFrame.parent || !isSameOrigin(url, deps.appOrigin)) {
      log.warn('refused a gateways command from an untrusted sender', { url });
      throw new Error('not allowed');
    }
    const command = parseGatewaysCommand(args[0]);
    switch (command.kind) {
      case 'pair':
        // Progress and the outcome arrive as view changes; the call answers at once.
        void deps.switcher.pair(command.code);
        break;
      case 'cancel-pairing':
        deps.switcher.cancelPairing();
        break;
      case 'use':
        await deps.switcher.use(command.id);
        break;
      case 'forget':
        await deps.switcher.forget(command.id);
        break;
      case 'view':
        break;
    }
    return deps.switcher.view;
  });
  const changes = deps.switcher.onDidChange((view) => {
    for (const receiver of deps.receivers()) {
      if (!receiver.isDestroyed()) receiver.send(GATEWAYS_CHANGED_CHANNEL, view);
    }
  });
  return {
    dispose() {
      changes.dispose();
      deps.ipcMain.removeHandler(GATEWAYS_CHANNEL);
    },
  };
}
