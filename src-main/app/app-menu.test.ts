import { describe, expect, it } from 'vitest';
import { appMenuTemplate } from './app-menu.js';

type Item = { id?: string; role?: string; label?: string; click?: () => void; submenu?: Item[] };

describe('application menu', () => {
  const done: string[] = [];
  const actions = {
    revealLogs: () => void done.push('reveal'),
    copyDiagnostics: () => void done.push('copy'),
    goBack: () => void done.push('back'),
  };

  it('has Help > Reveal Logs / Copy Diagnostics / Go Back wired to their actions', () => {
    const menu = appMenuTemplate({ isMac: false, devTools: false, actions }) as Item[];
    const help = menu.find((item) => item.role === 'help')!;
    for (const item of help.submenu!) item.click?.();
    expect(help.submenu!.filter((item) => item.label).map((item) => item.label)).toEqual([
      'Reveal Logs',
      'Copy Diagnostics',
      'Go Back to the Previous Version…',
    ]);
    expect(done).toEqual(['reveal', 'copy', 'back']);
  });

  it('offers developer tools only in development, and the app menu only on macOS', () => {
    const roles = (menu: Item[]) =>
      JSON.stringify(menu)
        .match(/"role":"\w+"/g)!
        .join();
    expect(roles(appMenuTemplate({ isMac: false, devTools: false, actions }) as Item[])).not.toMatch(
      /toggleDevTools|appMenu/,
    );
    expect(roles(appMenuTemplate({ isMac: true, devTools: true, actions }) as Item[])).toMatch(
      /appMenu.*toggleDevTools/,
    );
  });
});
