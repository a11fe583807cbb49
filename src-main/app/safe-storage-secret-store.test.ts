import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  createSafeStorageSecretStore,
  SAFE_STORAGE_BACKEND,
  type SafeStorageLike,
  SafeStorageUnavailableError,
} from './safe-storage-secret-store.js';

/** Real AES-GCM under a per-test key, standing in for the OS-held key safeStorage uses. */
function fakeSafeStorage(options: { available?: boolean; backend?: string } = {}): SafeStorageLike {
  const key = randomBytes(32);
  return {
    isEncryptionAvailable: () => options.available ?? true,
    getSelectedStorageBackend: () => options.backend ?? 'gnome_libsecret',
    encryptString(plain) {
      const iv = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', key, iv);
      const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
      return Buffer.concat([iv, cipher.getAuthTag(), body]);
    },
    decryptString(blob) {
      const decipher = createDecipheriv('aes-256-gcm', key, blob.subarray(0, 12));
      decipher.setAuthTag(blob.subarray(12, 28));
      return Buffer.concat([decipher.update(blob.subarray(28)), decipher.final()]).toString('utf8');
    },
  };
}

let dir: string;
let file: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'hearth-safe-storage-'));
  file = join(dir, 'identity', 'secrets.safe-storage.json');
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true, maxRetries: 5, retryDelay: 50 });
});

describe('safeStorage secret store', () => {
  it('stores, lists, reads and deletes secrets, announcing itself as a fallback', async () => {
    const store = createSafeStorageSecretStore(fakeSafeStorage(), file);
    expect(store.backend).toBe(SAFE_STORAGE_BACKEND);
    expect(store.warning).toMatch(/keychain could not be reached/);
    await Promise.all([store.set('openai', 'sk-one'), store.set('anthropic', 'sk-two')]);
    expect(await store.list()).toEqual(['anthropic', 'openai']);
    expect(await store.get('openai')).toBe('sk-one');
    expect(await store.get('missing')).toBeUndefined();
    expect(await store.delete('openai')).toBe(true);
    expect(await store.delete('openai')).toBe(false);
    expect(await store.list()).toEqual(['anthropic']);
  });

  it('never writes a secret in plain text, and keeps the file private (0600)', async () => {
    const store = createSafeStorageSecretStore(fakeSafeStorage(), file);
    await store.set('telegram', 'plain-secret-value');
    expect(await readFile(file, 'utf8')).not.toContain('plain-secret-value');
    expect((await stat(file)).mode & 0o777).toBe(0o600);
  });

  it('cannot read secrets encrypted under another key', async () => {
    await createSafeStorageSecretStore(fakeSafeStorage(), file).set('openai', 'sk-one');
    await expect(createSafeStorageSecretStore(fakeSafeStorage(), file).get('openai')).rejects.toThrow(
      /could not decrypt the secret "openai"/,
    );
  });

  it('refuses to run where safeStorage gives no real protection', () => {
    expect(() => createSafeStorageSecretStore(fakeSafeStorage({ available: false }), file)).toThrow(
      SafeStorageUnavailableError,
    );
    expect(() => createSafeStorageSecretStore(fakeSafeStorage({ backend: 'basic_text' }), file)).toThrow(
      /no keyring is running/,
    );
  });

  it('rejects bad account names and empty secrets with a clear error', async () => {
    const store = createSafeStorageSecretStore(fakeSafeStorage(), file);
    await expect(store.set('', 'x')).rejects.toThrow(/account must be a string of 1–256 characters/);
    await expect(store.set('__proto__', 'x')).rejects.toThrow(/reserved/);
    await expect(store.set('openai', '')).rejects.toThrow(/must be a non-empty string/);
  });

  it('names the file when it is damaged', async () => {
    const { writeFile, mkdir } = await import('node:fs/promises');
    await mkdir(join(dir, 'identity'), { recursive: true });
    await writeFile(file, '{not json');
    await expect(createSafeStorageSecretStore(fakeSafeStorage(), file).list()).rejects.toThrow(
      /secrets.safe-storage.json is not valid JSON/,
    );
    await writeFile(file, '{"version":9}');
    await expect(createSafeStorageSecretStore(fakeSafeStorage(), file).list()).rejects.toThrow(/unknown format/);
  });
});
