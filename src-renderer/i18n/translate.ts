import { en, type MessageKey } from './en.js';
import { zh } from './zh.js';

export type Language = 'en' | 'zh';
export type Translate = (key: MessageKey, vars?: Record<string, string | number>) => string;

const dictionaries: Record<Language, Record<MessageKey, string>> = { en, zh };

/** zh-CN, zh-TW… → zh; everything else → en. */
export function pickLanguage(preferred: readonly string[]): Language {
  for (const tag of preferred) {
    const base = tag.toLowerCase().split('-')[0];
    if (base === 'zh') return 'zh';
    if (base === 'en') return 'en';
  }
  return 'en';
}

export function createTranslate(language: Language): Translate {
  const dictionary = dictionaries[language];
  return (key, vars) => {
    const text = dictionary[key] ?? en[key];
    if (!vars) return text;
    return text.replace(/\{(\w+)\}/g, (whole, name: string) => (name in vars ? String(vars[name]) : whole));
  };
}
