import type { CommandAnalysis } from './analysis-types.js';
import type { AllowlistEntry, ExecPolicy } from './exec-policy.js';
import type { PathResolver } from './path-resolver.js';
import { matchCommand } from './policy-evaluator.js';

/**
 * `binary`: any use of the binary; `exact`: these exact arguments (the "argument shape" choice);
 * `folder`: these exact arguments, and only when run in the request's folder or below it.
 */
export type AllowAlwaysScope = 'binary' | 'exact' | 'folder';

/**
 * The allowlist entries an "allow always" answer adds: one per command that
 * missed, keyed on the *resolved binary* (never a hash of the whole command line,
 * which made "always" behave like "once"). Commands whose arguments run code or
 * write files always get their exact arguments pinned.
 */
export function allowAlwaysEntries(
  analysis: CommandAnalysis,
  policy: ExecPolicy,
  where: { resolver: PathResolver; cwd: string; home?: string },
  scope: AllowAlwaysScope = 'binary',
): AllowlistEntry[] {
  const entries: AllowlistEntry[] = [];
  for (const command of analysis.commands) {
    if ('match' in matchCommand(command, policy.allowlist, where)) continue;
    // Obfuscated or run-time names cannot be pinned to a binary: nothing to add.
    if (command.name.dynamic || command.name.ansiC || command.name.brace || command.name.glob) continue;
    const name = command.name.text;
    const resolved = name.includes('/') ? undefined : where.resolver.which(name);
    const pattern = resolved ?? name;
    const pinArgs = scope !== 'binary' || command.needsArgPattern !== undefined;
    const canPin = !command.argsUnknown && !command.args.some((arg) => arg.dynamic);
    if (pinArgs && !canPin) continue;
    const entry: AllowlistEntry = {
      pattern,
      ...(pinArgs ? { argPattern: `^${escapeRegExp(command.args.map((arg) => arg.text).join(' '))}$` } : {}),
      ...(scope === 'folder' ? { cwdWithin: where.cwd } : {}),
    };
    if (
      !entries.some(
        (existing) =>
          existing.pattern === entry.pattern &&
          existing.argPattern === entry.argPattern &&
          existing.cwdWithin === entry.cwdWithin,
      )
    )
      entries.push(entry);
  }
  return entries;
}

export function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
}
