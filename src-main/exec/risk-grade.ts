import { basename } from 'node:path';
import type { AnalysisSummary, Reason } from './analysis-types.js';
import { type ProgramContext, pathPlace, plainWord } from './programs/program-knowledge.js';
import { assessProgram } from './programs/program-table.js';

/**
 * How much harm a command can do if the person says yes without reading it:
 * `safe` reads or changes only the workspace, `caution` runs code, talks to the network
 * or cannot be fully analysed, `destructive` deletes, overwrites, escalates or
 * publishes something that cannot be taken back (or touches what lies outside the workspace).
 */
export type RiskLevel = 'safe' | 'caution' | 'destructive';

/** What an approval card shows: the grade, why, and what the command will touch. */
export interface RiskGrade {
  level: RiskLevel;
  /** Why the grade is what it is (empty for `safe`); stable codes, details for people. */
  because: Reason[];
  /** Files and folders it writes or deletes, as typed. */
  writes: string[];
  /** It talks to the network. */
  network: boolean;
}

/** The words of one program after the parser peeled off wrappers (sudo, env, nohup…). */
interface Invocation {
  base: string;
  args: string[];
  via: string[];
}

const privilege = new Set(['sudo', 'doas', 'su', 'pkexec', 'run0']);
const shells = new Set(['sh', 'bash', 'zsh', 'dash', 'ksh', 'fish', 'python', 'python3', 'node', 'perl', 'ruby']);
const fetchers = new Set(['curl', 'wget', 'fetch', 'http', 'nc', 'ncat']);
/** Programs whose whole job is irreversible: erase a disk, a partition table, a file's bytes, the machine's state. */
const alwaysDestructive: Record<string, string> = {
  dd: 'dd writes raw bytes over its target',
  shred: 'shred overwrites files so they cannot be recovered',
  wipefs: 'wipefs erases filesystem signatures',
  fdisk: 'fdisk rewrites a partition table',
  sfdisk: 'sfdisk rewrites a partition table',
  parted: 'parted rewrites a partition table',
  mkswap: 'mkswap formats a device',
  shutdown: 'shutdown stops the machine',
  reboot: 'reboot restarts the machine',
  poweroff: 'poweroff stops the machine',
  halt: 'halt stops the machine',
  killall: 'killall ends every process of that name',
  pkill: 'pkill ends every process that matches',
  truncate: 'truncate cuts files to a size, dropping their contents',
};
/** Programs that delete or move what their operands name. */
const removers = new Set(['rm', 'rmdir', 'unlink', 'mv']);
/** Programs that write what their operands name (the last operand for copies). */
const writers = new Set([
  'cp',
  'tee',
  'touch',
  'mkdir',
  'ln',
  'install',
  'chmod',
  'chown',
  'chgrp',
  'truncate',
  'shred',
]);
const recursiveModes = new Set(['chmod', 'chown', 'chgrp']);

const hasOption = (args: readonly string[], ...spellings: string[]) =>
  args.some(
    (arg) =>
      spellings.includes(arg) ||
      spellings.some(
        (spelling) => spelling.length === 2 && /^-[a-zA-Z]+$/.test(arg) && arg.includes(spelling.slice(1)),
      ),
  );
const operands = (args: readonly string[]) => args.filter((arg) => !arg.startsWith('-'));

/**
 * Grades a command from the exec policy's analysis (tree-sitter-bash words, wrappers peeled off,
 * the policy's findings and the per-program knowledge), never from the raw string: `rm` hidden
 * behind `sudo`, `env`, a pipeline or `sh -c` is graded like `rm`.
 */
