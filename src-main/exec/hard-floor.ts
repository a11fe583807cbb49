import type { Finding } from './analysis-types.js';
import { judgeTarget, type TargetPlace, type TargetVerdict } from './floor-targets.js';
import type { ShellWord } from './shell-words.js';
import type { WordValues } from './word-values.js';

/**
 * The hard floor: commands no policy, sandbox relaxation or human "allow always"
 * may run. Checked on every command the input would start (after wrappers and
 * payloads are peeled off), on every value each word can take (floor-targets.ts,
 * word-values.ts). Where a destructive command's target cannot be known, the
 * finding is `floor-unknown` with severity `person`: a person must decide, even
 * under `security: full`.
 */
export interface FloorCommand {
  /** The program's base name (`rm`, not `/bin/rm`). */
  base: string;
  words: WordValues[];
  place: TargetPlace;
  /** The arguments are completed at run time (xargs): more targets than the words show. */
  argsUnknown?: boolean;
}

export function floorFindings(command: FloorCommand): Finding[] {
  const { base } = command;
  if (base === 'rm' || base === 'srm' || base === 'wipe') return rmFindings(command);
  if (base === 'find') return findFindings(command);
  if (base === 'chmod' || base === 'chown' || base === 'chgrp') return ownershipFindings(command);
  if (base === 'rsync') return rsyncFindings(command);
  if (base === 'mv') return moveFindings(command);
  if (/^mkfs(\..+)?$/.test(base) || base === 'mke2fs' || base === 'mkswap' || base === 'wipefs')
    return deviceFindings(command, 'format-disk', (value) => value.startsWith('/dev/'), 'format a disk device');
  if (base === 'dd') return ddFindings(command);
  if (base === 'shred' || base === 'tee' || base === 'cp' || base === 'blkdiscard')
    return deviceFindings(command, 'overwrite-disk', isBlockDevice, 'write onto the block device');
  return [];
}

/**
 * The same floor for callers that only have unquoted words (xargs' piped
 * arguments): every word is taken as the only value it shows.
 */
export function hardFloorFindings(base: string, args: ShellWord[], home: string | undefined): Finding[] {
  const words = args.map((arg) => ({
    raw: arg.raw,
    values: [arg.text.replace(/^(\$HOME|~)(?=\/|$)/, home ?? '~')],
    unknown: false,
  }));
  return floorFindings({ base, words, place: { home, cwds: [], cwdUnknown: false, topLevel: [] } }).filter(
    (finding) => finding.severity === 'deny',
  );
}

const blockDevicePattern = /^\/dev\/(sd[a-z]|nvme\d|vd[a-z]|hd[a-z]|xvd[a-z]|mmcblk\d|disk\/)/;

export function isBlockDevice(path: string): boolean {
  return blockDevicePattern.test(path.replace(/\/+/g, '/'));
}

function deny(code: Finding['code'], detail: string): Finding {
  return { code, detail, severity: 'deny' };
}

/** A destructive command whose target only shows at run time: a person decides. */
function cannotTell(code: Finding['code'], detail: string): Finding {
  return { code: 'floor-unknown', detail: `cannot tell whether ${detail} (${code})`, severity: 'person' };
}

interface ParsedOptions {
  /** Option letters and `--long` names that are certainly given. */
  flags: Set<string>;
  /** Words that may be options whose value is unknown (`rm $flags /`). */
  unknownOptions: WordValues[];
  positionals: WordValues[];
}

/**
 * GNU getopt_long as the coreutils parse: clusters (`-rf`), long options and any
 * unambiguous prefix of them (`--r`, `--recur`), `--opt=value`, `--` ending options,
 * options after operands. An ambiguous prefix stands for every option it could be.
 */
function parseOptions(words: WordValues[], longNames: string[], valued: string[] = []): ParsedOptions {
  const flags = new Set<string>();
  const unknownOptions: WordValues[] = [];
  const positionals: WordValues[] = [];
  let optionsOver = false;
  for (let index = 0; index < words.length; index++) {
    const word = words[index];
    if (!word) continue;
    if (word.unknown && !optionsOver) unknownOptions.push(word);
    let positional = false;
    for (const text of word.values) {
      if (optionsOver || !text.startsWith('-') || text === '-') positional = true;
      else if (text === '--') optionsOver = true;
      else if (text.startsWith('--')) {
        const name = text.slice(2).split('=')[0] ?? '';
        const exact = longNames.includes(name);
        const matches = exact ? [name] : longNames.filter((long) => long.startsWith(name));
        for (const full of matches.length > 0 ? matches : [name]) flags.add(`--${full}`);
        if (!text.includes('=') && matches.some((full) => valued.includes(`--${full}`))) index++;
      } else {
        for (const letter of text.slice(1)) flags.add(letter);
      }
    }
    if (positional || word.unknown) positionals.push(word);
  }
  return { flags, unknownOptions, positionals };
}

