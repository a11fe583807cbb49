import { silentLogger } from '../base/logger.js';
import { createHearthPaths } from '../paths/index.js';
import { openSecretStore } from '../secrets/index.js';

/**
 * Stores secrets in a test home's encrypted-file secret store (what `hearth channels token` or
 * `hearth auth set` do), typically in a product fixture's `before`, so the host finds them at start.
 */
export async function storeTestSecrets(home: string, secrets: Record<string, string>): Promise<void> {
  const { store } = await openSecretStore({
    paths: createHearthPaths(home),
    log: silentLogger,
    env: { HEARTH_SECRET_STORE: 'file' },
  });
  for (const [account, value] of Object.entries(secrets)) await store.set(account, value);
}
