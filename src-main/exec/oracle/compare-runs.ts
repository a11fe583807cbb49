// Compares what the analyser said a command would run with what bash really ran.
import { posix } from 'node:path';
import type { AnalyzedCommand, CommandAnalysis } from '../analysis-types.js';
import { expandBraces } from '../word-values.js';
import type { Execution, RecordedRun } from './recording-sandbox.js';

export interface Disagreement {
  command: string;
  /**
   * `missing`: a program ran that the analysis does not list. `arguments`: it is listed,
   * but no listed form accounts for the arguments it ran with. `floor-missed`: it ran
   * `rm -r` on the home folder, the root or a top-level folder and the analysis had no
   * floor (`deny`) or person-only finding. `write-missed`: a file outside the working
   * folder was written and the analysis had no finding for it.
   */
  kind: 'missing' | 'arguments' | 'floor-missed' | 'write-missed';
  detail: string;
}

export interface CompareContext {
  home: string;
  work: string;
  /** Entries of the scratch home before the run, so "every entry of home" can be recognised. */
  homeEntries: string[];
  /** Entries of the sandbox's root (the host's, bound read-only). */
  topLevel: string[];
}

/** Programs the analyser need not list: the shells that carry the commands it does list. */
const carriers = new Set(['sh', 'bash', 'dash']);

/** Programs that write files themselves, so a write by them needs no redirect finding. */
const writers =
  /^(tee|touch|sed|mkdir|python3|perl|awk|cp|mv|dd|script|find|xargs|env|nice|nohup|timeout|stdbuf|setsid)$/;

/**
 * The analyser is right when its view of what runs is a superset of what ran:
 * every execution is one of its commands (same program, arguments it accounts
 * for), every catastrophic delete that really ran was on its floor or asked of a
 * person, and every write outside the working folder was flagged.
 */
export function compareRun(
  command: string,
  analysis: CommandAnalysis,
  run: RecordedRun,
  context: CompareContext,
): Disagreement[] {
  const found: Disagreement[] = [];
  for (const execution of run.executions) {
    if (carriers.has(execution.name)) continue;
    const candidates = analysis.commands.filter((listed) => namesMatch(listed, execution.name));
    if (candidates.length === 0) {
      found.push({
        command,
        kind: 'missing',
        detail: `${show(execution)} ran, but the analysis does not list ${execution.name}`,
      });
      continue;
    }
    if (!candidates.some((listed) => argumentsCovered(listed, execution.args, context)))
      found.push({
        command,
        kind: 'arguments',
        detail: `${show(execution)} ran; the analysis has only ${candidates.map(showListed).join(' | ')}`,
      });
  }
  const guarded = analysis.findings.some((finding) => finding.severity === 'deny' || finding.severity === 'person');
  for (const execution of run.executions) {
    if (guarded) break;
    const target = catastrophicDelete(execution, context);
    if (target) found.push({ command, kind: 'floor-missed', detail: `${show(execution)} deleted ${target}` });
  }
  const outside = run.written.filter((path) => path !== context.work && !path.startsWith(`${context.work}/`));
  const flagged =
    guarded ||
    analysis.findings.some((finding) => finding.code === 'write-outside-workspace') ||
    run.executions.some((execution) => writers.test(execution.name));
  if (outside.length > 0 && !flagged)
    found.push({ command, kind: 'write-missed', detail: `wrote ${outside.join(', ')} with no finding` });
  return found;
}

function namesMatch(listed: AnalyzedCommand, name: string): boolean {
  // A name only known at run time could be any program.
  if (listed.name.dynamic) return true;
  return posix.basename(listed.name.text) === name;
}

function argumentsCovered(listed: AnalyzedCommand, args: string[], context: CompareContext): boolean {
  if (listed.argsUnknown) return true;
  // `$…`, `#{…}` or backticks left in a word may still be expanded by the shell or interpreter
  // that receives it (perl's "ls $v"), so such a word can stand for anything.
  // `{}` is replaced by find -exec/xargs -I wherever it stands, also inside a `sh -c` payload.
  if (listed.args.some((arg) => arg.dynamic || arg.glob || /\$|#\{|`|\{\}/.test(arg.text))) return true;
  const forms = new Set<string>();
  for (const word of listed.args) {
    // dash (`sh`) does not expand braces, bash does: both spellings are accounted for.
    const texts = word.brace ? [word.text, ...expandBraces(word.text)] : [word.text];
    // dash has no `$'…'` either: it reads `$'/'` as `$` and a quoted `/`.
    if (word.ansiC)
      texts.push(word.raw.replace(/\$'((?:\\.|[^'])*)'/g, (_match, body: string) => `$${body}`).replace(/^'|'$/g, ''));
    for (const text of texts) forms.add(expandTilde(text, context.home));
  }
  return args.every((arg) => forms.has(arg));
}

function expandTilde(text: string, home: string): string {
  if (text === '~') return home;
  if (text.startsWith('~/')) return home + text.slice(1);
  return text.replace(/^([A-Za-z_][A-Za-z0-9_]*=)~(?=\/|$)/, `$1${home}`);
}

/** Ground truth from the real arguments: `rm -r` on /, a top-level folder, home or above, or all of home. */
function catastrophicDelete(execution: Execution, context: CompareContext): string | undefined {
  if (execution.name !== 'rm') return undefined;
  let recursive = false;
  const targets: string[] = [];
  let over = false;
  for (const arg of execution.args) {
    if (!over && arg === '--') over = true;
    else if (!over && /^--r/.test(arg)) recursive = true;
    else if (!over && /^-[a-zA-Z]+$/.test(arg)) recursive ||= /[rR]/.test(arg);
    else if (over || !arg.startsWith('-')) targets.push(posix.resolve(execution.cwd, arg));
  }
  if (!recursive) return undefined;
  const vital = (path: string) =>
    path === '/' ||
    (posix.dirname(path) === '/' && context.topLevel.includes(posix.basename(path))) ||
    path === context.home ||
    context.home.startsWith(`${path}/`);
  const hit = targets.find((target) => vital(target) && target !== '/tmp');
  if (hit) return hit;
  const visible = context.homeEntries.filter((name) => !name.startsWith('.'));
  if (visible.length > 0 && visible.every((name) => targets.includes(posix.join(context.home, name))))
    return `every entry of ${context.home}`;
  return undefined;
}

function show(execution: Execution): string {
  return [execution.name, ...execution.args].map((arg) => JSON.stringify(arg)).join(' ');
}

function showListed(listed: AnalyzedCommand): string {
  return [listed.name.text, ...listed.args.map((arg) => arg.text)].join(' ');
}
