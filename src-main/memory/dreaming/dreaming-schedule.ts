import { Cron } from 'croner';
import { type Disposable, toDisposable } from '../../base/disposable.js';

/**
 * Opt-in nightly Dreaming (default 03:00 local). The run itself is injected; a failed or
 * refused run (lock held) is reported and the schedule carries on.
 */
export function scheduleDreaming(options: {
  enabled: boolean;
  cron: string;
  run(): Promise<unknown>;
  onError?(error: unknown): void;
  timezone?: string;
}): Disposable {
  if (!options.enabled) return toDisposable(() => {});
  let job: Cron;
  try {
    job = new Cron(options.cron, { timezone: options.timezone, protect: true }, async () => {
      try {
        await options.run();
      } catch (error) {
        options.onError?.(error);
      }
    });
  } catch (error) {
    throw new Error(
      `invalid memory.dreaming.cron "${options.cron}": ${error instanceof Error ? error.message : String(error)}`,
    );
  }
  return toDisposable(() => job.stop());
}

/** When the schedule fires next (for dreams.status / the UI). */
export function nextDreamingRun(cron: string, from: Date): Date | undefined {
  return new Cron(cron, { paused: true }).nextRun(from) ?? undefined;
}
