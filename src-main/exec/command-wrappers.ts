// Wrappers (sudo, env, timeout, xargs, ssh, busybox…) and how to find the command inside them.
import type { WordItem } from './invocation-types.js';
import type { ShellWord } from './shell-words.js';
import type { WordValues } from './word-values.js';

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
  chrt: { positionalsBefore: 1 },
  taskset: { positionalsBefore: 1 },
  numactl: { valued: ['-C', '-N', '-m', '-p', '-i', '--physcpubind', '--cpunodebind', '--membind', '--preferred'] },
  eatmydata: {},
  faketime: { valued: ['-f', '-m'], positionalsBefore: 1 },
  unbuffer: {},
  rlwrap: { valued: ['-f', '-H', '-l', '-P', '-S', '-z'] },
  torsocks: { valued: ['-u', '-p', '-a', '-P'] },
  proxychains: { valued: ['-f'] },
  proxychains4: { valued: ['-f'] },
  catchsegv: {},
  valgrind: {},
  strace: { valued: ['-o', '-e', '-p', '-s', '-u', '-E', '-I', '-b', '-a', '-X', '-P', '-O', '-S'] },
  ltrace: { valued: ['-o', '-e', '-p', '-s', '-u', '-n', '-a', '-l', '-A', '-D'] },
  'dbus-run-session': { valued: ['--config-file', '--dbus-daemon'] },
  'xvfb-run': {
    valued: ['-n', '--server-num', '-s', '--server-args', '-e', '--error-file', '-f', '--auth-file', '-p'],
  },
  cgexec: { valued: ['-g'] },
  caffeinate: { valued: ['-w', '-t'] },
  setarch: { positionalsBefore: 1 },
  linux32: {},
  linux64: {},
  prlimit: { valued: ['-p', '--pid'] },
  chronic: {},
  ifne: {},
  entr: {},
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
  nsenter: { valued: ['-t', '--target', '-S', '--setuid', '-G', '--setgid', '-w', '--wd', '-r', '--root'] },
  'systemd-run': {
    valued: ['-p', '--property', '-u', '--unit', '-E', '--setenv', '-M', '--machine', '--uid', '--gid', '-H', '--host'],
  },
  firejail: {},
  fakeroot: { valued: ['-l', '--lib', '--faked', '-s', '-i'] },
  proot: { valued: ['-r', '-b', '-m', '-w', '-q', '-k', '-R', '-S', '--rootfs', '--bind', '--cwd'] },
  sshpass: { valued: ['-p', '-f', '-d', '-P'] },
  'sandbox-exec': { valued: ['-f', '-p', '-n', '-D'] },
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

/** What a payload wrapper hands on: shell text, an argv (as source text) or a script on stdin. */
export interface PeeledPayload {
  /** Text a shell will parse (`ssh host 'rm -rf /'`, `script -c …`, `trap '…' EXIT`). */
  shellTexts: string[];
  /** The wrapped command as source text, words kept as written (`busybox rm -rf /`). */
  argv?: string;
  /** The wrapper runs what it reads on stdin as a script (`at now`, `ssh host` with no command). */
  readsStdinScript?: boolean;
  /** Part of the payload is only known at run time. */
  unknown?: boolean;
}

/** ssh's options that take a value (clustered forms like `-p22` included). */
const sshValued = 'BbcDEeFIiJLlmOopQRSWw';

/**
 * Wrappers whose inner command is not "the words after the options": they hand a
 * shell text to a shell, possibly on another machine (a command run over ssh is
 * still analysed: `ssh host rm -rf /` deletes that host's root), take an applet
 * name, or read a script from stdin. The walker analyses what this returns.
 * Returns undefined for every other program.
 */
