/** Structured logging comes in as a parameter; the Node side backs it with pino. Never log secrets. */
export interface Logger {
  debug(message: string, fields?: Record<string, unknown>): void;
  info(message: string, fields?: Record<string, unknown>): void;
  warn(message: string, fields?: Record<string, unknown>): void;
  error(message: string, fields?: Record<string, unknown>): void;
  child(bindings: Record<string, unknown>): Logger;
}

/** A logger that drops everything; for tests that do not look at logs. */
export const silentLogger: Logger = {
  debug() {},
  info() {},
  warn() {},
  error() {},
  child() {
    return silentLogger;
  },
};

/** Collects entries in memory so tests can assert on what was logged. */
export function createMemoryLogger(): Logger & {
  entries: { level: string; message: string; fields?: Record<string, unknown> }[];
} {
  const entries: { level: string; message: string; fields?: Record<string, unknown> }[] = [];
  const make = (bindings: Record<string, unknown>): Logger => ({
    debug: (message, fields) => entries.push({ level: 'debug', message, fields: { ...bindings, ...fields } }),
    info: (message, fields) => entries.push({ level: 'info', message, fields: { ...bindings, ...fields } }),
    warn: (message, fields) => entries.push({ level: 'warn', message, fields: { ...bindings, ...fields } }),
    error: (message, fields) => entries.push({ level: 'error', message, fields: { ...bindings, ...fields } }),
    child: (more) => make({ ...bindings, ...more }),
  });
  return Object.assign(make({}), { entries });
}