const rmLongOptions = [
  'force',
  'interactive',
  'one-file-system',
  'no-preserve-root',
  'preserve-root',
  'recursive',
  'dir',
  'verbose',
  'help',
  'version',
];

/** The first catastrophic or unknown verdict among the targets. */
function worstTarget(targets: WordValues[], place: TargetPlace): { catastrophic?: string; unknown?: string } {
  let unknown: string | undefined;
  for (const target of targets) {
    const verdict: TargetVerdict = judgeTarget(target, place);
    if (verdict.kind === 'catastrophic') return { catastrophic: verdict.shown };
    if (verdict.kind === 'unknown') unknown ??= verdict.why;
  }
  return unknown === undefined ? {} : { unknown };
}

function rmFindings(command: FloorCommand): Finding[] {
  const { flags, unknownOptions, positionals } = parseOptions(command.words, rmLongOptions);
  // rm -r without -f still deletes everything writable without asking (it only
  // prompts for write-protected files), so recursion alone is enough to deny.
  const recursive =
    flags.has('r') || flags.has('R') || flags.has('--recursive') || command.base === 'srm' || command.base === 'wipe';
  // `rm "$f"` cannot become `rm -r /`; `rm $f` (split into words) or `rm "$f" /` can.
  const splittable = unknownOptions.filter((word) => !/^"[^"]*"$/.test(word.raw));
  const maybeRecursive = recursive || splittable.length > 0 || (unknownOptions.length > 0 && positionals.length > 1);
  if (!maybeRecursive) return [];
  const worst = worstTarget(positionals, command.place);
  const what = `${command.base} -r`;
  if (worst.catastrophic !== undefined)
    return recursive
      ? [
          deny(
            'recursive-delete-root',
            `${what} would delete ${worst.catastrophic} (the root, a top-level or home folder)`,
          ),
        ]
      : [
          cannotTell(
            'recursive-delete-root',
            `${command.base} ${unknownOptions[0]?.raw} is -r and would delete ${worst.catastrophic}`,
          ),
        ];
  if (worst.unknown !== undefined)
    return [cannotTell('recursive-delete-root', `${what} deletes a vital folder: ${worst.unknown}`)];
  if (command.argsUnknown)
    return [cannotTell('recursive-delete-root', `${what} deletes a vital folder: its targets come from its input`)];
  return [];
}

const deleters = new Set(['rm', 'unlink', 'shred', 'srm', 'wipe', 'truncate', 'mv']);
const changers = new Set(['chmod', 'chown', 'chgrp']);
const runsAnything = /^(sh|bash|dash|zsh|ksh|ash|busybox|env|sudo|xargs|python[0-9.]*|perl|ruby|node)$/;

