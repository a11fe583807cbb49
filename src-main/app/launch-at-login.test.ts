import { describe, expect, it } from 'vitest';
import { createMemoryLogger } from '../base/index.js';
import {
  HIDDEN_FLAG,
  isLaunchAtLoginEnabled,
  type LoginItemApp,
  launchedAtLogin,
  setLaunchAtLogin,
} from './launch-at-login.js';
import { registerSummonShortcut } from './summon-shortcut.js';

function fakeApp(): LoginItemApp & { settings: { openAtLogin: boolean; args?: string[] } } {
  const app = {
    settings: { openAtLogin: false } as { openAtLogin: boolean; args?: string[] },
    getLoginItemSettings: () => ({ openAtLogin: app.settings.openAtLogin }),
    setLoginItemSettings: (s: { openAtLogin: boolean; args?: string[] }) => {
      app.settings = s;
    },
  };
  return app;
}

describe('launch at login', () => {
  it('is off until the user turns it on, and starts hidden when on', () => {
    const app = fakeApp();
    expect(isLaunchAtLoginEnabled(app)).toBe(false);
    setLaunchAtLogin(app, true);
    expect(isLaunchAtLoginEnabled(app)).toBe(true);
    expect(app.settings.args).toEqual([HIDDEN_FLAG]);
    setLaunchAtLogin(app, false);
    expect(isLaunchAtLoginEnabled(app)).toBe(false);
  });

  it('recognises a login launch', () => {
    expect(launchedAtLogin(['/opt/Hearth/hearth', HIDDEN_FLAG])).toBe(true);
    expect(launchedAtLogin(['/opt/Hearth/hearth'])).toBe(false);
    expect(launchedAtLogin([], true)).toBe(true);
  });
});

describe('summon shortcut', () => {
  it('registers the chord and unregisters it on dispose', () => {
    const registered = new Map<string, () => void>();
    let summoned = 0;
    const shortcut = registerSummonShortcut(
      {
        register: (a, cb) => {
          registered.set(a, cb);
          return true;
        },
        unregister: (a) => void registered.delete(a),
      },
      'CommandOrControl+Shift+Space',
      () => {
        summoned += 1;
      },
      createMemoryLogger(),
    );
    registered.get('CommandOrControl+Shift+Space')!();
    expect(summoned).toBe(1);
    shortcut.dispose();
    expect(registered.size).toBe(0);
  });

  it('reports a chord another app owns, or an invalid one, without failing', () => {
    const logger = createMemoryLogger();
    const taken = registerSummonShortcut({ register: () => false, unregister() {} }, 'Ctrl+Space', () => {}, logger);
    const invalid = registerSummonShortcut(
      {
        register: () => {
          throw new Error('Invalid accelerator');
        },
        unregister() {},
      },
      'Nope+',
      () => {},
      logger,
    );
    expect([taken.registered, invalid.registered]).toEqual([false, false]);
    expect(logger.entries.map((e) => e.message)).toEqual([
      'summon shortcut is taken by another app',
      'invalid summon shortcut',
      'summon shortcut is taken by another app',
    ]);
  });
});
