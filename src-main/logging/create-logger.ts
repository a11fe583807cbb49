import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import pino from 'pino';
import type { Logger } from '../base/logger.js';

/** Keys whose values are never written to a log. */
const REDACT = [
  'token',
  'password',
  'secret',
  'apiKey',
  'authorization',
  '*.token',
  '*.password',
  '*.secret',
  '*.apiKey',
  '*.authorization',
];

function wrap(logger: pino.Logger): Logger {
  return {
    debug: (message, fields) => logger.debug(fields ?? {}, message),
    info: (message, fields) => logger.info(fields ?? {}, message),
    warn: (message, fields) => logger.warn(fields ?? {}, message),
    error: (message, fields) => logger.error(fields ?? {}, message),
    child: (bindings) => wrap(logger.child(bindings)),
  };
}

/** JSON lines in `<logsDir>/<name>.log`, secrets redacted. */
export function createFileLogger(logsDir: string, name: string, level: string): Logger {
  mkdirSync(logsDir, { recursive: true, mode: 0o700 });
  const destination = pino.destination({ dest: join(logsDir, `${name}.log`), mkdir: true, sync: false });
  return wrap(pino({ level, redact: { paths: REDACT, censor: '[redacted]' } }, destination));
}
