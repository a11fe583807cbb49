import { EventEmitter } from 'node:events';
import { describe, expect, it } from 'vitest';
import { createMemoryLogger } from '../base/index.js';
import { APP_ORIGIN } from './app-origin.js';
import { type GuardedWebContents, guardNavigation } from './navigation-guard.js';
import { denyPermissionsByDefault, type PermissionSession } from './permissions.js';

class FakeGuardedContents extends EventEmitter implements GuardedWebContents {
  openHandler: ((details: { url: string }) => { action: 'deny' }) | undefined;
  setWindowOpenHandler(handler: (details: { url: string }) => { action: 'deny' }): void {
    this.openHandler = handler;
  }
  /** Fires a navigation the way Electron does; returns whether it was stopped. */
  navigate(event: 'will-navigate' | 'will-redirect', url: string): boolean {
    let prevented = false;
    this.emit(
      event,
      {
        preventDefault: () => {
          prevented = true;
        },
      },
      url,
    );
    return prevented;
  }
}

function setup() {
  const contents = new FakeGuardedContents();
  const opened: string[] = [];
  const logger = createMemoryLogger();
  guardNavigation(contents, {
    appOrigin: APP_ORIGIN,
    openExternal: async (url) => void opened.push(url),
    logger,
  });
  return { contents, opened, logger };
}

describe('navigation guard', () => {
  it('lets the window move within the app origin', () => {
    const { contents, opened } = setup();
    expect(contents.navigate('will-navigate', 'app://hearth/index.html#/sessions')).toBe(false);
    expect(contents.navigate('will-redirect', 'app://hearth/other.html')).toBe(false);
    expect(opened).toEqual([]);
  });

  it('stops navigation away and sends web links to the system browser', () => {
    const { contents, opened } = setup();
    expect(contents.navigate('will-navigate', 'https://example.com/docs')).toBe(true);
    expect(contents.navigate('will-redirect', 'http://127.0.0.1:9/login')).toBe(true);
    expect(opened).toEqual(['https://example.com/docs', 'http://127.0.0.1:9/login']);
  });

  it('refuses file:, javascript: and look-alike origins without opening anything', () => {
    const { contents, opened, logger } = setup();
    expect(contents.navigate('will-navigate', 'file:///etc/passwd')).toBe(true);
    expect(contents.navigate('will-navigate', 'javascript:alert(1)')).toBe(true);
    expect(contents.navigate('will-navigate', 'app://hearth.evil/index.html')).toBe(true);
    expect(opened).toEqual([]);
    expect(logger.entries.filter((e) => e.message === 'refused to open a non-web link')).toHaveLength(3);
  });

  it('never opens a new Electron window; web links from window.open go to the browser', () => {
    const { contents, opened } = setup();
    expect(contents.openHandler!({ url: 'https://example.com/' })).toEqual({ action: 'deny' });
    expect(contents.openHandler!({ url: 'app://hearth/index.html' })).toEqual({ action: 'deny' });
    expect(opened).toEqual(['https://example.com/']);
  });

  it('blocks <webview> attachment', () => {
    const { contents } = setup();
    let prevented = false;
    contents.emit('will-attach-webview', {
      preventDefault: () => {
        prevented = true;
      },
    });
    expect(prevented).toBe(true);
  });
});

describe('permission policy', () => {
  function installed() {
    let request: Parameters<PermissionSession['setPermissionRequestHandler']>[0] | undefined;
    let check: Parameters<PermissionSession['setPermissionCheckHandler']>[0] | undefined;
    denyPermissionsByDefault(
      {
        setPermissionRequestHandler: (h) => {
          request = h;
        },
        setPermissionCheckHandler: (h) => {
          check = h;
        },
      },
      APP_ORIGIN,
    );
    const ask = (permission: string, url: string) => {
      let granted: boolean | undefined;
      request!({ getURL: () => url }, permission, (g) => (granted = g));
      return granted;
    };
    return { ask, check: check! };
  }

  it('denies camera, microphone, location and notifications even to the app', () => {
    const { ask, check } = installed();
    for (const permission of ['media', 'geolocation', 'notifications', 'hid', 'openExternal']) {
      expect(ask(permission, 'app://hearth/index.html')).toBe(false);
      expect(check(null, permission, APP_ORIGIN)).toBe(false);
    }
  });

  it('grants clipboard writes to the app origin only', () => {
    const { ask, check } = installed();
    expect(ask('clipboard-sanitized-write', 'app://hearth/index.html')).toBe(true);
    expect(ask('clipboard-sanitized-write', 'https://example.com/')).toBe(false);
    expect(check(null, 'clipboard-sanitized-write', 'https://example.com')).toBe(false);
  });
});