export function gradeRisk(analysis: AnalysisSummary, context: ProgramContext): RiskGrade {
  const because: Reason[] = [];
  const writes: string[] = [];
  let network = false;
  let level: RiskLevel = 'safe';
  const raise = (to: RiskLevel, code: Reason['code'], detail: string) => {
    if (to === 'destructive' || (to === 'caution' && level === 'safe')) level = to;
    if (!because.some((reason) => reason.code === code && reason.detail === detail)) because.push({ code, detail });
  };
  const outside = (path: string) => pathPlace(path, context) !== 'inside';

  const invocations: Invocation[] = analysis.commands.map((command) => ({
    base: basename(command.name),
    args: command.args,
    via: command.via,
  }));
  invocations.forEach((invocation, index) => {
    const { base, args, via } = invocation;
    const escalated =
      via.find((wrapper) => privilege.has(basename(wrapper))) ?? (privilege.has(base) ? base : undefined);
    if (escalated) raise('destructive', 'privilege', `${escalated} runs it with administrator rights`);
    if (base in alwaysDestructive) raise('destructive', 'irreversible', alwaysDestructive[base]!);
    if (base.startsWith('mkfs')) raise('destructive', 'irreversible', `${base} formats a device, erasing it`);
    if (fetchers.has(base)) network = true;
    if (shells.has(base) && index > 0 && invocations.slice(0, index).some((before) => fetchers.has(before.base)))
      raise('destructive', 'runs-download', `${base} runs what was downloaded, unseen`);

    if (removers.has(base)) {
      const targets = operands(args);
      writes.push(...targets);
      if (base === 'mv') {
        if (targets.some(outside))
          raise('destructive', 'writes-outside', 'mv moves files to or from outside the workspace');
        else raise('caution', 'moves-files', 'mv moves or renames files, replacing any at the destination');
      } else {
        const recursive = base === 'rm' && hasOption(args, '-r', '-R', '--recursive');
        raise(
          'destructive',
          'deletes',
          recursive ? 'rm -r deletes folders and everything in them, with no trash' : `${base} deletes, with no trash`,
        );
        if (targets.some(outside)) raise('destructive', 'writes-outside', `${base} deletes outside the workspace`);
      }
    }
    if (writers.has(base)) {
      const targets = operands(args).slice(base === 'chmod' || base === 'chown' || base === 'chgrp' ? 1 : 0);
      const written = base === 'cp' || base === 'ln' || base === 'install' ? targets.slice(-1) : targets;
      writes.push(...written);
      if (written.some(outside)) raise('destructive', 'writes-outside', `${base} writes outside the workspace`);
      if (recursiveModes.has(base) && hasOption(args, '-R', '--recursive'))
        raise('destructive', 'recursive-permissions', `${base} -R changes a whole tree at once`);
    }
    if (base === 'dd') writes.push(...args.filter((arg) => arg.startsWith('of=')).map((arg) => arg.slice(3)));
    if (base === 'find' && args.some((arg) => arg === '-delete'))
      raise('destructive', 'deletes', 'find -delete deletes every file it matches');
    if (base === 'git') gradeGit(args, raise);
    if (base === 'rsync' && args.some((arg) => arg.startsWith('--delete')))
      raise('destructive', 'deletes', 'rsync --delete removes files missing from the source');
    if (base === 'crontab' && hasOption(args, '-r'))
      raise('destructive', 'deletes', 'crontab -r deletes every cron job');
    if (base === 'docker' && ['rm', 'rmi', 'prune'].some((sub) => args.includes(sub)))
      raise('destructive', 'deletes', 'docker removes containers, images or volumes');

    for (const found of assessProgram(
      base,
      args.map((arg) => plainWord(arg)),
      context,
    )) {
      if (found.kind === 'network') network = true;
      if (found.kind === 'writes-outside') raise('destructive', 'writes-outside', found.detail);
      else if (found.kind === 'publishes') raise('destructive', 'publishes', found.detail);
      else if (found.kind === 'runs-code') raise('caution', 'runs-code', found.detail);
      else if (found.kind === 'network') raise('caution', 'network', found.detail);
      else raise('caution', 'writes-files', found.detail);
    }
  });

  for (const finding of analysis.findings) {
    if (finding.code === 'write-outside-workspace') raise('destructive', 'writes-outside', finding.detail);
    else if (finding.severity === 'person') raise('caution', finding.code, finding.detail);
    else if (['shell-payload', 'obfuscation', 'parse-error', 'risky-arguments'].includes(finding.code))
      raise('caution', finding.code, finding.detail);
  }
  if (analysis.parseError) raise('caution', 'parse-error', 'part of the command could not be analysed');
  if (network && level === 'safe') raise('caution', 'network', 'it talks to the network');
  return { level, because, writes: [...new Set(writes)], network };
}

function gradeGit(args: readonly string[], raise: (to: RiskLevel, code: Reason['code'], detail: string) => void): void {
  const sub = args.find((arg) => !arg.startsWith('-'));
  const after = sub ? args.slice(args.indexOf(sub) + 1) : [];
  if (
    sub === 'push' &&
    (hasOption(after, '-f', '--force', '--force-with-lease', '--mirror', '--delete') ||
      after.some((arg) => arg.startsWith('+') || arg.startsWith('--force')))
  )
    raise('destructive', 'rewrites-remote', 'git push --force replaces history on the remote for everyone');
  if (sub === 'reset' && after.includes('--hard'))
    raise('destructive', 'discards-work', 'git reset --hard throws away uncommitted changes');
  if (sub === 'clean' && hasOption(after, '-f', '--force'))
    raise('destructive', 'deletes', 'git clean -f deletes untracked files');
  if (sub === 'branch' && hasOption(after, '-D'))
    raise('destructive', 'deletes', 'git branch -D deletes an unmerged branch');
  if ((sub === 'checkout' || sub === 'restore') && (after.includes('.') || after.includes('--')))
    raise('destructive', 'discards-work', `git ${sub} overwrites uncommitted changes`);
}

/**
 * The "allow always" scopes narrow enough for a command of this grade: a destructive one only for
 * these exact arguments (anywhere, or only in this folder), never the whole binary or tool.
 */
export function alwaysScopesFor<S extends string>(level: RiskLevel, scopes: readonly S[]): S[] {
  return level === 'destructive' ? scopes.filter((scope) => scope === 'exact' || scope === 'folder') : [...scopes];
}
