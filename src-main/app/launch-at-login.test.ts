import { describe, expect, it } from 'vitest';
import {
  HIDDEN_FLAG,
  isLaunchAtLoginEnabled,
  type LoginItemApp,
  launchedAtLogin,
  setLaunchAtLogin,
} from './launch-at-login.js';

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
