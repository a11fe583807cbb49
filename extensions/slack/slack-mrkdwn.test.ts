import { describe, expect, it } from 'vitest';
import { escapeSlackText, fromSlackText, splitForSlack, toSlackMrkdwn } from './slack-mrkdwn.js';

/**
 * Slack's rule: outside a control sequence `<…>` (and a `>` starting a quote line), a `<` or `>`
 * is never raw, and `&` only starts an entity.
 */
function escapedAsSlackWants(text: string, allowedSequences: RegExp = /<https?:[^<>|]+\|[^<>]*>/g): boolean {
  const rest = text.replace(allowedSequences, '').replace(/^>/gm, '');
  return !/[<>]/.test(rest) && !/&(?!amp;|lt;|gt;)/.test(rest);
}

describe('Slack mrkdwn', () => {
  it('renders bold, italic, strike, code, fences, links, headings and bullets', () => {
    expect(toSlackMrkdwn('**bold** and *it* and ~~gone~~ and `a<b`')).toBe('*bold* and _it_ and ~gone~ and `a&lt;b`');
    expect(toSlackMrkdwn('# Title\n- one\n- [site](https://x.test/?a=1&b=2)')).toBe(
      '*Title*\n• one\n• <https://x.test/?a=1&amp;b=2|site>',
    );
    expect(toSlackMrkdwn('```ts\nif (a < b && c) {}\n```\nafter')).toBe(
      '```\nif (a &lt; b &amp;&amp; c) {}\n```\nafter',
    );
  });

  it('never lets model text become a mention, a channel ping or a link it did not write as one', () => {
    expect(toSlackMrkdwn('<!channel> <@U123> <#C1|x>')).toBe('&lt;!channel&gt; &lt;@U123&gt; &lt;#C1|x&gt;');
    expect(toSlackMrkdwn('[click](javascript:alert(1))')).not.toContain('<javascript');
    const samples = ['a & b', '<<>>', '&amp;', '**<b>**', '[x](https://a.test/<y>)', '`<@U1>`', '> quote <', '|&|'];
    for (const sample of samples) expect(escapedAsSlackWants(toSlackMrkdwn(sample)), sample).toBe(true);
    for (let seed = 1; seed <= 300; seed++) {
      const alphabet = [
        '<',
        '>',
        '&',
        '*',
        '_',
        '`',
        '~',
        '[',
        ']',
        '(',
        ')',
        '|',
        '@',
        '!',
        '#',
        ' ',
        '\n',
        'a',
        'https://h.test',
      ];
      let text = '';
      let state = seed;
      for (let i = 0; i < 30; i++) {
        state = (state * 1103515245 + 12345) % 2 ** 31;
        text += alphabet[state % alphabet.length];
      }
      expect(escapedAsSlackWants(toSlackMrkdwn(text)), JSON.stringify(text)).toBe(true);
    }
  });

  it('reads Slack text back as plain text for the model', () => {
    expect(fromSlackText('a &lt;b&gt; &amp; <@U1> in <#C9|general> see <https://x.test|the docs> <!here>')).toBe(
      'a <b> & @U1 in #general see the docs (https://x.test) @here',
    );
    expect(escapeSlackText('<&>')).toBe('&lt;&amp;&gt;');
  });

  it('splits a long reply at paragraphs', () => {
    const parts = splitForSlack(`${'a'.repeat(60)}\n\n${'b'.repeat(60)}`, 100);
    expect(parts).toEqual(['a'.repeat(60), 'b'.repeat(60)]);
  });
});
