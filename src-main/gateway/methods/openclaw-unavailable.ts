import { type Disposable, DisposableStore } from '../../base/index.js';
import { GatewayError } from '../../protocol/index.js';
import { type OpenClawUnavailableMethod, openClawUnavailable } from '../../protocol/methods/openclaw-unavailable.js';
import type { MethodRouter } from '../method-router.js';

/**
 * Answers every method of OpenClaw's UI that Hearth has no capability for with a coded
 * UNAVAILABLE (not retryable: asking again will not help until the capability exists).
 */
export function registerOpenClawUnavailableMethods(router: MethodRouter): Disposable {
  const store = new DisposableStore();
  for (const name of Object.keys(openClawUnavailable) as OpenClawUnavailableMethod[]) {
    const { capability, reason } = openClawUnavailable[name];
    store.add(
      router.handle(name, () => {
        throw new GatewayError(
          'UNAVAILABLE',
          `${name} is not available: ${reason}`,
          { reason: 'not-in-hearth', capability },
          { retryable: false },
        );
      }),
    );
  }
  return store;
}
