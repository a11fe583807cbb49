// The differential oracle: generated commands, analysed and run for real, every disagreement reported.
import { readdirSync } from 'node:fs';
import fc from 'fast-check';
import type { BashParser } from '../bash-parser.js';
import { analyseCommand } from '../command-analysis.js';
import { commandLine } from './command-grammar.js';
import { compareRun, type Disagreement } from './compare-runs.js';
import { type RecordingSandbox, sandboxHome, sandboxWork } from './recording-sandbox.js';

export interface DifferentialOptions {
  parser: BashParser;
  sandbox: RecordingSandbox;
  seed: number;
  runs: number;
  /** Commands run side by side (each in its own sandbox). */
  concurrency?: number;
  onProgress?(done: number, total: number): void;
}

export interface DifferentialReport {
  commands: number;
  disagreements: Disagreement[];
  timedOut: string[];
}

/** Entries the recording sandbox seeds its home with (see recording-sandbox.ts). */
const seededHome = ['work', 'Documents', 'Downloads', 'Pictures', 'projects', 'todo.txt', '.ssh', '.bashrc'];

export async function runDifferential(options: DifferentialOptions): Promise<DifferentialReport> {
  const commands = [...new Set(fc.sample(commandLine, { seed: options.seed, numRuns: options.runs }))];
  return checkCommands(commands, options);
}

/** Analyses and runs each command; also used with fixed lists (regressions found by the fuzzer). */
export async function checkCommands(
  commands: string[],
  options: Omit<DifferentialOptions, 'seed' | 'runs'>,
): Promise<DifferentialReport> {
  const report: DifferentialReport = { commands: commands.length, disagreements: [], timedOut: [] };
  // The analyser is told the root's entries, as the composition root does.
  const topLevel = readdirSync('/');
  let next = 0;
  let done = 0;
  const worker = async () => {
    for (let index = next++; index < commands.length; index = next++) {
      const command = commands[index] ?? '';
      const analysis = analyseCommand(options.parser, command, { cwd: sandboxWork, home: sandboxHome, topLevel });
      const run = await options.sandbox.run(command);
      if (run.timedOut) report.timedOut.push(command);
      report.disagreements.push(
        ...compareRun(command, analysis, run, {
          home: sandboxHome,
          work: sandboxWork,
          homeEntries: seededHome,
          topLevel,
        }),
      );
      options.onProgress?.(++done, commands.length);
    }
  };
  await Promise.all(Array.from({ length: options.concurrency ?? 2 }, worker));
  return report;
}