/** `find / -delete` and `find ~ -exec rm {} +` are `rm -rf /` spelled differently. */
function findFindings(command: FloorCommand): Finding[] {
  const words = command.words;
  let index = 0;
  while (index < words.length && /^-([HLP]|D|O\d*)$/.test(words[index]?.values[0] ?? '')) {
    index += words[index]?.values[0] === '-D' ? 2 : 1;
  }
  const starts: WordValues[] = [];
  for (; index < words.length; index++) {
    const word = words[index];
    if (!word || (!word.unknown && word.values.some((text) => /^[-(!,]/.test(text)))) break;
    starts.push(word);
  }
  const expression = words.slice(index).map((word) => word.values[0] ?? '');
  let code: 'recursive-delete-root' | 'recursive-chmod-root' | undefined = expression.includes('-delete')
    ? 'recursive-delete-root'
    : undefined;
  expression.forEach((text, at) => {
    if (!/^-(exec|execdir|ok|okdir)$/.test(text)) return;
    const program = basename(expression[at + 1] ?? '');
    if (deleters.has(program) || runsAnything.test(program) || program.startsWith('$'))
      code ??= 'recursive-delete-root';
    else if (changers.has(program)) code ??= 'recursive-chmod-root';
  });
  if (!code) return [];
  const worst = worstTarget(starts.length > 0 ? starts : [{ raw: '.', values: ['.'], unknown: false }], command.place);
  if (worst.catastrophic !== undefined)
    return [deny(code, `find ${worst.catastrophic} would delete or change everything under it`)];
  if (worst.unknown !== undefined)
    return [cannotTell(code, `find changes everything under a vital folder: ${worst.unknown}`)];
  return [];
}

function basename(text: string): string {
  return text.slice(text.lastIndexOf('/') + 1);
}

const ownershipLongOptions = [
  'changes',
  'dereference',
  'no-dereference',
  'from',
  'no-preserve-root',
  'preserve-root',
  'quiet',
  'silent',
  'reference',
  'recursive',
  'verbose',
  'help',
  'version',
];

function ownershipFindings(command: FloorCommand): Finding[] {
  const { flags, unknownOptions, positionals } = parseOptions(command.words, ownershipLongOptions, ['--from']);
  const recursive = flags.has('R') || flags.has('--recursive');
  if (!recursive && unknownOptions.length === 0) return [];
  // The first positional is the mode/owner unless --reference gave it.
  const targets = flags.has('--reference') ? positionals : positionals.slice(1);
  const worst = worstTarget(targets, command.place);
  if (worst.catastrophic !== undefined)
    return recursive
      ? [deny('recursive-chmod-root', `${command.base} -R would change every file under ${worst.catastrophic}`)]
      : [cannotTell('recursive-chmod-root', `${command.base} is -R on ${worst.catastrophic}`)];
  if (worst.unknown !== undefined && recursive)
    return [cannotTell('recursive-chmod-root', `${command.base} -R changes a vital folder: ${worst.unknown}`)];
  return [];
}

const rsyncValued = ['-e', '-f', '-T', '-B', '-M', '-@'];

/** `rsync -a --delete empty/ ~/` empties the home folder; `--remove-source-files ~/ x` too. */
function rsyncFindings(command: FloorCommand): Finding[] {
  const deleting = { destination: false, sources: false };
  const positionals: WordValues[] = [];
  let optionsOver = false;
  for (let index = 0; index < command.words.length; index++) {
    const word = command.words[index];
    if (!word) continue;
    const text = word.values[0] ?? '';
    if (!optionsOver && text === '--') optionsOver = true;
    else if (!optionsOver && text.startsWith('--')) {
      if (/^--del/.test(text)) deleting.destination = true;
      if (/^--remove-so/.test(text)) deleting.sources = true;
    } else if (!optionsOver && text.startsWith('-') && text !== '-') {
      if (rsyncValued.includes(text)) index++;
    } else positionals.push(word);
  }
  const findings: Finding[] = [];
  const remote = (word: WordValues): WordValues => ({
    ...word,
    values: word.values.map((value) => {
      const match = /^(?:[^/:]+@)?[^/:]+:(.*)$/.exec(value);
      if (!match) return value;
      const path = match[1] ?? '';
      return path === '' || path === '.' ? '~' : path;
    }),
  });
  const destination = positionals.at(-1);
  if (deleting.destination && destination && positionals.length > 1) {
    const worst = worstTarget([remote(destination)], command.place);
    if (worst.catastrophic !== undefined)
      findings.push(
        deny('recursive-delete-root', `rsync --delete would empty ${worst.catastrophic} (a vital or home folder)`),
      );
    else if (worst.unknown !== undefined)
      findings.push(cannotTell('recursive-delete-root', `rsync --delete empties a vital folder: ${worst.unknown}`));
  }
  if (deleting.sources) {
    const worst = worstTarget(positionals.slice(0, -1).map(remote), command.place);
    if (worst.catastrophic !== undefined)
      findings.push(deny('recursive-delete-root', `rsync --remove-source-files would empty ${worst.catastrophic}`));
  }
  return findings;
}

/** `mv ~ /tmp/x` or `mv /usr /x`: the folder is gone from where everything expects it. */
function moveFindings(command: FloorCommand): Finding[] {
  const { flags, positionals } = parseOptions(command.words, ['target-directory', 'no-target-directory']);
  const sources = flags.has('t') || flags.has('--target-directory') ? positionals.slice(1) : positionals.slice(0, -1);
  for (const source of sources) {
    const verdict = judgeTarget({ ...source, unknown: false }, command.place);
    if (verdict.kind === 'catastrophic')
      return [deny('move-root', `mv would move ${verdict.shown} (the root, a top-level or home folder) away`)];
  }
  return [];
}

function ddFindings(command: FloorCommand): Finding[] {
  for (const word of command.words) {
    const targets = word.values.filter((value) => value.startsWith('of=')).map((value) => value.slice(3));
    const device = targets.find(isBlockDevice);
    if (device) return [deny('overwrite-disk', `dd would write onto the block device ${device}`)];
    if (word.unknown && word.values.some((value) => value.startsWith('of=')))
      return [cannotTell('overwrite-disk', `dd ${word.raw} writes onto a disk`)];
  }
  return [];
}

function deviceFindings(
  command: FloorCommand,
  code: Finding['code'],
  isDevice: (value: string) => boolean,
  what: string,
): Finding[] {
  for (const word of command.words) {
    const device = word.values.find(isDevice);
    if (device) return [deny(code, `${command.base} would ${what} ${device}`)];
  }
  return [];
}
