import type { ShellWord } from '../shell-words.js';
import { type ProgramContext, type Risk, risk } from './program-knowledge.js';

/**
 * How a program reads its options. Each convention is a handful of switches on one
 * small parser, so `-pe`, `-O<cmd>`, `--req=x`, `--require x` and `--no-x` are read the
 * way the program itself reads them (issue 17).
 */
export interface OptionConvention {
  /** `-abc` is `-a -b -c`; a letter that takes a value takes the rest of the word (`-O<cmd>`, `-ofile`). */
  clusters: boolean;
  /** `--req` means `--require` when no other long option starts with `--req` (getopt_long, parse-options, nopt). */
  abbreviations: boolean;
  /** Options end at the first positional (an interpreter's script, git's subcommand); otherwise they may follow positionals. */
  stopAtFirstPositional: boolean;
  /** `--no-foo` is `--foo` turned off. */
  negation: boolean;
  /** node: `--inspect_brk` is `--inspect-brk`. */
  underscoresAreDashes: boolean;
}

/** GNU getopt_long, Python's optparse/argparse (pip), argp (tar), popt (rsync): clusters, abbreviations, permutation. */
export const getoptLong: OptionConvention = {
  clusters: true,
  abbreviations: true,
  stopAtFirstPositional: false,
  negation: false,
  underscoresAreDashes: false,
};

/** getopt as interpreters use it (python): clusters, options end at the script. */
export const interpreterGetopt: OptionConvention = {
  clusters: true,
  abbreviations: false,
  stopAtFirstPositional: true,
  negation: false,
  underscoresAreDashes: false,
};

/** node's option parser: exact long names with `_` or `-`, options end at the script; `-pe` style pairs. */
export const nodeOptions: OptionConvention = {
  clusters: true,
  abbreviations: false,
  stopAtFirstPositional: true,
  negation: false,
  underscoresAreDashes: true,
};

/** git's global options (git.c handle_options): exact names, end at the subcommand. */
export const gitGlobalOptions: OptionConvention = {
  clusters: false,
  abbreviations: false,
  stopAtFirstPositional: true,
  negation: false,
  underscoresAreDashes: false,
};

/** git's parse-options (builtins): clusters with attached values, unambiguous abbreviations, `--no-`. */
export const gitParseOptions: OptionConvention = {
  clusters: true,
  abbreviations: true,
  stopAtFirstPositional: false,
  negation: true,
  underscoresAreDashes: false,
};

/** npm's nopt: options anywhere, abbreviations of config keys, `--no-`, clustered shorthands; `_` read as `-` (npm_config_* style), to be safe. */
export const noptOptions: OptionConvention = {
  clusters: true,
  abbreviations: true,
  stopAtFirstPositional: false,
  negation: true,
  underscoresAreDashes: true,
};

/** Go's pflag (docker, kubectl): clusters, exact long names. */
export const goFlags: OptionConvention = {
  clusters: true,
  abbreviations: false,
  stopAtFirstPositional: false,
  negation: false,
  underscoresAreDashes: false,
};

export interface OptionUse {
  /** The name as matched (`--require`), or as typed when unknown. */
  name: string;
  value: ShellWord | undefined;
  /** The words as typed: `-pe`, or `-r` and `x`. */
  spelled: string[];
}

export type OptionRisk = (use: OptionUse, context: ProgramContext) => Risk | undefined;

export interface OptionDef {
  /** Every spelling: `-e`, `--eval`. */
  names: readonly string[];
  /** `required`: the next word when not attached; `optional`: only attached (`--inspect=host`, `-O<cmd>`). */
  value?: 'required' | 'optional';
  risk?: OptionRisk;
  /** For an optional value in a cluster: the part of the rest it takes (octal digits for perl -l); the rest are more letters. */
  attachedValue?: RegExp;
  /** Everything after it (and its value) is an operand: python's `-c`/`-m`. */
  endsOptions?: boolean;
  /** The risk holds even when negated (`--no-verify` is not `--verify` turned off in every program). */
  riskyWhenNegated?: boolean;
}

export interface Grammar {
  convention: OptionConvention;
  options: readonly OptionDef[];
  /**
   * Every option the program accepts is listed (python): an unknown one is an error to
   * the program, so it is read as a flag instead of following both readings.
   */
  complete?: boolean;
}

export type ArgToken =
  | {
      kind: 'option';
      /** Undefined when unknown; for an ambiguous abbreviation every matching definition is in `candidates`. */
      def: OptionDef | undefined;
      candidates: readonly OptionDef[];
      use: OptionUse;
      negated: boolean;
      index: number;
    }
  | { kind: 'positional'; word: ShellWord; index: number; afterOptions: boolean }
  | { kind: 'end'; index: number };

