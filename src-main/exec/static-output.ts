import type { SyntaxNode } from './bash-parser.js';
import { unescapeUnquoted, wordValue } from './shell-words.js';

/**
 * What a pipeline of literal producers and decoders would print, when that can be
 * known without running it: `echo cm0gLXJmIC8K | base64 -d`, `printf '\x72\x6d'`.
 * Used only to look *inside* obfuscated payloads for the hard floor; anything
 * decoded is already a miss because it is obfuscated.
 */
export interface StaticOutput {
  text: string;
  /** A decoder (base64, xxd, escapes) produced it: obfuscation. */
  decoded: boolean;
}

export function staticOutputOfStages(stages: SyntaxNode[], input?: string): StaticOutput | undefined {
  let output: StaticOutput | undefined = input === undefined ? undefined : { text: input, decoded: false };
  for (const stage of stages) {
    const parsed = commandWords(stage);
    if (!parsed) return undefined;
    const [name, ...args] = parsed.words;
    if (output === undefined && parsed.stdin !== undefined) {
      // `base64 -d <<< …`: the first stage decodes a here-string.
      const decoded = transform(name ?? '', args, parsed.stdin);
      if (decoded === undefined) return undefined;
      output = { text: decoded, decoded: true };
    } else if (output === undefined) {
      output = produce(name ?? '', args);
      if (!output) return undefined;
    } else {
      const next = transform(name ?? '', args, output.text);
      if (next === undefined) return undefined;
      output = { text: next, decoded: output.decoded || next !== output.text };
    }
  }
  return output;
}

/** `$( … )`/backticks whose content is a literal pipeline. */
export function staticOutputOfSubstitution(node: SyntaxNode): StaticOutput | undefined {
  const inner = node.namedChildren.filter((child) => child.type !== 'comment');
  if (inner.length !== 1 || !inner[0]) return undefined;
  const statement = inner[0];
  return staticOutputOfStages(statement.type === 'pipeline' ? statement.namedChildren : [statement]);
}

function commandWords(node: SyntaxNode): { words: string[]; stdin?: string } | undefined {
  if (node.type !== 'command') return undefined;
  const words: string[] = [];
  let stdin: string | undefined;
  for (const child of node.namedChildren) {
    if (child.type === 'command_name') {
      const first = child.namedChildren[0];
      if (!first) return undefined;
      words.push(unescapeUnquoted(first.text));
      continue;
    }
    if (child.type === 'herestring_redirect') {
      const value = wordValue(child.namedChildren[0] ?? child);
      if (value.dynamic) return undefined;
      stdin = `${value.text}\n`;
      continue;
    }
    if (child.type === 'variable_assignment' || child.type.endsWith('redirect')) return undefined;
    const value = wordValue(child);
    if (value.dynamic) return undefined;
    words.push(value.text);
  }
  return stdin === undefined ? { words } : { words, stdin };
}

function produce(name: string, args: string[]): StaticOutput | undefined {
  if (name === 'echo') {
    let escapes = false;
    let index = 0;
    while (args[index] && /^-[neE]+$/.test(args[index] ?? '')) {
      if (args[index]?.includes('e')) escapes = true;
      index++;
    }
    const text = args.slice(index).join(' ');
    return { text: escapes ? decodeEscapes(text) : text, decoded: escapes && decodeEscapes(text) !== text };
  }
  if (name === 'printf' && args.length > 0) {
    const text = decodeEscapes(args[0] ?? '').replace(/%s/g, () => args[1] ?? '');
    return { text, decoded: text !== args[0] };
  }
  return undefined;
}

function transform(name: string, args: string[], input: string): string | undefined {
  if (name === 'base64' && args.some((arg) => /^(-d|--decode|-[a-z]*d[a-z]*)$/.test(arg)))
    return Buffer.from(input.replace(/\s+/g, ''), 'base64').toString('utf8');
  if (name === 'xxd' && args.includes('-r') && args.some((arg) => arg === '-p' || arg === '-ps'))
    return Buffer.from(input.replace(/[^0-9a-fA-F]/g, ''), 'hex').toString('utf8');
  if (name === 'rev') return [...input].reverse().join('');
  if (name === 'cat' && args.length === 0) return input;
  return undefined;
}

function decodeEscapes(text: string): string {
  return text.replace(/\\(x[0-9a-fA-F]{1,2}|[0-7]{1,3}|[ntr\\])/g, (_match, code: string) => {
    if (code.startsWith('x')) return String.fromCharCode(Number.parseInt(code.slice(1), 16));
    if (/^[0-7]+$/.test(code)) return String.fromCharCode(Number.parseInt(code, 8));
    return ({ n: '\n', t: '\t', r: '\r', '\\': '\\' } as Record<string, string>)[code] ?? code;
  });
}
