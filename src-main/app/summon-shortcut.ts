import type { Disposable, Logger } from '../base/index.js';

/** The parts of Electron's `globalShortcut` used. */
export interface GlobalShortcutLike {
  register(accelerator: string, callback: () => void): boolean;
  unregister(accelerator: string): void;
}

export const DEFAULT_SUMMON_SHORTCUT = 'CommandOrControl+Shift+Space';

/**
 * A system-wide key to bring Hearth forward. Another app may own the chord
 * already; then registration fails, which is logged and reported, never fatal.
 */
export function registerSummonShortcut(
  globalShortcut: GlobalShortcutLike,
  accelerator: string,
  summon: () => void,
  logger: Logger,
): Disposable & { readonly registered: boolean } {
  let registered = false;
  try {
    registered = globalShortcut.register(accelerator, summon);
  } catch (error) {
    logger.warn('invalid summon shortcut', { accelerator, error: String(error) });
  }
  if (!registered) logger.warn('summon shortcut is taken by another app', { accelerator });
  return {
    registered,
    dispose: () => {
      if (registered) globalShortcut.unregister(accelerator);
    },
  };
}
