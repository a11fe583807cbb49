import type { ApprovalReason } from '../protocol/index.js';
import type { ShellWord } from './shell-words.js';

/**
 * Why a command was denied or missed; `code` is one of the protocol's approval reason codes (each
 * surface translates it), `detail` is English for the log and the tooltip.
 */
export type Reason = ApprovalReason;

/**
 * `deny`: the hard floor, no policy overrides it. `person`: only a person may let it
 * run (asked even under `security: full`; no judge, fallback or "allow always" can
 * answer it): the floor cannot tell (`floor-unknown`) or a secret would be read
 * (`sensitive-read`). `miss`: never earns "allow" on its own.
 */
export interface Finding extends Reason {
  severity: 'deny' | 'person' | 'miss';
}

/** One program the input would start, after wrappers (sudo, env, nohup…) are peeled off. */
export interface AnalyzedCommand {
  name: ShellWord;
  args: ShellWord[];
  /** `VAR=value` prefixes (and `env VAR=value`) in front of it. */
  envNames: string[];
  /** Wrappers it runs under, outermost first (`sudo`, `timeout`…). */
  via: string[];
  /**
   * Set when the arguments run code or write files (inline interpreter code, `sed -i`,
   * `git -c core.pager=`…): a bare allowlist entry does not cover it, only an entry
   * whose argPattern matches these exact arguments.
   */
  needsArgPattern?: string;
  /**
   * The words that carry those risks, as typed (`-pe`, `--require=x`, `publish`). An
   * argPattern vouches for the risk only if it spells each of them out, so an entry
   * written for `^log( |$)` does not cover `git log --output=~/.bashrc`.
   */
  riskySpellings?: string[];
  /** The arguments come from elsewhere (xargs, find -exec {}), so no argPattern can vouch for them. */
  argsUnknown?: boolean;
  /** The source text of the command as written. */
  source: string;
}

export interface CommandAnalysis {
  source: string;
  commands: AnalyzedCommand[];
  findings: Finding[];
  /** The parser could not make sense of (part of) the input: unknown, so never allowed. */
  parseError: boolean;
}

/** What the analysis needs to know about the world (injected; nothing read from the process). */
export interface AnalyzeOptions {
  /** Where the command will run: write redirects inside it are fine. */
  cwd: string;
  /** The user's home, so `/home/me` is recognised as `~`. */
  home?: string;
  /** Text the command reads on stdin (keys typed into a PTY run): a shell reading it runs it. */
  stdin?: string;
  /** Entries of the machine's root folder, so globs like `/???` are judged against what exists. */
  topLevel?: readonly string[];
  /** Absolute paths whose contents only a person may let a command read (the gateway's identity folder…). */
  sensitivePaths?: readonly string[];
}

/** The plain, JSON-safe summary carried in approval events and `exec check --json`. */
export interface AnalysisSummary {
  commands: { name: string; args: string[]; via: string[]; source: string }[];
  findings: Finding[];
  parseError: boolean;
}

export function summariseAnalysis(analysis: CommandAnalysis): AnalysisSummary {
  return {
    commands: analysis.commands.map((command) => ({
      name: command.name.text,
      args: command.args.map((arg) => arg.text),
      via: command.via,
      source: command.source,
    })),
    findings: analysis.findings,
    parseError: analysis.parseError,
  };
}
