import type { BrowserWindowConstructorOptions } from 'electron';
import type { Disposable, Logger } from '../base/index.js';
import { DeepLinkError, parseDeepLink } from './deep-links.js';

/** The renderer route the quick-ask window loads (src-renderer/app/hash-route.ts). */
export const QUICK_ASK_ROUTE = '#/quick-ask';
export const QUICK_ASK_WIDTH = 640;
export const QUICK_ASK_HEIGHT = 160;

/**
 * A small composer floating over whatever the person is doing, like Spotlight:
 * no frame, above other windows, not in the taskbar, not resizable, hidden until
 * summoned. Same hardened web preferences as the main window (it is the same page
 * on another route), passed in so both stay one definition.
 */
export function quickAskWindowOptions(
  webPreferences: NonNullable<BrowserWindowConstructorOptions['webPreferences']>,
): BrowserWindowConstructorOptions {
  return {
    width: QUICK_ASK_WIDTH,
    height: QUICK_ASK_HEIGHT,
    title: 'Ask Hearth',
    show: false,
    frame: false,
    alwaysOnTop: true,
    skipTaskbar: true,
    resizable: false,
    minimizable: false,
    maximizable: false,
    fullscreenable: false,
    // Centred on the screen with the pointer: where the person is looking.
    center: true,
    webPreferences,
  };
}

/** The parts of the quick-ask BrowserWindow the controller drives. */
export interface QuickAskWindowLike {
  show(): void;
  hide(): void;
  focus(): void;
  isVisible(): boolean;
  isDestroyed(): boolean;
  on(event: 'blur', listener: () => void): unknown;
  webContents: {
    on(event: 'did-navigate-in-page', listener: (event: unknown, url: string) => void): unknown;
    executeJavaScript(code: string): Promise<unknown>;
  };
}

export interface QuickAskDeps {
  /** Made on first use: a person who never presses the hotkey never pays for the window. */
  createWindow(): QuickAskWindowLike;
  /** Opens a chat in the main window (and brings it forward). */
  openSession(sessionKey: string): void;
  logger: Logger;
}

export interface QuickAsk extends Disposable {
  /** The hotkey: show and focus, or hide when it is already up. */
  toggle(): void;
}

/**
 * The quick-ask page sends the question into a new chat, then points its own hash at
 * `#/sessions/<key>`; that is the hand-off: this controller hides the window, opens
 * the chat in the main window and sets the page back to the empty composer. No
 * extra IPC channel, and the key is checked like any `hearth://session/` link.
 */
export function createQuickAsk(deps: QuickAskDeps): QuickAsk {
  let window: QuickAskWindowLike | undefined;
  const reset = (target: QuickAskWindowLike) =>
    void target.webContents.executeJavaScript(`location.hash = ${JSON.stringify(QUICK_ASK_ROUTE)}`);

  const ensure = (): QuickAskWindowLike => {
    if (window && !window.isDestroyed()) return window;
    const created = deps.createWindow();
    // Clicking elsewhere dismisses it, as people expect of a floating composer.
    created.on('blur', () => {
      if (!created.isDestroyed()) created.hide();
    });
    created.webContents.on('did-navigate-in-page', (_event, url) => {
      const hash = url.slice(url.indexOf('#'));
      if (!url.includes('#') || !hash.startsWith('#/sessions/')) return;
      const encoded = hash.slice('#/sessions/'.length);
      try {
        const link = parseDeepLink(`hearth://session/${encoded}`);
        if (link.kind !== 'session') return;
        created.hide();
        deps.openSession(link.sessionKey);
      } catch (error) {
        if (!(error instanceof DeepLinkError)) throw error;
        deps.logger.warn('quick ask pointed at a chat that is not one', { reason: error.message });
      }
      reset(created);
    });
    window = created;
    return created;
  };

  return {
    toggle() {
      const target = ensure();
      if (target.isVisible()) {
        target.hide();
        return;
      }
      target.show();
      target.focus();
    },
    dispose() {
      window = undefined;
    },
  };
}
