import { isAbsolute, relative, resolve as resolvePath } from 'node:path';
import type { AnalyzedCommand, CommandAnalysis, Reason } from './analysis-types.js';
import {
  type AllowlistEntry,
  argPatternRegExp,
  type ExecDecision,
  type ExecPolicy,
  globToRegExp,
} from './exec-policy.js';
import { basename } from './invocation-rules.js';
import { type PathResolver, resolveSpelledPath } from './path-resolver.js';

export interface PolicyVerdict {
  decision: ExecDecision;
  reasons: Reason[];
}

export interface EvaluateOptions {
  resolver: PathResolver;
  cwd: string;
  home?: string;
}

/** `VAR=value` prefixes that cannot change which program runs or what it loads. */
const harmlessEnv = /^(LANG|LC_[A-Z_]+|TZ|TERM|NO_COLOR)$/;

/**
 * Builtins that neither run programs nor write anything themselves (their
 * redirects are judged separately), so they never need an allowlist entry.
 */
const safeBuiltins = new Set([
  'cd',
  'pushd',
  'popd',
  'pwd',
  'true',
  'false',
  ':',
  'test',
  '[',
  'echo',
  'printf',
  'exit',
]);

/** Letters that look Latin but are not (Cyrillic, Greek…), or invisible characters. */
const nonAscii = /[^\x21-\x7e]/;

/**
 * Turns an analysis into allow / ask / deny. Order matters: the hard floor beats
 * every setting; unparseable input is never allowed; then `security`, then the
 * allowlist (every command must match), then `ask`.
 */
export function evaluatePolicy(analysis: CommandAnalysis, policy: ExecPolicy, options: EvaluateOptions): PolicyVerdict {
  const floor = analysis.findings.filter((finding) => finding.severity === 'deny');
  if (floor.length > 0) return { decision: 'deny', reasons: floor.map(({ code, detail }) => ({ code, detail })) };
  if (policy.security === 'deny')
    return { decision: 'deny', reasons: [{ code: 'security-deny', detail: 'exec is disabled for this agent' }] };

  const misses: Reason[] = analysis.findings.map(({ code, detail }) => ({ code, detail }));
  // The floor cannot tell, or a secret would be read: a person decides, whatever `security` says.
  const person = analysis.findings.filter((finding) => finding.severity === 'person');
  if (person.length > 0 && policy.security === 'full') {
    const reasons = person.map(({ code, detail }) => ({ code, detail }));
    return policy.ask === 'off'
      ? {
          decision: 'deny',
          reasons: [{ code: 'ask-off', detail: 'a person must decide and asking is off' }, ...reasons],
        }
      : { decision: 'ask', reasons };
  }
  if (policy.security === 'full' && !analysis.parseError) {
    const reason: Reason = { code: 'security-full', detail: 'this agent may run any command' };
    return policy.ask === 'always'
      ? { decision: 'ask', reasons: [{ code: 'ask-always', detail: 'every command is confirmed' }, reason] }
      : { decision: 'allow', reasons: [reason] };
  }

  const matched: Reason[] = [];
  for (const command of analysis.commands) {
    const result = matchCommand(command, policy.allowlist, options);
    if ('miss' in result) misses.push(result.miss);
    else matched.push(result.match);
  }
  if (analysis.commands.length === 0 && misses.length === 0)
    matched.push({ code: 'no-command', detail: 'the input runs no command' });

  if (misses.length > 0)
    return policy.ask === 'off'
      ? { decision: 'deny', reasons: [{ code: 'ask-off', detail: 'not allowlisted and asking is off' }, ...misses] }
      : { decision: 'ask', reasons: misses };
  if (policy.ask === 'always')
    return { decision: 'ask', reasons: [{ code: 'ask-always', detail: 'every command is confirmed' }, ...matched] };
  return { decision: 'allow', reasons: matched };
}

type MatchResult = { match: Reason } | { miss: Reason };

