// Wrappers (sudo, env, timeout, xargs…) and how to find the command inside them.
import type { WordItem } from './invocation-types.js';
import type { ShellWord } from './shell-words.js';

export interface OptionSpec {
  /** Options that take the next word as their value. */
  valued?: string[];
  /** Positional words the wrapper consumes before the command (timeout's duration, chroot's root). */
  positionalsBefore?: number;
}

/**
 * Wrappers that only change how a command runs (not with which rights). They are
 * commands too, so they need their own allowlist entry, and the inner command is
 * analysed as if it stood alone.
 */
export const transparentWrappers: Record<string, OptionSpec> = {
  nohup: {},
  time: { valued: ['-o', '--output', '-f', '--format'] },
  nice: { valued: ['-n', '--adjustment'] },
  ionice: { valued: ['-c', '--class', '-n', '--classdata', '-p', '--pid', '-P', '--pgid', '-u', '--uid'] },
  timeout: { valued: ['-s', '--signal', '-k', '--kill-after'], positionalsBefore: 1 },
  stdbuf: { valued: ['-i', '-o', '-e', '--input', '--output', '--error'] },
  setsid: {},
  command: {},
  builtin: {},
  exec: { valued: ['-a'] },
  env: { valued: ['-u', '--unset', '-C', '--chdir'] },
};

/** Wrappers that change rights or fan out; they also take more care to find their inner command. */
export const guardedWrappers: Record<string, OptionSpec> = {
  sudo: {
    valued: ['-u', '-g', '-h', '-p', '-C', '-D', '-r', '-t', '-T', '-U', '--user', '--group', '--host', '--prompt'],
  },
  doas: { valued: ['-u', '-C'] },
  pkexec: { valued: ['--user'] },
  runuser: { valued: ['-u', '-g', '-G', '--user', '--group'] },
  chroot: { valued: ['--userspec', '--groups'], positionalsBefore: 1 },
  unshare: { valued: ['--setgroups', '--propagation'] },
  xargs: {
    valued: ['-I', '-n', '-P', '-L', '-d', '-a', '-E', '-s', '--max-args', '--max-procs', '--delimiter', '--arg-file'],
  },
  flock: { valued: ['-w', '--timeout', '-E', '--conflict-exit-code'], positionalsBefore: 1 },
};

/** Index (into args) of the first word of the wrapped command, or undefined when there is none. */
export function wrapperStart(args: ShellWord[], spec: OptionSpec, skipAssignments: boolean): number | undefined {
  let positionals = spec.positionalsBefore ?? 0;
  let optionsOver = false;
  for (let index = 0; index < args.length; index++) {
    const text = args[index]?.text ?? '';
    if (!optionsOver && text === '--') {
      optionsOver = true;
      continue;
    }
    if (!optionsOver && text.startsWith('-') && text.length > 1) {
      if (spec.valued?.includes(text)) index++;
      continue;
    }
    if (skipAssignments && /^[A-Za-z_][A-Za-z0-9_]*=/.test(text)) continue;
    if (positionals > 0) {
      positionals--;
      continue;
    }
    return index;
  }
  return undefined;
}

export function optionValue(items: WordItem[], names: string[]): WordItem | undefined {
  for (let index = 0; index < items.length; index++) {
    const text = items[index]?.word.text ?? '';
    if (names.includes(text)) return items[index + 1];
    const inline = names.find((name) => name.startsWith('--') && text.startsWith(`${name}=`));
    if (inline) {
      const item = items[index];
      if (item) return { word: { ...item.word, text: text.slice(inline.length + 1) }, node: undefined };
    }
  }
  return undefined;
}
