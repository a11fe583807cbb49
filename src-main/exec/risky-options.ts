import type { ProgramContext, RiskKind } from './programs/program-knowledge.js';
import { assessProgram } from './programs/program-table.js';
import type { ShellWord } from './shell-words.js';

/** What one invocation does beyond what a bare allowlist entry vouches for. */
export interface RiskyUse {
  /** For the person and the smart judge: each option or subcommand and what it does. */
  reason: string;
  /** The words that carry the risks: an argPattern entry must spell them out to vouch for them. */
  spelled: string[];
}

const kindLabel: Record<RiskKind, string> = {
  'runs-code': 'runs code',
  'writes-outside': 'writes outside the workspace',
  'writes-files': 'changes files',
  network: 'network',
  publishes: 'publishes',
};

/** At most this many risks are spelled out in one reason; the rest are counted. */
const shownRisks = 4;

/**
 * Options and subcommands of allowlisted programs that run other code, write
 * outside the workspace, open the network or publish (programs/*.ts). A bare
 * allowlist entry trusts a program to do its everyday work; these need an entry
 * whose argPattern matches the exact arguments.
 */
export function riskyUse(base: string, args: readonly ShellWord[], context: ProgramContext): RiskyUse | undefined {
  const risks = assessProgram(base, args, context);
  if (risks.length === 0) return undefined;
  const lines = risks
    .slice(0, shownRisks)
    .map(
      (found) => `${[found.within ?? base, ...found.spelled].join(' ')}: ${found.detail} (${kindLabel[found.kind]})`,
    );
  if (risks.length > shownRisks) lines.push(`and ${risks.length - shownRisks} more`);
  return { reason: lines.join('; '), spelled: [...new Set(risks.flatMap((found) => found.spelled))] };
}
