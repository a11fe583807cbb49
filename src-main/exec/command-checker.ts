import type { AnalyzeOptions, CommandAnalysis } from './analysis-types.js';
import { type BashParser, loadBashParser } from './bash-parser.js';
import { analyseCommand } from './command-analysis.js';
import type { ExecPolicy } from './exec-policy.js';
import type { PathResolver } from './path-resolver.js';
import { evaluatePolicy, type PolicyVerdict } from './policy-evaluator.js';

export interface CheckResult extends PolicyVerdict {
  analysis: CommandAnalysis;
}

export interface CommandChecker {
  check(command: string, policy: ExecPolicy, where: AnalyzeOptions): CheckResult;
}

/** Agents repeat themselves (`git status`, `npm test`): analyses are kept for this many distinct inputs. */
const defaultAnalysisCacheSize = 2000;

/**
 * Analysis + policy in one call: what `hearth exec check` and the exec tool both use.
 * The analysis depends only on the text, cwd and home, so it is cached; the policy
 * is evaluated afresh every time (it changes with "allow always").
 */
export function createCommandChecker(
  parser: BashParser,
  resolver: PathResolver,
  options: { cacheSize?: number } = {},
): CommandChecker {
  const analysisCacheSize = options.cacheSize ?? defaultAnalysisCacheSize;
  const cache = new Map<string, CommandAnalysis>();
  const analyse = (command: string, where: AnalyzeOptions): CommandAnalysis => {
    const place = [where.stdin ?? '', ...(where.sensitivePaths ?? []), '\u0001', ...(where.topLevel ?? [])].join(
      '\u0002',
    );
    const key = `${where.cwd}\u0000${where.home ?? ''}\u0000${place}\u0000${command}`;
    const cached = cache.get(key);
    if (cached) {
      // Map order is insertion order: re-inserting makes this the most recently used.
      cache.delete(key);
      cache.set(key, cached);
      return cached;
    }
    const analysis = analyseCommand(parser, command, where);
    if (analysisCacheSize === 0) return analysis;
    cache.set(key, analysis);
    if (cache.size > analysisCacheSize) {
      const oldest = cache.keys().next().value;
      if (oldest !== undefined) cache.delete(oldest);
    }
    return analysis;
  };
  return {
    check(command, policy, where) {
      const analysis = analyse(command, where);
      const verdict = evaluatePolicy(analysis, policy, { resolver, cwd: where.cwd, home: where.home });
      return { ...verdict, analysis };
    },
  };
}

export async function loadCommandChecker(resolver: PathResolver): Promise<CommandChecker> {
  return createCommandChecker(await loadBashParser(), resolver);
}
