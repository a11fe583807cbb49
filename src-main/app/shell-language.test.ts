import { EventEmitter } from 'node:events';
import { describe, expect, it } from 'vitest';
import { createMemoryLogger } from '../base/index.js';
import { createShellLanguage, LANGUAGE_CHANNEL } from './shell-language.js';

// Electron's ipcMain passed in as what it is to this code: an emitter of (event, ...args).
const appOrigin = 'app://hearth';
const fromPage = (url: string, parent: unknown = null) => ({ sender: {}, senderFrame: { url, parent } });

describe('the language main speaks in', () => {
  it("starts from the system's languages and follows what the window says", () => {
    const ipcMain = new EventEmitter();
    const state = createShellLanguage({
      ipcMain: ipcMain as never,
      appOrigin,
      systemLanguages: ['zh-Hans-CN', 'en-US'],
      logger: createMemoryLogger(),
    });
    expect(state.language).toBe('zh');
    expect(state.words().deny).toBe('拒绝');
    ipcMain.emit(LANGUAGE_CHANNEL, fromPage('app://hearth/index.html'), 'en');
    expect(state.language).toBe('en');
    expect(state.words().deny).toBe('Deny');
    state.dispose();
    ipcMain.emit(LANGUAGE_CHANNEL, fromPage('app://hearth/index.html'), 'zh');
    expect(state.language).toBe('en');
  });

  it('ignores other senders and values it does not know', () => {
    const ipcMain = new EventEmitter();
    const logger = createMemoryLogger();
    const state = createShellLanguage({ ipcMain: ipcMain as never, appOrigin, systemLanguages: ['fr-FR'], logger });
    expect(state.language).toBe('en');
    ipcMain.emit(LANGUAGE_CHANNEL, fromPage('https://evil.example/'), 'zh');
    ipcMain.emit(LANGUAGE_CHANNEL, fromPage('app://hearth/canvas', { url: 'app://hearth/' }), 'zh');
    ipcMain.emit(LANGUAGE_CHANNEL, fromPage('app://hearth/'), 'fr');
    expect(state.language).toBe('en');
  });
});
