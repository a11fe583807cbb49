import type { Command } from 'commander';
import type { CliContext } from '../cli-context.js';

/** `hearth exec …`. Filled in by the capability that owns it. */
export function registerExecCommands(program: Command, context: CliContext): void {
  void program;
  void context;
}
