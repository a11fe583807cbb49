import { type Disposable, toDisposable } from '../base/disposable.js';
import type { GatewayCore } from '../gateway/gateway-core.js';

/**
 * Idle costs nothing: runs `run` once the first client is connected (the desktop window, a
 * browser, a phone), at once if one already is. Disposing before then cancels it.
 */
export function whenFirstClient(
  core: Pick<GatewayCore, 'connectionCount' | 'onDidChangeConnections'>,
  run: () => void,
): Disposable {
  if (core.connectionCount > 0) {
    run();
    return toDisposable(() => {});
  }
  const listener = core.onDidChangeConnections((count) => {
    if (count === 0) return;
    listener.dispose();
    run();
  });
  return listener;
}
