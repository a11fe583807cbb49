import { EventEmitter } from 'node:events';
import { describe, expect, it } from 'vitest';
import { createMemoryLogger } from '../base/index.js';
import type { DeepLink } from './deep-links.js';
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
    expect(routeForDeepLink({ kind: 'pair', gatewayUrl: 'wss://h:1', token: 't'.repeat(16) })).toBe(
      `#/pair?gateway=wss%3A%2F%2Fh%3A1&token=${'t'.repeat(16)}`,
    );
  });
});
