import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import pino from 'pino';
import type { Logger } from '../base/logger.js';
import { redactSecrets, redactValue } from '../base/secret-redaction.js';

function wrap(logger: pino.Logger, knownSecrets: () => readonly string[]): Logger {
  // Messages and fields both pass the catalogue: a key inside an error message or a
  // request URL is caught as surely as one under a field named `token`.
  const write = (level: 'debug' | 'info' | 'warn' | 'error') => (message: string, fields?: Record<string, unknown>) => {
    if (!logger.isLevelEnabled(level)) return;
    const secrets = knownSecrets();
    logger[level]((fields ? redactValue(fields, secrets) : {}) as object, redactSecrets(message, secrets));
  };
  return {
    debug: write('debug'),
    info: write('info'),
    warn: write('warn'),
    error: write('error'),
    child: (bindings) =>
      wrap(logger.child(redactValue(bindings, knownSecrets()) as Record<string, unknown>), knownSecrets),
  };
}

/**
 * JSON lines in `<logsDir>/<name>.log`, secrets redacted by the one catalogue
 * (src-main/base/secret-redaction.ts). `knownSecrets` are replaced by value wherever they
 * appear (the gateway token: random, so no shape finds it).
 */
export function createFileLogger(
  logsDir: string,
  name: string,
  level: string,
  knownSecrets: () => readonly string[] = () => [],
): Logger {
  mkdirSync(logsDir, { recursive: true, mode: 0o700 });
  const destination = pino.destination({ dest: join(logsDir, `${name}.log`), mkdir: true, sync: false });
  return wrap(pino({ level }, destination), knownSecrets);
}