export function peelPayloadWrapper(base: string, args: ShellWord[], words: WordValues[]): PeeledPayload | undefined {
  const text = (index: number) => words[index]?.values[0] ?? args[index]?.text ?? '';
  const unknownFrom = (index: number) => words.slice(index).some((word) => word.unknown);
  const raw = (from: number) =>
    args
      .slice(from)
      .map((arg) => arg.raw)
      .join(' ');
  const joined = (from: number) =>
    args
      .slice(from)
      .map((_, index) => text(from + index))
      .join(' ');
  switch (base) {
    case 'busybox': {
      const applet = args.findIndex((arg) => !arg.text.startsWith('-'));
      return applet < 0 ? undefined : { shellTexts: [], argv: raw(applet) };
    }
    case 'ssh':
    case 'autossh':
    case 'mosh': {
      let index = 0;
      for (; index < args.length; index++) {
        const word = text(index);
        if (word === '--') {
          index++;
          break;
        }
        if (!word.startsWith('-') || word === '-') break;
        const letters = word.slice(1);
        for (let at = 0; at < letters.length; at++) {
          if (sshValued.includes(letters[at] ?? '')) {
            if (at === letters.length - 1) index++;
            break;
          }
        }
      }
      const command = index + 1;
      if (command >= args.length) return { shellTexts: [], readsStdinScript: true, unknown: unknownFrom(index) };
      return { shellTexts: [joined(command)], unknown: unknownFrom(command) };
    }
    case 'script': {
      for (let index = 0; index < args.length; index++) {
        const word = text(index);
        // `-c CMD`, `-qc CMD` (a cluster ending in c takes the next word), `-cCMD`, `--command=CMD`.
        if (word === '--command' || /^-[a-zA-Z]*c$/.test(word))
          return { shellTexts: [text(index + 1)], unknown: unknownFrom(index + 1) };
        const inline = /^--command=(.*)$/s.exec(word) ?? /^-[a-zA-Z]*c(.+)$/s.exec(word);
        if (inline) return { shellTexts: [inline[1] ?? ''], unknown: words[index]?.unknown };
      }
      // Without -c, script starts the user's shell, which reads its commands from stdin.
      return { shellTexts: [], readsStdinScript: true };
    }
    case 'at':
    case 'batch': {
      if (args.some((arg) => /^-[a-zA-Z]*[lrdc]$|^-V$/.test(arg.text))) return undefined;
      return {
        shellTexts: [],
        readsStdinScript: !args.some((arg) => arg.text === '-f'),
        unknown: args.some((arg) => arg.text === '-f'),
      };
    }
    case 'tmux':
    case 'screen': {
      // Option letters that take the next word (also at the end of a cluster: `screen -dmS name`).
      const valued = base === 'tmux' ? 'ctsneFxylpLSf' : 'ScehpTt';
      const positionals: number[] = [];
      for (let index = 0; index < args.length; index++) {
        const word = text(index);
        if (word === '-Logfile') index++;
        else if (/^-[a-zA-Z]+$/.test(word) && valued.includes(word.at(-1) ?? '')) index++;
        else if (!word.startsWith('-')) positionals.push(index);
        if (base === 'screen' && positionals.length > 0 && !args.some((arg) => arg.text === '-X')) break;
      }
      if (base === 'screen' && !args.some((arg) => arg.text === '-X')) {
        const first = positionals[0];
        return first === undefined ? undefined : { shellTexts: [], argv: raw(first) };
      }
      // tmux commands (new-session 'cmd', send-keys 'text' Enter, run-shell…) and screen -X stuff: any
      // word may become shell text.
      return { shellTexts: positionals.map(text), unknown: positionals.some((index) => words[index]?.unknown) };
    }
    case 'parallel': {
      const separator = args.findIndex((arg) => /^:::+\+?$/.test(arg.text));
      const end = separator < 0 ? args.length : separator;
      // parallel's own options come first; from the first other word on, it is the command template.
      const first = args.findIndex((arg, index) => index < end && !arg.text.startsWith('-'));
      const template =
        first < 0
          ? ''
          : args
              .slice(first, end)
              .map((_, index) => text(first + index))
              .join(' ');
      const inputs =
        separator < 0
          ? []
          : args
              .slice(separator + 1)
              .map((_, index) => text(separator + 1 + index))
              .filter((word) => !/^:::+\+?$/.test(word));
      const build = (input: string) =>
        template === '' ? input : template.includes('{}') ? template.replaceAll('{}', input) : `${template} ${input}`;
      return {
        shellTexts: inputs.length > 0 ? inputs.map(build) : template === '' ? [] : [template],
        readsStdinScript: separator < 0 && template === '',
        unknown: unknownFrom(0) || (separator < 0 && template !== ''),
      };
    }
    case 'trap': {
      const first = text(0);
      if (args.length < 2 || first === '-' || first === '-l' || first === '-p' || /^\d+$/.test(first)) return undefined;
      return { shellTexts: [first], unknown: words[0]?.unknown };
    }
    case 'coproc': {
      let start = 0;
      if (args.length > 1 && /^[A-Za-z_][A-Za-z0-9_]*$/.test(text(0)) && /^[{(]$/.test(text(1))) start = 1;
      if (/^[{(]$/.test(text(start))) start++;
      return start >= args.length ? undefined : { shellTexts: [], argv: raw(start) };
    }
    case 'alias': {
      const values = args.map((_, index) => text(index)).filter((word) => /^[^=\s]+=/.test(word));
      return { shellTexts: values.map((word) => word.slice(word.indexOf('=') + 1)), unknown: unknownFrom(0) };
    }
    case 'sg': {
      const rest = args.findIndex((arg, index) => index > 0 && arg.text !== '-c');
      return rest < 0 ? undefined : { shellTexts: [joined(rest)], unknown: unknownFrom(rest) };
    }
    case 'nix-shell':
    case 'nix': {
      const index = args.findIndex((arg) => arg.text === '--run' || arg.text === '--command' || arg.text === '-c');
      return index < 0 ? undefined : { shellTexts: [text(index + 1)], unknown: words[index + 1]?.unknown };
    }
    case 'env': {
      const index = args.findIndex((arg) => /^(-S|--split-string)/.test(arg.text));
      if (index < 0) return undefined;
      const word = text(index);
      const inline = word.replace(/^(-S|--split-string=?)/, '');
      const value = inline === '' ? text(index + 1) : inline;
      const after = inline === '' ? index + 2 : index + 1;
      return { shellTexts: [], argv: [value, raw(after)].join(' '), unknown: unknownFrom(index) };
    }
    case 'xterm':
    case 'urxvt':
    case 'kitty':
    case 'alacritty':
    case 'konsole':
    case 'gnome-terminal':
    case 'x-terminal-emulator': {
      const index = args.findIndex((arg) => arg.text === '-e' || arg.text === '--' || arg.text === '-x');
      return index < 0 || index + 1 >= args.length
        ? undefined
        : { shellTexts: [joined(index + 1)], argv: raw(index + 1) };
    }
    case 'fd':
    case 'fdfind': {
      const index = args.findIndex((arg) => /^(-x|-X|--exec|--exec-batch)$/.test(arg.text));
      return index < 0 || index + 1 >= args.length
        ? undefined
        : { shellTexts: [], argv: raw(index + 1), unknown: true };
    }
    case 'pee':
      return { shellTexts: args.map((_, index) => text(index)), unknown: unknownFrom(0) };
    default:
      return undefined;
  }
}