export interface ParsedArguments {
  /** Every reading of the words; several when an unknown option may or may not take the next word. */
  readings: ArgToken[][];
  /** Too many unknowns to follow every reading. */
  truncated: boolean;
}

/** Beyond this many readings the input is called too ambiguous (each unknown option with a word after it doubles them). */
const maxReadings = 64;

interface Lookup {
  short: Map<string, OptionDef>;
  long: Map<string, OptionDef>;
}

const lookups = new WeakMap<Grammar, Lookup>();

function lookupOf(grammar: Grammar): Lookup {
  let lookup = lookups.get(grammar);
  if (!lookup) {
    lookup = { short: new Map(), long: new Map() };
    for (const def of grammar.options)
      for (const name of def.names) {
        // A name listed twice would silently take the later meaning (a risky option read as harmless).
        if (lookup.long.has(name) || lookup.short.has(name)) throw new Error(`option ${name} is defined twice`);
        if (name.startsWith('--')) lookup.long.set(name, def);
        else lookup.short.set(name, def);
      }
    lookups.set(grammar, lookup);
  }
  return lookup;
}

const tooAmbiguous: OptionDef = {
  names: [],
  risk: (use) => risk('runs-code', use.spelled, 'too many unrecognised options to follow every reading of them'),
};

function tooAmbiguousToken(index: number): ArgToken {
  return {
    kind: 'option',
    def: tooAmbiguous,
    candidates: [tooAmbiguous],
    use: { name: '', value: undefined, spelled: [] },
    negated: false,
    index,
  };
}

export function parseArguments(args: readonly ShellWord[], grammar: Grammar): ParsedArguments {
  const readings: ArgToken[][] = [];
  let truncated = false;
  const lookup = lookupOf(grammar);
  const convention = grammar.convention;

  const walk = (start: number, tokens: ArgToken[], optionsOver: boolean): void => {
    let index = start;
    let over = optionsOver;
    const fork = (alternative: () => void) => {
      if (readings.length + 1 >= maxReadings) {
        // The reading not followed could hide a risky option: say so in the one that is.
        if (!truncated) tokens.push(tooAmbiguousToken(index));
        truncated = true;
        return;
      }
      alternative();
    };
    while (index < args.length) {
      const last = tokens.at(-1);
      if (last?.kind === 'option' && last.def?.endsOptions) over = true;
      const word = args[index] as ShellWord;
      const text = word.text;
      if (over || text === '-' || !text.startsWith('-')) {
        tokens.push({ kind: 'positional', word, index, afterOptions: over });
        if (convention.stopAtFirstPositional) over = true;
        index++;
        continue;
      }
      if (text === '--') {
        tokens.push({ kind: 'end', index });
        over = true;
        index++;
        continue;
      }
      const next = args[index + 1];
      const mayTakeNext = next !== undefined && !next.text.startsWith('-');
      if (text.startsWith('--')) {
        const equals = text.indexOf('=');
        let name = equals < 0 ? text : text.slice(0, equals);
        if (convention.underscoresAreDashes) name = name.replace(/_/g, '-');
        const attached = equals < 0 ? undefined : { ...word, text: text.slice(equals + 1) };
        const { defs, negated } = matchLong(name, lookup, convention);
        const def = defs.length === 1 ? defs[0] : undefined;
        const needs = new Set(defs.map((candidate) => (negated ? 'none' : (candidate.value ?? 'none'))));
        const token = (value: ShellWord | undefined, spelled: string[]): ArgToken => ({
          kind: 'option',
          def,
          candidates: defs,
          use: { name: def?.names.find((n) => n.startsWith('--')) ?? name, value, spelled },
          negated,
          index,
        });
        if (attached || negated || (defs.length > 0 && needs.size === 1 && !needs.has('required'))) {
          tokens.push(token(attached, [text]));
          index++;
          continue;
        }
        if (defs.length > 0 && needs.size === 1) {
          // Required value: the next word, whatever it looks like (getopt takes `--opt --x` as the value `--x`).
          tokens.push(token(next, next ? [text, next.text] : [text]));
          index += next ? 2 : 1;
          continue;
        }
        // Unknown, or an abbreviation whose candidates disagree: follow both readings.
        if (mayTakeNext && !(grammar.complete && defs.length === 0)) {
          const taken = [...tokens, token(next, [text, next.text])];
          fork(() => walk(index + 2, taken, over));
        }
        tokens.push(token(undefined, [text]));
        index++;
        continue;
      }
      if (!convention.clusters) {
        const def = lookup.short.get(text);
        const token = (value: ShellWord | undefined, spelled: string[]): ArgToken => ({
          kind: 'option',
          def,
          candidates: def ? [def] : [],
          use: { name: text, value, spelled },
          negated: false,
          index,
        });
        if (def?.value === 'required') {
          tokens.push(token(next, next ? [text, next.text] : [text]));
          index += next ? 2 : 1;
          continue;
        }
        if (!def && mayTakeNext && !grammar.complete) {
          const taken = [...tokens, token(next, [text, next.text])];
          fork(() => walk(index + 2, taken, over));
        }
        tokens.push(token(undefined, [text]));
        index++;
        continue;
      }
      // A cluster: `-abc`, where a letter that takes a value ends it.
      let consumedNext = false;
      for (let at = 1; at < text.length; at++) {
        const name = `-${text[at]}`;
        const def = lookup.short.get(name);
        const rest = text.slice(at + 1);
        const token = (value: ShellWord | undefined, spelled: string[]): ArgToken => ({
          kind: 'option',
          def,
          candidates: def ? [def] : [],
          use: { name, value, spelled },
          negated: false,
          index,
        });
        if (def?.value === 'required') {
          if (rest !== '') tokens.push(token({ ...word, text: rest }, [text]));
          else {
            tokens.push(token(next, next ? [text, next.text] : [text]));
            consumedNext = next !== undefined;
          }
          break;
        }
        if (def?.value === 'optional' && def.attachedValue) {
          // Only what fits the value (perl's `-l[octal]`): `-lne` is -l, -n, -e.
          const taken = def.attachedValue.exec(rest)?.[0] ?? '';
          tokens.push(token(taken === '' ? undefined : { ...word, text: taken }, [text]));
          at += taken.length;
          continue;
        }
        if (def?.value === 'optional') {
          tokens.push(token(rest === '' ? undefined : { ...word, text: rest }, [text]));
          break;
        }
        if (!def && rest === '' && mayTakeNext && !grammar.complete) {
          const taken = [...tokens, token(next, [text, next.text])];
          fork(() => walk(index + 2, taken, over));
        }
        tokens.push(token(undefined, [text]));
      }
      index += consumedNext ? 2 : 1;
    }
    readings.push(tokens);
  };

  walk(0, [], false);
  return { readings, truncated };
}

