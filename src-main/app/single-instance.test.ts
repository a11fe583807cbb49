import { EventEmitter } from 'node:events';
import { describe, expect, it } from 'vitest';
import { createMemoryLogger } from '../base/index.js';
import { encodeSetupCode, decodeSetupCode as parseSetup, setupLink } from '../protocol/index.js';
import { type DeepLink, parseDeepLink } from './deep-links.js';

const code = encodeSetupCode({
  version: 1,
  urls: ['wss://192.168.1.5:18790'],
  bootstrapToken: 'abcdefghijklmnop_QRST-1234',
  tlsFingerprint: 'b'.repeat(64),
  expiresAt: 2_000_000,
});

import { claimSingleInstance, routeForDeepLink, type SingleInstanceApp } from './single-instance.js';

class FakeApp extends EventEmitter implements SingleInstanceApp {
  quitCalled = false;
  lockData: Record<string, unknown> | undefined;
  constructor(private readonly lockFree: boolean) {
    super();
  }
  requestSingleInstanceLock(additionalData?: Record<string, unknown>): boolean {
    this.lockData = additionalData;
    return this.lockFree;
  }
  quit(): void {
    this.quitCalled = true;
  }
}

function setup(lockFree: boolean, argv: string[] = ['/opt/Hearth/hearth']) {
  const app = new FakeApp(lockFree);
  const opened: DeepLink[] = [];
  const bad: string[] = [];
  let focused = 0;
  const instance = claimSingleInstance(app, {
    argv,
    focus: () => {
      focused += 1;
    },
    openLink: (link) => void opened.push(link),
    badLink: (message) => void bad.push(message),
    now: () => 1_000_000,
    logger: createMemoryLogger(),
  });
  return { app, instance, opened, bad, focused: () => focused };
}

describe('single instance', () => {
  it('a second launch hands its link to the first and quits', () => {
    const { app, instance } = setup(false, ['/opt/Hearth/hearth', 'hearth://session/main']);
    expect(instance.primary).toBe(false);
    expect(app.quitCalled).toBe(true);
    expect(app.lockData).toEqual({ deepLink: 'hearth://session/main' });
  });

  it('the first instance comes forward and opens the forwarded link', () => {
    const { app, instance, opened, focused } = setup(true);
    expect(instance.primary).toBe(true);
    expect(app.quitCalled).toBe(false);
    app.emit('second-instance', {}, ['/opt/Hearth/hearth'], '/home/me', {
      deepLink: 'hearth://session/agent%3Amain%3Amain',
    });
    expect(focused()).toBe(1);
    expect(opened).toEqual([{ kind: 'session', sessionKey: 'agent:main:main' }]);
  });

  it('falls back to the second launch’s argv when additionalData has no link', () => {
    const { app, opened, focused } = setup(true);
    app.emit('second-instance', {}, ['/opt/Hearth/hearth', 'hearth://session/work'], '/home/me', {});
    app.emit('second-instance', {}, ['/opt/Hearth/hearth'], '/home/me', null);
    expect(focused()).toBe(2);
    expect(opened).toEqual([{ kind: 'session', sessionKey: 'work' }]);
  });

  it('handles macOS open-url and reports bad links with the reason', () => {
    const { app, opened, bad } = setup(true);
    let prevented = false;
    app.emit(
      'open-url',
      {
        preventDefault: () => {
          prevented = true;
        },
      },
      'hearth://bogus',
    );
    expect(prevented).toBe(true);
    expect(opened).toEqual([]);
    expect(bad).toEqual(['unknown action "bogus" (expected pair or session)']);
  });

  it('opens a pairing link from a second launch, and refuses one whose code has expired', () => {
    const { app, opened, bad } = setup(true);
    app.emit('second-instance', {}, ['/opt/Hearth/hearth', setupLink(code)], '/home/me', {});
    expect(opened).toMatchObject([{ kind: 'pair', code, setup: { urls: ['wss://192.168.1.5:18790'] } }]);
    const stale = encodeSetupCode({ ...parseSetup(code), expiresAt: 999_000 });
    app.emit('second-instance', {}, ['/opt/Hearth/hearth', setupLink(stale)], '/home/me', {});
    expect(bad).toEqual(['pair link: the setup code has expired; make a new one on the desktop']);
  });

  it('remembers the link it was launched with', () => {
    const { instance, opened } = setup(true, ['/opt/Hearth/hearth', 'hearth://session/main']);
    expect(instance.launchLink).toBe('hearth://session/main');
    instance.handle(instance.launchLink!);
    expect(opened).toEqual([{ kind: 'session', sessionKey: 'main' }]);
  });
});

describe('deep link routes', () => {
  it('maps links to renderer hash routes', () => {
    expect(routeForDeepLink({ kind: 'session', sessionKey: 'agent:main:main' })).toBe('#/sessions/agent%3Amain%3Amain');
    const link = parseDeepLink(setupLink(code));
    expect(routeForDeepLink(link)).toBe(`#/pair?code=${code}`);
  });
});
