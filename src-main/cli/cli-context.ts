import type { Clock } from '../base/clock.js';
import { createHearthPaths, type HearthPaths, resolveHearthHome } from '../paths/index.js';
import type { UrlOpener } from './browser-opener.js';

/** What every command gets; built once in main.ts from the real process. */
export interface CliContext {
  env: Record<string, string | undefined>;
  clock: Clock;
  stdout(text: string): void;
  stderr(text: string): void;
  /** Reads stdin fully (for `--batch -`, piped input). */
  readStdin(): Promise<string>;
  /** The state folder: --home beats HEARTH_HOME beats ~/.hearth. */
  paths(): HearthPaths;
  setHomeOverride(home: string | undefined): void;
  /** Set by a command to make the process exit with this code once output is flushed. */
  exitCode: number;
  /** Opens a URL in the person's browser (`gateway run --open`); default: the platform's opener. */
  openUrl?: UrlOpener;
}

export function createCliContext(options: Omit<CliContext, 'paths' | 'setHomeOverride' | 'exitCode'>): CliContext {
  let homeOverride: string | undefined;
  return {
    ...options,
    exitCode: 0,
    paths: () => createHearthPaths(resolveHearthHome(options.env, homeOverride)),
    setHomeOverride(home) {
      homeOverride = home;
    },
  };
}

/** A user-facing failure: printed as one plain line, never a stack trace. */
export class CliError extends Error {
  constructor(
    message: string,
    readonly exitCode = 1,
  ) {
    super(message);
    this.name = 'CliError';
  }
}
