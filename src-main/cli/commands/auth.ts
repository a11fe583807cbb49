import type { Command } from 'commander';
import type { CliContext } from '../cli-context.js';

/** `hearth auth …`. Filled in by the capability that owns it. */
export function registerAuthCommands(program: Command, context: CliContext): void {
  void program;
  void context;
}
