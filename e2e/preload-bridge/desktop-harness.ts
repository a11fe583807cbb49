import { EventEmitter } from 'node:events';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Frame, Page } from '@playwright/test';
import { createAppProtocolHandler } from '../../src-main/app/app-protocol.js';
import { buildContentSecurityPolicy } from '../../src-main/app/csp.js';
import { createIpcBridge, FRAME_CHANNEL, type FrameEventLike } from '../../src-main/app/ipc-bridge.js';
import { RemoteGatewayIdentity, type RemoteGatewayRecord } from '../../src-main/app/remote-gateway-identity.js';
import { serveGatewaysIpc } from '../../src-main/app/remote-gateway-ipc.js';
import { createGatewaySwitch, type GatewaySwitch } from '../../src-main/app/remote-gateway-switch.js';
import { silentLogger, systemClock } from '../../src-main/base/index.js';
import type { HearthHost } from '../../src-main/host/hearth-host.js';
import { startHearth } from '../../src-main/host/start-hearth.js';
import type { SecretStore } from '../../src-main/secrets/index.js';

const root = fileURLToPath(new URL('../../', import.meta.url));
export const builtPreload = join(root, 'dist/src-preload/index.js');
export const builtRenderer = join(root, 'dist/renderer');

/**
 * The desktop app minus Electron: the real host (startHearth) and the real IPC
 * bridge in this process, the built renderer served with the app's own CSP, and
 * the built preload evaluated in the page as Electron evaluates a sandboxed
 * preload, its `require('electron')` answering with an ipcRenderer whose two
 * directions are a Playwright binding (page → main) and page.evaluate (main → page).
 * So every frame takes the desktop path: preload → sender check → schema →
 * in-process connection → gateway, and back. `hearth:gateways` (invoke) reaches main's
 * real gateway switch, so the corner menu lists, switches and pairs as in the app.
 */
export interface DesktopHarness {
  url: string;
  host: HearthHost;
  /** Main's real gateway switch (hearth:gateways): this computer's gateway, or a paired one through the pinned relay. */
  switcher: GatewaySwitch;
  /** Makes a page a desktop window: preload injected, its frames carried by the bridge. */
  attach(page: Page): Promise<void>;
  close(): Promise<void>;
}

export interface DesktopHarnessOptions {
  /** Gateways this desktop paired with before (written to identity/desktop-remotes.json, as pairing leaves them). */
  paired?: RemoteGatewayRecord[];
}

/** Secrets in memory: the harness stands in for the keychain as for the rest of Electron. */
function memorySecretStore(): SecretStore {
  const secrets = new Map<string, string>();
  return {
    backend: 'memory (e2e)',
    get: async (account) => secrets.get(account),
    set: async (account, secret) => void secrets.set(account, secret),
    delete: async (account) => secrets.delete(account),
    list: async () => [...secrets.keys()],
  };
}

