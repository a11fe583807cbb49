import { type Disposable, type Logger, toDisposable } from '../base/index.js';

/** The part of Electron's powerMonitor the shell listens to. */
export interface PowerMonitorLike {
  on(event: 'resume', listener: () => void): unknown;
  removeListener(event: 'resume', listener: () => void): unknown;
}

/**
 * On resume from sleep the host looks for scheduled runs it missed. Its timers count only time
 * awake (they run on the monotonic clock), so without this an 8:00 job missed by a laptop that
 * slept from 7:00 to 9:00 would wait for its timer or the scheduler's hourly look.
 */
export function wakeOnResume(powerMonitor: PowerMonitorLike, wake: () => void, logger: Logger): Disposable {
  const listener = () => {
    logger.info('resumed from sleep; looking for missed scheduled runs');
    try {
      wake();
    } catch (error) {
      logger.warn('could not look for missed runs after sleep', { error: String(error) });
    }
  };
  powerMonitor.on('resume', listener);
  return toDisposable(() => powerMonitor.removeListener('resume', listener));
}
