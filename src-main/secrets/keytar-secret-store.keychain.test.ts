import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createMemoryLogger } from '../base/logger.js';
import { createHearthPaths } from '../paths/index.js';
import { createKeytarSecretStore } from './keytar-secret-store.js';
import { openSecretStore } from './open-secret-store.js';

// Talks to a real Secret Service through keytar. Run it with
//   bash scripts/with-keychain.sh npx vitest run src-main/secrets/keytar-secret-store.keychain.test.ts
// (npm run test:keychain inside that wrapper); without the wrapper there is no keychain to talk to.
const enabled = process.env.HEARTH_KEYCHAIN_TEST === '1';
if (!enabled) {
  console.info(
    'keytar-secret-store.keychain.test.ts skipped: set HEARTH_KEYCHAIN_TEST=1 (scripts/with-keychain.sh does) to test the real OS keychain',
  );
}

describe.skipIf(!enabled)('keytar secret store against a real Secret Service', () => {
  // A unique service per run, so reruns and parallel runs never see each other's items.
  const service = `hearth-test-${randomUUID()}`;

  it('stores, reads, lists and deletes secrets in the OS keychain', async () => {
    const store = createKeytarSecretStore({ service });
    await store.probe();
    expect(store.backend).toBe('keychain');
    expect(store.warning).toBeUndefined();
    expect(await store.get('openai:default')).toBeUndefined();
    await store.set('openai:default', 'sk-keychain-secret');
    await store.set('anthropic:work', 'ant-secret');
    expect(await createKeytarSecretStore({ service }).get('openai:default')).toBe('sk-keychain-secret');
    expect(await store.list()).toEqual(['anthropic:work', 'openai:default']);
    await store.set('openai:default', 'sk-rotated');
    expect(await store.get('openai:default')).toBe('sk-rotated');
    expect(await store.delete('openai:default')).toBe(true);
    expect(await store.delete('openai:default')).toBe(false);
    expect(await store.delete('anthropic:work')).toBe(true);
    expect(await store.list()).toEqual([]);
  });

  it('is what openSecretStore picks when the keychain answers', async () => {
    const home = await mkdtemp(join(tmpdir(), 'hearth-keychain-'));
    try {
      const log = createMemoryLogger();
      const { store, reason } = await openSecretStore({ paths: createHearthPaths(home), log, env: {}, service });
      expect(store.backend).toBe('keychain');
      expect(reason).toBe('Secrets are in the OS keychain.');
      await store.set('probe', 'value');
      expect(await store.get('probe')).toBe('value');
      await store.delete('probe');
    } finally {
      await rm(home, { recursive: true, force: true, maxRetries: 5, retryDelay: 50 });
    }
  });

  it('moves secrets left in the encrypted file by an earlier fallback into the real keychain', async () => {
    const home = await mkdtemp(join(tmpdir(), 'hearth-keychain-'));
    try {
      const paths = createHearthPaths(home);
      const log = createMemoryLogger();
      const fallback = await openSecretStore({ paths, log, env: { HEARTH_SECRET_STORE: 'file' }, service });
      await fallback.store.set('migrated', 'from-the-file');
      const { store, reason } = await openSecretStore({ paths, log, env: {}, service });
      expect(reason).toMatch(/1 moved there/);
      expect(await createKeytarSecretStore({ service }).get('migrated')).toBe('from-the-file');
      expect(await fallback.store.list()).toEqual([]);
      await store.delete('migrated');
    } finally {
      await rm(home, { recursive: true, force: true, maxRetries: 5, retryDelay: 50 });
    }
  });
});
