import { describe, expect, it } from 'vitest';
import { en } from './en.js';
import { createTranslate, pickLanguage } from './translate.js';
import { zh } from './zh.js';

describe('i18n', () => {
  it('picks Chinese for any zh tag and English otherwise', () => {
    expect(pickLanguage(['zh-CN', 'en'])).toBe('zh');
    expect(pickLanguage(['zh-Hant-TW'])).toBe('zh');
    expect(pickLanguage(['fr-FR', 'en-GB'])).toBe('en');
    expect(pickLanguage([])).toBe('en');
  });

  it('fills placeholders and leaves unknown ones visible', () => {
    const t = createTranslate('en');
    expect(t('approvals.timeLeft', { s: 42 })).toBe('42s left');
    expect(t('approvals.timeLeft')).toBe('{s}s left');
    expect(createTranslate('zh')('approvals.timeLeft', { s: 42 })).toBe('剩余 42 秒');
  });

  it('keeps the same placeholders in every language', () => {
    const names = (text: string) => [...text.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();
    for (const key of Object.keys(en) as (keyof typeof en)[]) {
      expect(names(zh[key]), key).toEqual(names(en[key]));
    }
  });
});
