import type { Logger } from '../base/logger.js';

/** What a tolerant parse let through: keys dropped and limits lowered (protocol/tolerant-params.ts). */
export interface ToleranceNote {
  ignored: readonly string[];
  clamped: readonly string[];
}

export type ToleranceReporter = (where: string, note: ToleranceNote) => void;

/** Distinct notes remembered; past this a flood of made-up keys is not worth more memory. */
const MAX_REMEMBERED = 2_000;

/**
 * Logs each tolerated field once per method at debug: enough to see which client release
 * sends what, without a line per request from a UI that polls.
 */
export function createToleranceLog(log: Logger): ToleranceReporter {
  const seen = new Set<string>();
  return (where, note) => {
    const fresh = (kind: string, paths: readonly string[]) =>
      paths.filter((path) => {
        const id = `${where}\0${kind}\0${kind === 'clamped' ? path.replace(/ \(.*$/, '') : path}`;
        if (seen.has(id) || seen.size >= MAX_REMEMBERED) return false;
        seen.add(id);
        return true;
      });
    const ignored = fresh('ignored', note.ignored);
    const clamped = fresh('clamped', note.clamped);
    if (ignored.length > 0) log.debug('ignored unknown fields (logged once)', { where, fields: ignored });
    if (clamped.length > 0) log.debug('clamped limits to their maximum (logged once)', { where, limits: clamped });
  };
}
