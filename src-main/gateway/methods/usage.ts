import type { Disposable } from '../../base/disposable.js';
import { DisposableStore } from '../../base/disposable.js';
import type { UsageService } from '../../usage/index.js';
import type { MethodRouter } from '../method-router.js';

/** `usage.*`: what model calls cost and the caps on them (docs/USAGE.md). */
export function registerUsageMethods(router: MethodRouter, usage: UsageService): Disposable {
  const store = new DisposableStore();
  store.add(router.handle('usage.summary', (params) => usage.summary(params)));
  store.add(router.handle('usage.limits.get', () => usage.limits()));
  store.add(router.handle('usage.limits.set', (params) => usage.setLimit(params)));
  return store;
}
