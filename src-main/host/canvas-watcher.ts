import { watch } from 'node:fs';
import type { Clock } from '../base/clock.js';
import { type Disposable, toDisposable } from '../base/disposable.js';
import type { Logger } from '../base/logger.js';
import type { EventBus } from '../gateway/event-bus.js';

/**
 * Tells clients when the agent (or the user) changed the canvas folder, so the Canvas view
 * reloads by itself. Debounced: an editor's save is several file events.
 */
export function watchCanvas(dir: string, bus: EventBus, clock: Clock, log: Logger): Disposable {
  let pending: Disposable | undefined;
  const changed = new Set<string>();
  let watcher: ReturnType<typeof watch>;
  try {
    watcher = watch(dir, { recursive: true }, (_event, name) => {
      if (name) changed.add(String(name));
      pending?.dispose();
      pending = clock.setTimeout(() => {
        bus.publish('canvas.changed', { files: [...changed].sort(), ts: clock.now() });
        changed.clear();
      }, 100);
    });
  } catch (error) {
    log.warn('cannot watch the canvas folder; the Canvas view will not reload by itself', {
      dir,
      error: String(error),
    });
    return toDisposable(() => {});
  }
  watcher.on('error', (error) => log.warn('canvas watcher stopped', { error: String(error) }));
  return toDisposable(() => {
    pending?.dispose();
    watcher.close();
  });
}
