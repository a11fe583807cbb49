import type { Command } from 'commander';
import type { CliContext } from '../cli-context.js';

/** `hearth devices …`. Filled in by the capability that owns it. */
export function registerDevicesCommands(program: Command, context: CliContext): void {
  void program;
  void context;
}