export function matchCommand(
  command: AnalyzedCommand,
  allowlist: readonly AllowlistEntry[],
  options: EvaluateOptions,
): MatchResult {
  const name = command.name;
  const shown = name.raw;
  if (name.dynamic) return miss('dynamic-command', `the command name ${shown} is only known at run time`);
  if (name.ansiC || name.brace || name.glob || nonAscii.test(name.text) || name.text === '')
    return miss('obfuscation', `the command name ${JSON.stringify(shown)} is disguised`);
  const env = command.envNames.filter((variable) => !harmlessEnv.test(variable));
  if (env.length > 0) return miss('env-prefix', `${env.join(', ')}=… changes how ${name.text} runs`);

  const spelled = name.text.includes('/');
  if (!spelled && safeBuiltins.has(name.text) && !command.needsArgPattern)
    return { match: { code: 'safe-builtin', detail: `${name.text} is a harmless builtin` } };
  const resolved = spelled
    ? resolveSpelledPath(options.cwd, name.text, options.home)
    : options.resolver.which(name.text);
  const args = command.args.map((arg) => arg.text).join(' ');
  const argsKnown = !command.argsUnknown && !command.args.some((arg) => arg.dynamic);

  let nameMatched = false;
  for (const entry of allowlist) {
    if (!patternMatches(entry.pattern, name.text, spelled, resolved, options.home)) continue;
    // A folder rule says nothing about runs elsewhere: they ask as if it were not there.
    if (entry.cwdWithin !== undefined && !isWithin(options.cwd, entry.cwdWithin)) continue;
    nameMatched = true;
    if (entry.argPattern === undefined) {
      if (command.needsArgPattern) continue;
      return { match: { code: 'allowlisted', detail: `${name.text} matches ${entry.pattern}` } };
    }
    if (argsKnown && argPatternRegExp(entry.argPattern).test(args) && spellsOut(entry.argPattern, command))
      return {
        match: { code: 'allowlisted', detail: `${name.text} ${args} matches ${entry.pattern} /${entry.argPattern}/` },
      };
  }
  if (nameMatched && command.needsArgPattern) return miss('risky-arguments', command.needsArgPattern);
  if (nameMatched) return miss('arguments-miss', `the arguments of ${name.text} match no allowlist entry`);
  if (spelled)
    return miss(
      'path-spelled',
      `${name.text} is spelled as a path (resolves to ${resolved}); only path patterns can allow it`,
    );
  const where = resolved ? ` (${resolved})` : ' (not found on PATH)';
  return miss('allowlist-miss', `${basename(name.text)}${where} is not on the allowlist`);
}

/**
 * A risky invocation is vouched for only by an argPattern that names each risky word
 * (`-pe`, `--output=…`, `publish`): a person who wrote `^log( |$)` chose `git log`,
 * not `git log --output=~/.bashrc`. Regex escapes are ignored when comparing.
 */
function spellsOut(argPattern: string, command: AnalyzedCommand): boolean {
  if (!command.needsArgPattern || !command.riskySpellings) return true;
  const literal = argPattern.replace(/\\(.)/g, '$1');
  return command.riskySpellings.every((word) => literal.includes(word));
}

function patternMatches(
  pattern: string,
  name: string,
  spelled: boolean,
  resolved: string | undefined,
  home: string | undefined,
): boolean {
  if (!pattern.includes('/')) return !spelled && globToRegExp(pattern).test(name);
  if (!resolved) return false;
  const expanded = pattern.startsWith('~/') && home ? home + pattern.slice(1) : pattern;
  return globToRegExp(expanded).test(resolved);
}

/** `cwd` is `folder` or lies below it (both absolute; `..` resolved, no prefix tricks like `/a` vs `/ab`). */
export function isWithin(cwd: string, folder: string): boolean {
  const from = relative(resolvePath(folder), resolvePath(cwd));
  return from === '' || (!from.startsWith('..') && !isAbsolute(from));
}

function miss(code: Reason['code'], detail: string): MatchResult {
  return { miss: { code, detail } };
}
