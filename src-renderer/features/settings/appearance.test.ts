import { describe, expect, it } from 'vitest';
import { applyTheme, readLanguage, readTheme, writeLanguage, writeTheme } from './appearance.js';

function memoryStorage() {
  const map = new Map<string, string>();
  return { getItem: (k: string) => map.get(k) ?? null, setItem: (k: string, v: string) => void map.set(k, v) };
}

describe('appearance preferences', () => {
  it('remembers theme and language', () => {
    const storage = memoryStorage();
    expect(readTheme(storage)).toBe('system');
    expect(readLanguage(storage, 'en')).toBe('en');
    writeTheme(storage, 'dark');
    writeLanguage(storage, 'zh');
    expect(readTheme(storage)).toBe('dark');
    expect(readLanguage(storage, 'en')).toBe('zh');
  });

  it('ignores a stored value it does not know', () => {
    const storage = memoryStorage();
    storage.setItem('hearth.theme', 'neon');
    storage.setItem('hearth.language', 'fr');
    expect(readTheme(storage)).toBe('system');
    expect(readLanguage(storage, 'en')).toBe('en');
  });

  it('system follows the OS; an explicit choice overrides it', () => {
    const root = { dataset: {} as DOMStringMap };
    applyTheme(root, 'system', true);
    expect(root.dataset.theme).toBe('dark');
    applyTheme(root, 'light', true);
    expect(root.dataset.theme).toBe('light');
  });
});
