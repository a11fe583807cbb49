// What a shell word can expand to, as far as the input itself says: the hard floor's data flow.
import type { SyntaxNode } from './bash-parser.js';
import type { ShellWord } from './shell-words.js';
import { staticOutputOfSubstitution } from './static-output.js';

/**
 * The texts a word can become when bash runs it (brace expansion, variables set
 * earlier in the input or by a `for` loop, `~`, `$HOME`, `$PWD`, literal `$(echo …)`).
 * `unknown` means some part depends on something the input does not say (the
 * environment, a program's output, `read`): the real value can be anything.
 * Globs are left in the texts; floor-targets.ts evaluates them.
 */
export interface WordValues {
  raw: string;
  values: string[];
  unknown: boolean;
}

/** What the walker knows at a point of the input. */
export interface FlowFacts {
  /** Possible values of each variable assigned in the input; `undefined` = assigned something unknowable. */
  readonly variables: ReadonlyMap<string, readonly string[] | undefined>;
  readonly home: string | undefined;
  /** Folders the command may run in (`cd` can fail, so every earlier folder stays possible). */
  readonly cwds: readonly string[];
  /** A `cd` whose target is unknown happened: relative paths could be anywhere. */
  readonly cwdUnknown: boolean;
}

/** More candidates than this is no longer "knowable" in practice: the word counts as unknown. */
const maxCandidates = 256;

