import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { checkMarkdownV2 } from '../../src-main/testing/fake-telegram-server.js';
import { escapeMarkdownV2, splitForTelegram, toTelegramMarkdownV2 } from './telegram-markdown.js';

// Telegram refuses a whole MarkdownV2 message for one unescaped reserved character; the fake
// server's check is Telegram's rule, so every rendering must pass it.

describe('MarkdownV2 rendering', () => {
  it('renders what models write, escaping everything else', () => {
    expect(toTelegramMarkdownV2('Done! 1. **Bold** and *it* (see [docs](https://x.dev/a_b)).')).toBe(
      'Done\\! 1\\. *Bold* and _it_ \\(see [docs](https://x.dev/a_b)\\)\\.',
    );
    expect(toTelegramMarkdownV2('# Plan\n- one\n- `a_b`')).toBe('*Plan*\n• one\n• `a_b`');
    expect(toTelegramMarkdownV2('```ts\nconst x = a.b!;\n```')).toBe('```ts\nconst x = a.b!;\n```');
    expect(toTelegramMarkdownV2('~~old~~ new')).toBe('~old~ new');
  });

  it('leaves unbalanced markers literal (a reply cut mid-stream)', () => {
    expect(toTelegramMarkdownV2('**half bold')).toBe('\\*\\*half bold');
    expect(checkMarkdownV2(toTelegramMarkdownV2('```\nno end'))).toBeUndefined();
  });

  it('produces text Telegram accepts, for any input', () => {
    fc.assert(
      fc.property(
        fc.string({ unit: fc.constantFrom(...'ab *_~`[]()#+-=|{}.!>\\\n1'.split('')), maxLength: 80 }),
        (text) => {
          expect(checkMarkdownV2(toTelegramMarkdownV2(text))).toBeUndefined();
          expect(checkMarkdownV2(escapeMarkdownV2(text))).toBeUndefined();
        },
      ),
      { numRuns: 500 },
    );
  });

  it('splits a long reply at paragraphs within the limit', () => {
    const text = `${'a'.repeat(3000)}\n\n${'b'.repeat(3000)}`;
    const parts = splitForTelegram(text, 3500);
    expect(parts).toEqual(['a'.repeat(3000), 'b'.repeat(3000)]);
    expect(splitForTelegram('x'.repeat(9000), 4000).map((p) => p.length)).toEqual([4000, 4000, 1000]);
  });
});
