import type { Finding } from './analysis-types.js';
import type { ShellWord } from './shell-words.js';

/**
 * The hard floor: commands no policy, sandbox relaxation or human "allow always"
 * may run. Checked on every command the input would start, with words already
 * unquoted and escape-decoded, so spelling tricks don't slip past.
 */
export function hardFloorFindings(base: string, args: ShellWord[], home: string | undefined): Finding[] {
  if (base === 'rm') return rmFindings(args, home);
  if (base === 'find') return findFindings(args, home);
  if (base === 'chmod' || base === 'chown' || base === 'chgrp') return recursiveOwnershipFindings(base, args);
  if (/^mkfs(\..+)?$/.test(base) || base === 'mke2fs' || base === 'mkswap' || base === 'wipefs')
    return args.some((arg) => arg.text.startsWith('/dev/'))
      ? [deny('format-disk', `${base} would format a disk device`)]
      : [];
  if (base === 'dd') {
    const target = args.find((arg) => arg.text.startsWith('of='));
    return target && isBlockDevice(target.text.slice(3))
      ? [deny('overwrite-disk', `dd would write onto the block device ${target.text.slice(3)}`)]
      : [];
  }
  if (base === 'shred' || base === 'tee' || base === 'cp' || base === 'blkdiscard') {
    const device = args.find((arg) => isBlockDevice(arg.text));
    return device ? [deny('overwrite-disk', `${base} would write onto the block device ${device.text}`)] : [];
  }
  return [];
}

const blockDevicePattern = /^\/dev\/(sd[a-z]|nvme\d|vd[a-z]|hd[a-z]|xvd[a-z]|mmcblk\d|disk\/)/;

export function isBlockDevice(path: string): boolean {
  return blockDevicePattern.test(path.replace(/\/+/g, '/'));
}

function deny(code: string, detail: string): Finding {
  return { code, detail, severity: 'deny' };
}

interface ParsedOptions {
  flags: Set<string>;
  positionals: ShellWord[];
}

/**
 * Splits GNU-style options: clusters (`-rf`), long options and unambiguous
 * abbreviations of them (`--recur`), and `--` ending options.
 */
function parseOptions(args: ShellWord[], longNames: string[]): ParsedOptions {
  const flags = new Set<string>();
  const positionals: ShellWord[] = [];
  let optionsOver = false;
  for (const arg of args) {
    const text = arg.text;
    if (optionsOver || !text.startsWith('-') || text === '-') {
      positionals.push(arg);
    } else if (text === '--') {
      optionsOver = true;
    } else if (text.startsWith('--')) {
      const name = text.slice(2).split('=')[0] ?? '';
      const full = longNames.find((long) => name.length >= 3 && long.startsWith(name));
      flags.add(`--${full ?? name}`);
    } else {
      for (const letter of text.slice(1)) flags.add(letter);
    }
  }
  return { flags, positionals };
}

function rmFindings(args: ShellWord[], home: string | undefined): Finding[] {
  const { flags, positionals } = parseOptions(args, ['recursive', 'force', 'no-preserve-root', 'dir', 'verbose']);
  // rm -r without -f still deletes everything writable without asking (it only
  // prompts for write-protected files), so recursion alone is enough to deny.
  const recursive = flags.has('r') || flags.has('R') || flags.has('--recursive');
  if (!recursive) return [];
  const target = positionals.find((word) => isCatastrophicTarget(word, home));
  if (!target) return [];
  return [deny('recursive-delete-root', `rm -r would delete ${target.raw} (the root or home folder)`)];
}

/** `find / -delete` and `find ~ -exec rm -rf {} +` are `rm -rf /` spelled differently. */
function findFindings(args: ShellWord[], home: string | undefined): Finding[] {
  const firstExpression = args.findIndex((arg) => /^[-(!]/.test(arg.text));
  const starts = firstExpression < 0 ? args : args.slice(0, firstExpression);
  const root = starts.find((word) => isCatastrophicTarget(word, home));
  if (!root) return [];
  const texts = args.map((arg) => arg.text);
  const deletes = texts.includes('-delete');
  const execIndex = texts.findIndex((text) => /^-(exec|execdir|ok|okdir)$/.test(text));
  const execRm =
    execIndex >= 0 &&
    basename(texts[execIndex + 1] ?? '') === 'rm' &&
    texts.slice(execIndex + 2).some((text) => /^-[a-zA-Z]*[rR]|^--recursive$/.test(text));
  if (!deletes && !execRm) return [];
  return [deny('recursive-delete-root', `find ${root.raw} would delete everything under it`)];
}

function basename(text: string): string {
  return text.slice(text.lastIndexOf('/') + 1);
}

function recursiveOwnershipFindings(base: string, args: ShellWord[]): Finding[] {
  const { flags, positionals } = parseOptions(args, ['recursive', 'reference', 'from', 'verbose']);
  if (!flags.has('R') && !flags.has('--recursive')) return [];
  // The first positional is the mode/owner; the rest are targets.
  const target = positionals.slice(1).find((word) => normaliseTarget(word.text, undefined) === '/');
  return target ? [deny('recursive-chmod-root', `${base} -R would change every file under /`)] : [];
}

/** `/`, `/*`, `~`, `~/`, `$HOME`, `"$HOME"/`, `//`, `/./` and the home path spelled out. */
export function isCatastrophicTarget(word: ShellWord, home: string | undefined): boolean {
  const normalised = normaliseTarget(word.text, home);
  return normalised === '/' || normalised === '~';
}

function normaliseTarget(text: string, home: string | undefined): string {
  let path = text.replace(/^\$HOME(?=\/|$)/, '~');
  if (home && home !== '/' && (path === home || path.startsWith(`${home}/`))) path = `~${path.slice(home.length)}`;
  path = path.replace(/\/+/g, '/');
  for (;;) {
    const before = path;
    path = path.replace(/\/\.(?=\/|$)/g, '').replace(/^\/\.\.(?=\/|$)/, '');
    path = path.replace(/\/\*$/, '').replace(/\/$/, '');
    if (path === before) break;
  }
  if (path === '' || path === '/*' || path === '*') return text.startsWith('/') ? '/' : path;
  return path;
}
