import type { Language } from '../../i18n/translate.js';

/** What the person picked: `system` follows the OS. */
export type ThemeChoice = 'system' | 'light' | 'dark';

const themeKey = 'hearth.theme';
const languageKey = 'hearth.language';

/** The subset of Storage this needs, passed in so tests use a plain map. */
export interface PreferenceStorage {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
}

export function readTheme(storage: PreferenceStorage): ThemeChoice {
  const stored = storage.getItem(themeKey);
  return stored === 'light' || stored === 'dark' ? stored : 'system';
}

export function writeTheme(storage: PreferenceStorage, theme: ThemeChoice): void {
  storage.setItem(themeKey, theme);
}

/** A remembered language wins over the browser's; anything else stored is ignored. */
export function readLanguage(storage: PreferenceStorage, fallback: Language): Language {
  const stored = storage.getItem(languageKey);
  return stored === 'en' || stored === 'zh' ? stored : fallback;
}

export function writeLanguage(storage: PreferenceStorage, language: Language): void {
  storage.setItem(languageKey, language);
}

/** The theme the page paints: `system` resolves through the OS preference. */
export function resolveTheme(choice: ThemeChoice, osPrefersDark: boolean): 'light' | 'dark' {
  if (choice === 'system') return osPrefersDark ? 'dark' : 'light';
  return choice;
}

/** theme.css keys its palette off `data-theme` on the root element. */
export function applyTheme(root: { dataset: DOMStringMap }, choice: ThemeChoice, osPrefersDark: boolean): void {
  root.dataset.theme = resolveTheme(choice, osPrefersDark);
}
