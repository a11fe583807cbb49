import { describe, expect, it } from 'vitest';
import { createMemoryLogger } from '../base/index.js';
import { DEFAULT_QUICK_ASK_SHORTCUT, type GlobalShortcutLike, registerGlobalShortcut } from './global-shortcut.js';

function fakeGlobalShortcut(taken: string[] = []) {
  const registered = new Map<string, () => void>();
  const api: GlobalShortcutLike = {
    register: (accelerator, callback) => {
      if (accelerator.endsWith('+')) throw new Error(`Error processing argument: ${accelerator}`);
      if (taken.includes(accelerator)) return false;
      registered.set(accelerator, callback);
      return true;
    },
    unregister: (accelerator) => void registered.delete(accelerator),
  };
  return { api, registered };
}

describe('global shortcuts', () => {
  it('registers the chord, runs its action and unregisters it on dispose', () => {
    const { api, registered } = fakeGlobalShortcut();
    let asked = 0;
    const shortcut = registerGlobalShortcut(
      api,
      {
        purpose: 'Quick ask',
        accelerator: DEFAULT_QUICK_ASK_SHORTCUT,
        setting: 'HEARTH_QUICK_ASK_SHORTCUT',
        action: () => {
          asked += 1;
        },
      },
      createMemoryLogger(),
    );
    expect(shortcut).toMatchObject({ registered: true });
    expect(shortcut.problem).toBeUndefined();
    registered.get(DEFAULT_QUICK_ASK_SHORTCUT)!();
    expect(asked).toBe(1);
    shortcut.dispose();
    expect(registered.size).toBe(0);
  });

  it('says which chord is taken and which setting changes it, without failing', () => {
    const { api } = fakeGlobalShortcut(['CommandOrControl+Alt+Space']);
    const logger = createMemoryLogger();
    const taken = registerGlobalShortcut(
      api,
      {
        purpose: 'Quick ask',
        accelerator: 'CommandOrControl+Alt+Space',
        setting: 'HEARTH_QUICK_ASK_SHORTCUT',
        action() {},
      },
      logger,
    );
    expect(taken.registered).toBe(false);
    expect(taken.problem).toBe(
      'Quick ask: CommandOrControl+Alt+Space is already used by another app. Set HEARTH_QUICK_ASK_SHORTCUT to another key (e.g. CommandOrControl+Alt+K).',
    );
    expect(logger.entries.map((e) => e.message)).toEqual(['global shortcut not registered']);
    taken.dispose();
  });

  it('names a setting that is not an accelerator', () => {
    const { api } = fakeGlobalShortcut();
    const invalid = registerGlobalShortcut(
      api,
      { purpose: 'Summon Hearth', accelerator: 'Nope+', setting: 'HEARTH_SUMMON_SHORTCUT', action() {} },
      createMemoryLogger(),
    );
    expect(invalid.registered).toBe(false);
    expect(invalid.problem).toMatch(
      /^Summon Hearth: "Nope\+" is not a key combination .* Fix HEARTH_SUMMON_SHORTCUT\.$/,
    );
  });
});
