import type { AnalyzeOptions, Finding } from './analysis-types.js';
import type { BashParser } from './bash-parser.js';
import { analyseCommand } from './command-analysis.js';

/** Where commands are judged, besides their cwd: the user's home, the root's entries, secret paths. */
export type ScreenPlace = Omit<AnalyzeOptions, 'cwd' | 'stdin'>;

/**
 * The checks no path may skip, as one function of the command text: the hard floor
 * (`deny`) and what only a person may allow (`person`). The approval service and the
 * terminal manager run it themselves on every command they are handed, so a new
 * entry point (cron, a channel, MCP) cannot forget it.
 */
export function createCommandScreen(
  parser: BashParser,
  place: ScreenPlace,
): (command: string, cwd: string, stdin?: string) => Finding[] {
  return (command, cwd, stdin) =>
    analyseCommand(parser, command, { ...place, cwd, ...(stdin === undefined ? {} : { stdin }) }).findings.filter(
      (finding) => finding.severity !== 'miss',
    );
}