const expansionPattern =
  /\$(?:\{([A-Za-z_][A-Za-z0-9_]*)(?:\[[@*0-9]+\])?(?:[:#%/^,@]?[^}]*)?\}|([A-Za-z_][A-Za-z0-9_]*))/g;

export function wordValues(word: ShellWord, node: SyntaxNode | undefined, facts: FlowFacts): WordValues {
  const substituted = literalSubstitution(node);
  if (substituted !== undefined) return { raw: word.raw, values: [substituted], unknown: false };
  let unknown = false;
  let texts = word.brace ? expandBraces(word.text) : [word.text];
  if (word.dynamic) {
    const next: string[] = [];
    const defaults = defaultsIn(word.raw);
    for (const text of texts) {
      const expanded = expandVariables(text, facts, defaults);
      unknown ||= expanded.unknown;
      next.push(...expanded.values);
      if (next.length > maxCandidates) return { raw: word.raw, values: next.slice(0, maxCandidates), unknown: true };
    }
    texts = next;
    // Whatever is left is a substitution, arithmetic or an expansion the rules do not model.
    if (texts.some((text) => /\$[({A-Za-z_0-9@*#?!$-]|`/.test(text))) unknown = true;
  }
  texts = texts.map((text) => expandTilde(text, facts.home));
  if (texts.some((text) => /^~[^/]/.test(text))) unknown = true;
  // Unquoted expansions split into fields; splitting every candidate over-approximates that.
  const split = word.dynamic ? texts.flatMap((text) => [text, ...text.split(/\s+/).filter(Boolean)]) : texts;
  return { raw: word.raw, values: [...new Set(split)], unknown };
}

/** `"$(echo /)"` and `$(printf '%s' ~)`: substitutions of literal producers. */
function literalSubstitution(node: SyntaxNode | undefined): string | undefined {
  if (!node) return undefined;
  const substitution =
    node.type === 'command_substitution'
      ? node
      : node.type === 'string' &&
          node.namedChildren.length === 1 &&
          node.namedChildren[0]?.type === 'command_substitution'
        ? node.namedChildren[0]
        : undefined;
  if (!substitution) return undefined;
  const output = staticOutputOfSubstitution(substitution);
  return output?.text.trim();
}

/** `${v:-/}`, `${v-x}`, `${v:=x}`: the value when `v` is empty or unset, which a child shell may see. */
function defaultsIn(raw: string): Map<string, string[]> {
  const defaults = new Map<string, string[]>();
  for (const match of raw.matchAll(/\$\{([A-Za-z_][A-Za-z0-9_]*):?[-=]([^}]*)\}/g)) {
    const name = match[1] ?? '';
    const value = (match[2] ?? '').replace(/^(['"])(.*)\1$/, '$2');
    defaults.set(name, [...(defaults.get(name) ?? []), value]);
  }
  return defaults;
}

function expandVariables(
  text: string,
  facts: FlowFacts,
  defaults: ReadonlyMap<string, string[]>,
): { values: string[]; unknown: boolean } {
  let unknown = false;
  let results = [''];
  let at = 0;
  expansionPattern.lastIndex = 0;
  for (let match = expansionPattern.exec(text); match; match = expansionPattern.exec(text)) {
    const literal = text.slice(at, match.index);
    at = match.index + match[0].length;
    const name = match[1] ?? match[2] ?? '';
    const known = variableChoices(name, facts);
    const fallback = defaults.get(name) ?? [];
    if (known === undefined && fallback.length === 0) {
      unknown = true;
      results = results.map((prefix) => prefix + literal + match[0]);
      continue;
    }
    if (known === undefined) unknown = true;
    const choices = [
      ...new Set([...(known ?? []).filter((value) => fallback.length === 0 || value !== ''), ...fallback]),
    ];
    const next: string[] = [];
    for (const prefix of results) for (const choice of choices) next.push(prefix + literal + choice);
    results = next.length > maxCandidates ? next.slice(0, maxCandidates) : next;
    if (next.length > maxCandidates) unknown = true;
  }
  return { values: results.map((prefix) => prefix + text.slice(at)), unknown };
}

function variableChoices(name: string, facts: FlowFacts): readonly string[] | undefined {
  if (facts.variables.has(name)) return facts.variables.get(name);
  if (name === 'HOME') return facts.home ? [facts.home] : ['~'];
  if (name === 'PWD' && !facts.cwdUnknown) return facts.cwds;
  return undefined;
}

function expandTilde(text: string, home: string | undefined): string {
  if (!home) return text;
  if (text === '~') return home;
  if (text.startsWith('~/')) return home + text.slice(1);
  return text;
}

/**
 * Bash brace expansion: `{a,b}`, `{1..3}`, `{a..c}`, nested and side by side.
 * Applied to the unquoted text, so a quoted brace also expands here: more
 * candidates than bash makes, never fewer.
 */
export function expandBraces(text: string): string[] {
  const open = findBraceGroup(text);
  if (!open) return [text];
  const { start, end, parts } = open;
  const prefix = text.slice(0, start);
  const suffix = text.slice(end + 1);
  const out: string[] = [];
  for (const part of parts) {
    for (const expanded of expandBraces(prefix + part + suffix)) {
      out.push(expanded);
      if (out.length > maxCandidates) return out;
    }
  }
  return out;
}

function findBraceGroup(text: string): { start: number; end: number; parts: string[] } | undefined {
  for (let start = text.indexOf('{'); start >= 0; start = text.indexOf('{', start + 1)) {
    if (text[start - 1] === '$') continue;
    let depth = 0;
    const commas: number[] = [];
    for (let index = start; index < text.length; index++) {
      const char = text[index];
      if (char === '{') depth++;
      else if (char === '}') {
        depth--;
        if (depth === 0) {
          const body = text.slice(start + 1, index);
          if (commas.length > 0) {
            const parts: string[] = [];
            let from = start + 1;
            for (const comma of commas) {
              parts.push(text.slice(from, comma));
              from = comma + 1;
            }
            parts.push(text.slice(from, index));
            return { start, end: index, parts };
          }
          const sequence = braceSequence(body);
          if (sequence) return { start, end: index, parts: sequence };
          break;
        }
      } else if (char === ',' && depth === 1) commas.push(index);
    }
  }
  return undefined;
}

function braceSequence(body: string): string[] | undefined {
  const numbers = /^(-?\d+)\.\.(-?\d+)(?:\.\.(-?\d+))?$/.exec(body);
  if (numbers) {
    const from = Number(numbers[1]);
    const to = Number(numbers[2]);
    const step = Math.abs(Number(numbers[3] ?? 1)) || 1;
    if (Math.abs(to - from) / step > maxCandidates) return undefined;
    const out: string[] = [];
    for (let value = from; from <= to ? value <= to : value >= to; value += from <= to ? step : -step)
      out.push(String(value));
    return out;
  }
  const letters = /^([a-zA-Z])\.\.([a-zA-Z])$/.exec(body);
  if (letters) {
    const from = (letters[1] ?? 'a').charCodeAt(0);
    const to = (letters[2] ?? 'a').charCodeAt(0);
    const out: string[] = [];
    for (let code = from; from <= to ? code <= to : code >= to; code += from <= to ? 1 : -1)
      out.push(String.fromCharCode(code));
    return out;
  }
  return undefined;
}
