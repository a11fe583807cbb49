import type { SyntaxNode } from './bash-parser.js';

/**
 * A shell word after quote removal, as far as it can be known without running
 * anything. Expansions keep their source text (`$HOME`) and mark the word dynamic,
 * so rules can still recognise `rm -rf "$HOME"` while matching treats it as unknown.
 */
export interface ShellWord {
  text: string;
  /** Contains a parameter, command or arithmetic expansion: the run-time value is unknown. */
  dynamic: boolean;
  /** Contains `$'…'` quoting, which can spell any byte (`$'\x72m'` is `rm`). */
  ansiC: boolean;
  /** Contains `{a,b}` or `{1..3}`, which bash expands into several words. */
  brace: boolean;
  /** Contains an unquoted glob character. */
  glob: boolean;
  /** Source text as written. */
  raw: string;
}

const plain = (text: string, raw: string): ShellWord => ({
  text,
  dynamic: false,
  ansiC: false,
  brace: false,
  glob: false,
  raw,
});

export function wordValue(node: SyntaxNode): ShellWord {
  switch (node.type) {
    case 'word':
    case 'number':
    case 'variable_name':
    case 'test_operator':
    case 'file_descriptor': {
      const text = unescapeUnquoted(node.text);
      const word = plain(text, node.text);
      word.glob = /(^|[^\\])[*?[]/.test(node.text);
      return word;
    }
    case 'raw_string':
      return plain(node.text.slice(1, -1), node.text);
    case 'ansi_c_string':
      return { ...plain(decodeAnsiC(node.text.slice(2, -1)), node.text), ansiC: true };
    case 'string':
    case 'translated_string':
      return joinParts(node, node.namedChildren, true);
    case 'concatenation': {
      const word = joinParts(node, node.namedChildren, false);
      // tree-sitter splits `{a,b}` into the words `{`, `a,b`, `}`; `{}` (find -exec) is no expansion.
      word.brace ||= /\{[^{}]*(,|\.\.)[^{}]*\}/.test(word.text);
      return word;
    }
    case 'brace_expression':
      return { ...plain(node.text, node.text), brace: true };
    case 'simple_expansion':
    case 'expansion':
      return { ...plain(normaliseExpansion(node.text), node.text), dynamic: true };
    default:
      // command/process substitution, arithmetic: known only at run time.
      return { ...plain(node.text, node.text), dynamic: true };
  }
}

function joinParts(node: SyntaxNode, parts: SyntaxNode[], quoted: boolean): ShellWord {
  const word = plain('', node.text);
  // `"` strings have string_content children; an empty string has none.
  for (const part of parts) {
    const value =
      quoted && part.type === 'string_content' ? plain(unescapeDoubleQuoted(part.text), part.text) : wordValue(part);
    word.text += value.text;
    word.dynamic ||= value.dynamic;
    word.ansiC ||= value.ansiC;
    word.brace ||= value.brace;
    word.glob ||= value.glob && !quoted;
  }
  return word;
}

/** `${HOME}`, `${HOME:?}`, `${HOME:-x}` and `$HOME` are the same thing to every rule. */
function normaliseExpansion(text: string): string {
  const braced = /^\$\{([A-Za-z_][A-Za-z0-9_]*)(:?[-?=+][^}]*)?\}$/.exec(text);
  return braced ? `$${braced[1]}` : text;
}

export function unescapeUnquoted(text: string): string {
  return text.replace(/\\\n/g, '').replace(/\\(.)/gs, '$1');
}

function unescapeDoubleQuoted(text: string): string {
  return text.replace(/\\\n/g, '').replace(/\\([$`"\\])/g, '$1');
}

/** Bash's `$'…'` escapes (the subset that can spell command names and paths). */
export function decodeAnsiC(body: string): string {
  return body.replace(
    /\\(x[0-9a-fA-F]{1,2}|u[0-9a-fA-F]{1,4}|U[0-9a-fA-F]{1,8}|[0-7]{1,3}|c.|.)/gs,
    (_match, code: string) => {
      const head = code[0];
      if (head === 'x' || head === 'u' || head === 'U') return String.fromCodePoint(Number.parseInt(code.slice(1), 16));
      if (/^[0-7]+$/.test(code)) return String.fromCharCode(Number.parseInt(code, 8));
      if (head === 'c') return String.fromCharCode(code.charCodeAt(1) & 0x1f);
      const simple: Record<string, string> = { n: '\n', t: '\t', r: '\r', a: '\x07', b: '\b', e: '\x1b', E: '\x1b' };
      return simple[code] ?? code;
    },
  );
}

/** `printf`/`echo -e` escapes, used to see what an escape-encoded payload piped to a shell would say. */
export function decodePrintfEscapes(text: string): string {
  return decodeAnsiC(text);
}
