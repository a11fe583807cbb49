import type { Disposable, Logger } from '../base/index.js';

/** The parts of Electron's `globalShortcut` used. */
export interface GlobalShortcutLike {
  register(accelerator: string, callback: () => void): boolean;
  unregister(accelerator: string): void;
}

/** Brings the main window forward. */
export const DEFAULT_SUMMON_SHORTCUT = 'CommandOrControl+Shift+Space';
/** Opens the quick-ask composer (Claude Desktop and Cherry Studio use a chord of this shape). */
export const DEFAULT_QUICK_ASK_SHORTCUT = 'CommandOrControl+Alt+Space';

export interface GlobalShortcutRequest {
  /** What the key does, for the person: "Quick ask". */
  purpose: string;
  accelerator: string;
  /** The setting that changes it, named in the message when the chord cannot be had. */
  setting: string;
  action(): void;
}

export interface RegisteredShortcut extends Disposable {
  readonly registered: boolean;
  /** Why the key does nothing, in words for the person (shown once, and logged); absent when registered. */
  readonly problem?: string;
}

/**
 * A system-wide key. Another app may own the chord already, or the setting may not be
 * an accelerator at all: then registration fails with a message that names the chord
 * and the setting to change, never fatally.
 */
export function registerGlobalShortcut(
  globalShortcut: GlobalShortcutLike,
  request: GlobalShortcutRequest,
  logger: Logger,
): RegisteredShortcut {
  const { purpose, accelerator, setting } = request;
  let registered = false;
  let problem: string | undefined;
  try {
    registered = globalShortcut.register(accelerator, request.action);
    if (!registered) {
      problem = `${purpose}: ${accelerator} is already used by another app. Set ${setting} to another key (e.g. CommandOrControl+Alt+K).`;
    }
  } catch (error) {
    problem = `${purpose}: "${accelerator}" is not a key combination Electron understands (${String(error)}). Fix ${setting}.`;
  }
  if (problem) logger.warn('global shortcut not registered', { purpose, accelerator, problem });
  return {
    registered,
    ...(problem ? { problem } : {}),
    dispose: () => {
      if (registered) globalShortcut.unregister(accelerator);
    },
  };
}