export async function startDesktopHarness(options: DesktopHarnessOptions = {}): Promise<DesktopHarness> {
  const home = await mkdtemp(join(tmpdir(), 'hearth-preload-e2e-'));
  const host = await startHearth({ home, port: 0, bind: 'loopback', log: silentLogger, controlUiDir: builtRenderer });
  const canvasOrigin = new URL(host.url).origin;

  // The renderer on http://127.0.0.1:<port>, answered by the app:// handler with the real CSP.
  const handle = createAppProtocolHandler({
    rendererDir: builtRenderer,
    contentSecurityPolicy: buildContentSecurityPolicy({ gatewayOrigin: canvasOrigin }),
  });
  const server: Server = createServer(async (request, response) => {
    const answer = await handle(new Request(`app://hearth${request.url ?? '/'}`));
    response.writeHead(answer.status, Object.fromEntries(answer.headers));
    response.end(Buffer.from(await answer.arrayBuffer()));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  const ipcMain = new EventEmitter();
  const pages = new Set<Page>();
  const receivers = new Set<{ send(channel: string, ...args: unknown[]): void; isDestroyed(): boolean }>();
  // main.ts's switch, with the secret store in memory and "reload every window" as page.reload().
  const identity = new RemoteGatewayIdentity(memorySecretStore(), join(home, 'identity'));
  if (options.paired?.length) await identity.write({ version: 1, active: 'local', gateways: options.paired });
  const switcher = createGatewaySwitch({
    local: host.gateway,
    identity,
    version: '0.1.0',
    platform: process.platform,
    displayName: 'Hearth desktop (e2e)',
    now: () => systemClock.now(),
    sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
    reloadWindows: () => {
      for (const page of pages) void page.reload().catch(() => {});
    },
    logger: silentLogger,
  });
  await switcher.load();
  // ipcMain.handle as Electron has it: one handler per channel, its answer (or its throw) the invoke's.
  const handlers = new Map<string, (event: FrameEventLike, ...args: unknown[]) => unknown>();
  const gatewaysIpc = serveGatewaysIpc({
    ipcMain: {
      handle: (channel, listener) => void handlers.set(channel, listener),
      removeHandler: (channel) => void handlers.delete(channel),
    },
    switcher,
    appOrigin: url,
    receivers: () => [...receivers],
    logger: silentLogger,
  });
  const bridge = createIpcBridge({
    ipcMain: ipcMain as never,
    gateway: switcher.gateway,
    appOrigin: url,
    clock: systemClock,
    logger: silentLogger,
  });
  const preload = await readFile(builtPreload, 'utf8');
  let nextId = 1;

  return {
    url,
    host,
    switcher,
    async attach(page) {
      pages.add(page);
      const webContents = new EventEmitter() as EventEmitter & {
        id: number;
        send(channel: string, frame: unknown): void;
        isDestroyed(): boolean;
      };
      webContents.id = nextId++;
      let destroyed = false;
      // Frames to the page keep their order: each delivery waits for the previous one.
      let queue = Promise.resolve();
      webContents.send = (channel, frame) => {
        queue = queue
          .then(() =>
            page.evaluate(
              ([c, f]) => {
                const scope = globalThis as unknown as { __hearthIpcDeliver?: (c: string, f: unknown) => void };
                scope.__hearthIpcDeliver?.(c as string, f);
              },
              [channel, frame] as const,
            ),
          )
          .catch(() => {});
      };
      webContents.isDestroyed = () => destroyed;
      receivers.add(webContents);
      page.on('close', () => {
        destroyed = true;
        pages.delete(page);
        receivers.delete(webContents);
        webContents.emit('destroyed');
      });
      page.on('domcontentloaded', () => webContents.emit('dom-ready'));
      await page.exposeBinding('__hearthIpcSend', (source: { frame: Frame }, frame: unknown) => {
        const event: FrameEventLike = {
          sender: webContents,
          senderFrame: { url: source.frame.url(), parent: source.frame.parentFrame() },
        };
        ipcMain.emit(FRAME_CHANNEL, event, frame);
      });
      // ipcRenderer.invoke: the handler's answer resolves the page's promise, its throw rejects it.
      await page.exposeBinding('__hearthIpcInvoke', async (source: { frame: Frame }, channel: string, arg: unknown) => {
        const handler = handlers.get(channel);
        if (!handler) throw new Error(`No handler registered for '${channel}'`);
        const event: FrameEventLike = {
          sender: webContents,
          senderFrame: { url: source.frame.url(), parent: source.frame.parentFrame() },
        };
        return handler(event, arg);
      });
      await page.addInitScript(
        sandboxedPreload(preload, ['--hearth-version=0.1.0', `--hearth-gateway-url=${canvasOrigin}`]),
      );
      bridge.attach(webContents);
    },
    async close() {
      bridge.dispose();
      gatewaysIpc.dispose();
      switcher.dispose();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await host.dispose();
      await rm(home, { recursive: true, force: true });
    },
  };
}

/** The preload wrapped the way Electron's sandbox runs it, with an ipcRenderer over the bindings. */
function sandboxedPreload(preloadJs: string, argv: string[]): string {
  return `(() => {
  const listeners = new Map();
  const ipcRenderer = {
    send: (channel, frame) => { if (channel === ${JSON.stringify(FRAME_CHANNEL)}) window.__hearthIpcSend(frame); },
    invoke: (channel, arg) => window.__hearthIpcInvoke(channel, arg),
    on: (channel, listener) => { listeners.set(listener, channel); },
    removeListener: (channel, listener) => { listeners.delete(listener); },
  };
  Object.defineProperty(window, '__hearthIpcDeliver', {
    value: (channel, frame) => { for (const [listener, c] of listeners) if (c === channel) listener({}, frame); },
  });
  const electron = { contextBridge: { exposeInMainWorld: (key, api) => { window[key] = api; } }, ipcRenderer };
  const require = (name) => { if (name === 'electron') return electron; throw new Error('module not found in the sandbox: ' + name); };
  const module = { exports: {} };
  const process = { type: 'renderer', argv: ${JSON.stringify(argv)}, sandboxed: true };
  (function (require, process, exports, module) {
${preloadJs}
  })(require, process, module.exports, module);
})();`;
}
