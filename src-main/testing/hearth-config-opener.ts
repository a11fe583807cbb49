import { systemClock } from '../base/clock.js';
import { silentLogger } from '../base/logger.js';
import { openHearthConfig } from '../host/hearth-config.js';

/**
 * hearth.json opened as the CLI opens it (every capability's section, not watched), for tests of
 * modules below the host that take the opener as a dependency (import/offline-targets.ts).
 */
export function openTestHearthConfig(path: string) {
  return openHearthConfig({ path, clock: systemClock, log: silentLogger, watch: false });
}
