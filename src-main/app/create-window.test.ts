import { EventEmitter } from 'node:events';
import { describe, expect, it } from 'vitest';
import { hideOnClose, mainWindowOptions, type ShellWindow, showWhenReady, summonWindow } from './create-window.js';

class FakeWindow extends EventEmitter implements ShellWindow {
  visible = false;
  minimized = false;
  focused = false;
  destroyed = false;
  loaded: string[] = [];
  show() {
    this.visible = true;
  }
  hide() {
    this.visible = false;
  }
  focus() {
    this.focused = true;
  }
  restore() {
    this.minimized = false;
  }
  isMinimized() {
    return this.minimized;
  }
  isVisible() {
    return this.visible;
  }
  isDestroyed() {
    return this.destroyed;
  }
  async loadURL(url: string) {
    this.loaded.push(url);
  }
  /** Like the user clicking the close button; returns whether the close was stopped. */
  userCloses(): boolean {
    let prevented = false;
    this.emit('close', {
      preventDefault: () => {
        prevented = true;
      },
    });
    return prevented;
  }
}

describe('main window', () => {
  it('isolates and sandboxes the renderer, with no Node and no webviews', () => {
    const options = mainWindowOptions({
      preloadPath: '/app/dist/src-preload/index.js',
      appVersion: '0.1.0',
      gatewayUrl: 'http://127.0.0.1:18790',
      devTools: false,
    });
    expect(options.webPreferences).toMatchObject({
      preload: '/app/dist/src-preload/index.js',
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      nodeIntegrationInSubFrames: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      webviewTag: false,
      devTools: false,
      additionalArguments: ['--hearth-version=0.1.0', '--hearth-gateway-url=http://127.0.0.1:18790'],
    });
    expect(options.show).toBe(false);
  });

  it('hides instead of closing until the app is quitting', () => {
    const window = new FakeWindow();
    let quitting = false;
    hideOnClose(window, () => quitting);
    window.show();
    expect(window.userCloses()).toBe(true);
    expect(window.visible).toBe(false);
    quitting = true;
    expect(window.userCloses()).toBe(false);
  });

  it('summons a hidden or minimised window to the front', () => {
    const window = new FakeWindow();
    window.minimized = true;
    summonWindow(window);
    expect(window).toMatchObject({ minimized: false, visible: true, focused: true });
  });

  it('shows when ready unless started hidden (login launch)', () => {
    const shown = new FakeWindow();
    showWhenReady(shown, false);
    shown.emit('ready-to-show');
    expect(shown.visible).toBe(true);
    const hidden = new FakeWindow();
    showWhenReady(hidden, true);
    hidden.emit('ready-to-show');
    expect(hidden.visible).toBe(false);
  });
});