function matchLong(
  name: string,
  lookup: Lookup,
  convention: OptionConvention,
): { defs: OptionDef[]; negated: boolean } {
  const exact = lookup.long.get(name);
  if (exact) return { defs: [exact], negated: false };
  const prefixed = convention.abbreviations ? abbreviationsOf(name, lookup) : [];
  if (prefixed.length > 0) return { defs: prefixed, negated: false };
  if (convention.negation && name.startsWith('--no-')) {
    const positive = `--${name.slice(5)}`;
    const base = lookup.long.get(positive);
    if (base) return { defs: [base], negated: true };
    const abbreviated = convention.abbreviations ? abbreviationsOf(positive, lookup) : [];
    if (abbreviated.length > 0) return { defs: abbreviated, negated: true };
  }
  return { defs: [], negated: false };
}

function abbreviationsOf(name: string, lookup: Lookup): OptionDef[] {
  if (name.length < 3) return [];
  const found = new Set<OptionDef>();
  for (const [long, def] of lookup.long) if (long.startsWith(name)) found.add(def);
  return [...found];
}

/** The risks of every option in one reading (an ambiguous abbreviation is as risky as its riskiest candidate). */
export function optionRisks(tokens: readonly ArgToken[], context: ProgramContext): Risk[] {
  const risks: Risk[] = [];
  for (const token of tokens) {
    if (token.kind !== 'option') continue;
    for (const def of token.candidates) {
      if (!def.risk || (token.negated && !def.riskyWhenNegated)) continue;
      const found = def.risk(token.use, context);
      if (found) risks.push(found);
    }
  }
  return risks;
}

export function positionalsOf(tokens: readonly ArgToken[]): Extract<ArgToken, { kind: 'positional' }>[] {
  return tokens.filter((token): token is Extract<ArgToken, { kind: 'positional' }> => token.kind === 'positional');
}

/** The option tokens of one reading that match a definition with any of these names. */
export function usesOf(tokens: readonly ArgToken[], names: readonly string[]): OptionUse[] {
  const uses: OptionUse[] = [];
  for (const token of tokens)
    if (
      token.kind === 'option' &&
      !token.negated &&
      token.candidates.some((def) => def.names.some((n) => names.includes(n)))
    )
      uses.push(token.use);
  return uses;
}
