import type { Command } from 'commander';
import type { CliContext } from '../cli-context.js';

/** `hearth memory …`. Filled in by the capability that owns it. */
export function registerMemoryCommands(program: Command, context: CliContext): void {
  void program;
  void context;
}
