import type { Command } from 'commander';
import type { CliContext } from '../cli-context.js';

/** `hearth trace …`. Filled in by the capability that owns it. */
export function registerTraceCommands(program: Command, context: CliContext): void {
  void program;
  void context;
}
