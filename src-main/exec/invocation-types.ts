// Shared by the walker and the per-command rules, kept apart so the rules files do not import each other in a cycle.
import type { AnalyzedCommand, AnalyzeOptions, Finding } from './analysis-types.js';
import type { SyntaxNode } from './bash-parser.js';
import type { ShellWord } from './shell-words.js';

export interface WordItem {
  word: ShellWord;
  node?: SyntaxNode;
}

/** Where a command's stdin comes from, when that matters (code piped into a shell). */
export type StdinSource = { kind: 'pipe'; stages: SyntaxNode[] } | { kind: 'text'; text: string; node: SyntaxNode };

/** What the invocation rules report into (the walker). */
export interface InvocationSink {
  readonly options: AnalyzeOptions;
  readonly home: string | undefined;
  /** Static values of variables assigned earlier in the input. */
  readonly variables: ReadonlyMap<string, string>;
  addFinding(finding: Finding): void;
  addCommand(command: AnalyzedCommand): void;
  analyseSource(source: string, depth: number, via: string[]): void;
}

export interface InvocationContext {
  envNames: string[];
  via: string[];
  stdin: StdinSource | undefined;
  depth: number;
  source: string;
  /** xargs and find -exec add arguments at run time. */
  argsUnknown?: boolean;
}
