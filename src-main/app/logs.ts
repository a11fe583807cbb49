import { open } from 'node:fs/promises';
import { join } from 'node:path';
import pino from 'pino';
import type { Logger } from '../base/index.js';
import { redactSecrets, redactValue } from '../base/secret-redaction.js';

/** The main process log, in the OS's log folder (`app.getPath('logs')`). */
export function mainLogPath(logsDir: string): string {
  return join(logsDir, 'main.log');
}

/**
 * A Logger writing JSON lines to the log file through pino. Messages and fields
 * pass the redactor first: a secret that slips into an error message still never
 * reaches the disk.
 */
export function createFileLogger(
  logFile: string,
  knownSecrets: () => readonly string[] = () => [],
): Logger & { flush(): Promise<void> } {
  const destination = pino.destination({ dest: logFile, mkdir: true, sync: false });
  // The file opens asynchronously; a flush before that would throw.
  const opened = new Promise<void>((resolve) => destination.once('ready', () => resolve()));
  const root = pino({ base: { pid: process.pid }, timestamp: pino.stdTimeFunctions.isoTime }, destination);
  const wrap = (log: pino.Logger): Logger => {
    const write =
      (level: 'debug' | 'info' | 'warn' | 'error') => (message: string, fields?: Record<string, unknown>) => {
        const secrets = knownSecrets();
        log[level]((fields ? redactValue(fields, secrets) : {}) as object, redactSecrets(message, secrets));
      };
    return {
      debug: write('debug'),
      info: write('info'),
      warn: write('warn'),
      error: write('error'),
      child: (bindings) => wrap(log.child(redactValue(bindings, knownSecrets()) as Record<string, unknown>)),
    };
  };
  const flush = async () => {
    await opened;
    await new Promise<void>((resolve, reject) => destination.flush((error) => (error ? reject(error) : resolve())));
  };
  return Object.assign(wrap(root), { flush });
}

/** The last `maxBytes` of a log file (whole lines only), or '' when there is none yet. */
export async function readLogTail(logFile: string, maxBytes = 64 * 1024): Promise<string> {
  let handle: Awaited<ReturnType<typeof open>>;
  try {
    handle = await open(logFile, 'r');
  } catch {
    return '';
  }
  try {
    const { size } = await handle.stat();
    const start = Math.max(0, size - maxBytes);
    const buffer = Buffer.alloc(size - start);
    await handle.read(buffer, 0, buffer.length, start);
    const text = buffer.toString('utf8');
    return start > 0 ? text.slice(text.indexOf('\n') + 1) : text;
  } finally {
    await handle.close();
  }
}

export interface DiagnosticsInput {
  appVersion: string;
  versions: Record<string, string | undefined>;
  platform: string;
  arch: string;
  gatewayUrl: string | undefined;
  secretBackend: string | undefined;
  logTail: string;
  knownSecrets: readonly string[];
}

/** A plain-text report a user can paste into an issue; secrets removed. */
export function formatDiagnostics(input: DiagnosticsInput): string {
  const versions = Object.entries(input.versions)
    .filter(([, v]) => v !== undefined)
    .map(([name, v]) => `${name} ${v}`)
    .join(', ');
  const text = [
    `Hearth ${input.appVersion}`,
    `Platform: ${input.platform} ${input.arch}`,
    `Runtime: ${versions}`,
    `Gateway: ${input.gatewayUrl ?? 'not running'}`,
    `Secret store: ${input.secretBackend ?? 'unknown'}`,
    '',
    '--- recent log ---',
    input.logTail.trimEnd(),
  ].join('\n');
  return redactSecrets(text, input.knownSecrets);
}

export interface LogActionsDeps {
  logFile: string;
  /** `shell.showItemInFolder`. */
  showItemInFolder(path: string): void;
  /** `clipboard.writeText`. */
  writeClipboard(text: string): void;
  diagnostics(logTail: string): string;
}

/** The "Reveal logs" / "Copy diagnostics" menu items. */
export function createLogActions(deps: LogActionsDeps) {
  return {
    revealLogs: () => deps.showItemInFolder(deps.logFile),
    copyDiagnostics: async () => {
      deps.writeClipboard(deps.diagnostics(await readLogTail(deps.logFile)));
    },
  };
}
