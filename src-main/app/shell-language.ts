import type { Disposable, Logger } from '../base/index.js';
import { isSameOrigin } from './app-origin.js';
import type { FrameEventLike } from './ipc-bridge.js';
import { type ShellLanguage, type ShellWords, shellLanguageOf, shellWords } from './shell-words.js';

/** The window's `hearth.setLanguage(…)` (src-preload/index.ts sends on the same name). */
export const LANGUAGE_CHANNEL = 'hearth:language';

export interface IpcMainOnLike {
  on(channel: string, listener: (event: FrameEventLike, ...args: unknown[]) => void): unknown;
  removeListener(channel: string, listener: (event: FrameEventLike, ...args: unknown[]) => void): unknown;
}

export interface ShellLanguageState extends Disposable {
  readonly language: ShellLanguage;
  words(): ShellWords;
}

/**
 * The language main speaks in (native approval box, notifications): the one the person chose in
 * Settings, which the window tells main as it starts and on each change; until then the system's
 * (`app.getPreferredSystemLanguages()`, as the window's own default). Only our own top-level
 * document is heard, and only `en` or `zh`.
 */
export function createShellLanguage(deps: {
  ipcMain: IpcMainOnLike;
  appOrigin: string;
  systemLanguages: readonly string[];
  logger: Logger;
}): ShellLanguageState {
  let language = shellLanguageOf(deps.systemLanguages);
  const listener = (event: FrameEventLike, value: unknown) => {
    const frame = event.senderFrame;
    if (!frame || frame.parent || !isSameOrigin(frame.url ?? '', deps.appOrigin)) {
      deps.logger.warn('ignored a language from an untrusted sender', { url: frame?.url });
      return;
    }
    if (value === 'en' || value === 'zh') language = value;
  };
  deps.ipcMain.on(LANGUAGE_CHANNEL, listener);
  return {
    get language() {
      return language;
    },
    words: () => shellWords(language),
    dispose: () => void deps.ipcMain.removeListener(LANGUAGE_CHANNEL, listener),
  };
}
