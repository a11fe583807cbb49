import type { Disposable } from '../../base/disposable.js';
import { DisposableStore } from '../../base/disposable.js';
import type { ImportService } from '../../import/index.js';
import { invalidRequest } from '../../protocol/index.js';
import type { MethodRouter } from '../method-router.js';

/**
 * import.*: the onboarding view's "Import from OpenClaw / Hermes". A folder that is not there or
 * not that tool's is the caller's problem to hear about (invalid request), not a server error.
 */
export function registerImportMethods(router: MethodRouter, service: ImportService): Disposable {
  const store = new DisposableStore();
  const asRequestError = async <T>(run: () => Promise<T>): Promise<T> => {
    try {
      return await run();
    } catch (error) {
      if (error instanceof Error && /does not look like/.test(error.message)) throw invalidRequest(error.message);
      throw error;
    }
  };
  store.add(router.handle('import.detect', async () => ({ sources: await service.detect() })));
  store.add(
    router.handle('import.plan', ({ source }) => asRequestError(async () => ({ report: await service.plan(source) }))),
  );
  store.add(
    router.handle('import.apply', ({ source }) =>
      asRequestError(async () => ({ report: await service.apply(source) })),
    ),
  );
  return store;
}
