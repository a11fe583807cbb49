/**
 * A deliberately small syntax highlighter (strings, comments, numbers, keywords) for
 * code blocks in chat: full grammars (highlight.js, Shiki) cost 100s of KB for little
 * gain in a chat transcript. Unknown languages still get strings and comments.
 */
export type TokenKind = 'plain' | 'keyword' | 'string' | 'number' | 'comment';

export interface Token {
  kind: TokenKind;
  text: string;
}

const keywords = new Set(
  (
    'abstract as async await break case catch class const continue def default del do elif else enum export extends ' +
    'false finally fn for from func function if impl import in interface is lambda let match mut new nil none not null ' +
    'of or package pass private protected pub public raise return self static struct super switch then this throw true ' +
    'try type typeof undefined use var void while with yield echo fi esac done local readonly True False None'
  ).split(' '),
);

const hashComments = new Set(['python', 'py', 'bash', 'sh', 'shell', 'zsh', 'ruby', 'rb', 'yaml', 'yml', 'toml']);

export function highlight(code: string, language = ''): Token[] {
  const lang = language.toLowerCase();
  const hash = hashComments.has(lang);
  const slash = !hash || lang === '';
  const tokens: Token[] = [];
  const push = (kind: TokenKind, text: string) => {
    const last = tokens[tokens.length - 1];
    if (last && last.kind === kind) last.text += text;
    else tokens.push({ kind, text });
  };
  let i = 0;
  while (i < code.length) {
    const ch = code[i]!;
    const rest = code.slice(i);
    if ((slash && rest.startsWith('//')) || (hash && ch === '#')) {
      const end = code.indexOf('\n', i);
      const stop = end < 0 ? code.length : end;
      push('comment', code.slice(i, stop));
      i = stop;
    } else if (slash && rest.startsWith('/*')) {
      const end = code.indexOf('*/', i + 2);
      const stop = end < 0 ? code.length : end + 2;
      push('comment', code.slice(i, stop));
      i = stop;
    } else if (ch === '"' || ch === "'" || ch === '`') {
      let j = i + 1;
      while (j < code.length && code[j] !== ch) {
        if (code[j] === '\\') j++;
        if (code[j] === '\n' && ch !== '`') break;
        j++;
      }
      push('string', code.slice(i, j + 1));
      i = j + 1;
    } else if (/[0-9]/.test(ch) && !/[\w$]/.test(code[i - 1] ?? '')) {
      const match = /^(0x[0-9a-f]+|\d[\d_]*(\.\d+)?(e[+-]?\d+)?)/i.exec(rest);
      const text = match?.[0] ?? ch;
      push('number', text);
      i += text.length;
    } else if (/[A-Za-z_$]/.test(ch)) {
      const word = /^[A-Za-z_$][\w$]*/.exec(rest)![0];
      push(keywords.has(word) ? 'keyword' : 'plain', word);
      i += word.length;
    } else {
      push('plain', ch);
      i++;
    }
  }
  return tokens;
}
