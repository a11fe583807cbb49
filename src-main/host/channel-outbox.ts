import { type Disposable, toDisposable } from '../base/disposable.js';
import {
  type ChannelDeliveryTarget,
  type DeliveryOutcome,
  formatDeliveryTarget,
  parseDeliveryTarget,
} from '../protocol/index.js';

/** Sends background work's text to a channel; the channel host answers where it went or throws why not. */
export type ChannelSend = (target: ChannelDeliveryTarget, text: string) => Promise<string>;

/**
 * Where cron and the heartbeat hand a result meant for a channel. They are wired before the
 * channels (which start last, once the agent can answer them), so the channel host binds itself
 * here when it runs; until then, and after it stops, a delivery fails with a reason instead of
 * being dropped.
 */
export interface ChannelOutbox {
  /**
   * `ui` and `none` are not channel deliveries: undefined, nothing sent. Otherwise the outcome,
   * never a throw: a failed delivery is recorded with the run, it does not fail the run.
   */
  deliver(delivery: string, text: string): Promise<DeliveryOutcome | undefined>;
  bind(send: ChannelSend): Disposable;
}

export function createChannelOutbox(): ChannelOutbox {
  let send: ChannelSend | undefined;
  return {
    async deliver(delivery, text) {
      let target: ReturnType<typeof parseDeliveryTarget>;
      try {
        target = parseDeliveryTarget(delivery);
      } catch (error) {
        return { to: delivery, status: 'failed', detail: (error as Error).message };
      }
      if (target.kind === 'ui' || target.kind === 'none') return undefined;
      const to = formatDeliveryTarget(target);
      if (!send) return { to, status: 'failed', detail: 'channels are not running' };
      try {
        return { to, status: 'sent', detail: await send(target, text) };
      } catch (error) {
        return { to, status: 'failed', detail: error instanceof Error ? error.message : String(error) };
      }
    },
    bind(next) {
      send = next;
      return toDisposable(() => {
        if (send === next) send = undefined;
      });
    },
  };
}
