import type { Command } from 'commander';
import type { CliContext } from '../cli-context.js';

/** `hearth approvals …`. Filled in by the capability that owns it. */
export function registerApprovalsCommands(program: Command, context: CliContext): void {
  void program;
  void context;
}
