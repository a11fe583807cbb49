import { EventEmitter } from 'node:events';
import { describe, expect, it } from 'vitest';
import { createMemoryLogger } from '../base/index.js';
import { secureWebPreferences } from './create-window.js';
import { createQuickAsk, QUICK_ASK_ROUTE, type QuickAskWindowLike, quickAskWindowOptions } from './quick-ask-window.js';

class FakeQuickAskWindow extends EventEmitter implements QuickAskWindowLike {
  visible = false;
  focused = 0;
  ran: string[] = [];
  readonly contents = new EventEmitter();
  readonly webContents = {
    on: (event: 'did-navigate-in-page', listener: (event: unknown, url: string) => void) =>
      this.contents.on(event, listener),
    executeJavaScript: async (code: string) => {
      this.ran.push(code);
    },
  };
  show() {
    this.visible = true;
  }
  hide() {
    this.visible = false;
  }
  focus() {
    this.focused += 1;
  }
  isVisible() {
    return this.visible;
  }
  isDestroyed() {
    return false;
  }
  override on(event: 'blur', listener: () => void): this {
    return super.on(event, listener);
  }
}

function setup() {
  const windows: FakeQuickAskWindow[] = [];
  const opened: string[] = [];
  const logger = createMemoryLogger();
  const quickAsk = createQuickAsk({
    createWindow: () => {
      const window = new FakeQuickAskWindow();
      windows.push(window);
      return window;
    },
    openSession: (key) => void opened.push(key),
    logger,
  });
  return { quickAsk, windows, opened, logger };
}

describe('quick-ask window', () => {
  it('is a small frameless window above the others, with the main window’s hardened preferences', () => {
    const webPreferences = secureWebPreferences({
      preloadPath: '/app/preload.js',
      appVersion: '1.0.0',
      devTools: false,
    });
    const options = quickAskWindowOptions(webPreferences);
    expect(options).toMatchObject({
      width: 640,
      height: 160,
      frame: false,
      alwaysOnTop: true,
      skipTaskbar: true,
      resizable: false,
      show: false,
    });
    expect(options.webPreferences).toMatchObject({ contextIsolation: true, sandbox: true, nodeIntegration: false });
  });

  it('is made on the first press of the hotkey, and the hotkey toggles it', () => {
    const { quickAsk, windows } = setup();
    expect(windows).toHaveLength(0);
    quickAsk.toggle();
    expect(windows).toHaveLength(1);
    expect(windows[0]!.visible).toBe(true);
    expect(windows[0]!.focused).toBe(1);
    quickAsk.toggle();
    expect(windows[0]!.visible).toBe(false);
    quickAsk.toggle();
    expect(windows).toHaveLength(1);
  });

  it('hides when the person clicks elsewhere', () => {
    const { quickAsk, windows } = setup();
    quickAsk.toggle();
    windows[0]!.emit('blur');
    expect(windows[0]!.visible).toBe(false);
  });

  it('hands the chat it asked in to the main window, then goes back to an empty composer', () => {
    const { quickAsk, windows, opened } = setup();
    quickAsk.toggle();
    const window = windows[0]!;
    window.contents.emit('did-navigate-in-page', {}, 'app://hearth/#/sessions/agent%3Amain%3Aquick-1');
    expect(opened).toEqual(['agent:main:quick-1']);
    expect(window.visible).toBe(false);
    expect(window.ran).toEqual([`location.hash = ${JSON.stringify(QUICK_ASK_ROUTE)}`]);
  });

  it('ignores its own route and refuses a chat name that is not one', () => {
    const { quickAsk, windows, opened, logger } = setup();
    quickAsk.toggle();
    const window = windows[0]!;
    window.contents.emit('did-navigate-in-page', {}, `app://hearth/${QUICK_ASK_ROUTE}`);
    window.contents.emit('did-navigate-in-page', {}, 'app://hearth/#/sessions/..%2F..%2Fetc');
    expect(opened).toEqual([]);
    expect(window.visible).toBe(true);
    expect(logger.entries.map((e) => e.message)).toEqual(['quick ask pointed at a chat that is not one']);
  });
});
