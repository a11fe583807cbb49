import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createMemoryLogger } from '../base/index.js';
import type { KeytarLike } from '../secrets/index.js';
import { openDesktopSecretStore } from './desktop-secret-store.js';
import type { SafeStorageLike } from './safe-storage-secret-store.js';

// Keytar is the edge: without a Secret Service it rejects exactly like this.
const noKeychain: KeytarLike = {
  getPassword: async () => {
    throw new Error('Cannot autolaunch D-Bus without X11 $DISPLAY');
  },
  setPassword: async () => {
    throw new Error('Cannot autolaunch D-Bus without X11 $DISPLAY');
  },
  deletePassword: async () => {
    throw new Error('Cannot autolaunch D-Bus without X11 $DISPLAY');
  },
  findCredentials: async () => {
    throw new Error('Cannot autolaunch D-Bus without X11 $DISPLAY');
  },
};

// safeStorage's OS-held key, reduced to a reversible transform for these tests.
const safeStorage = (available: boolean): SafeStorageLike => ({
  isEncryptionAvailable: () => available,
  encryptString: (plain) => Buffer.from(plain, 'utf8').reverse(),
  decryptString: (blob) => Buffer.from(blob).reverse().toString('utf8'),
});

let home: string;
beforeEach(async () => {
  home = await mkdtemp(join(tmpdir(), 'hearth-desktop-secrets-'));
});
afterEach(async () => {
  await rm(home, { recursive: true, force: true, maxRetries: 5, retryDelay: 50 });
});

const options = (available: boolean, env: Record<string, string> = {}) => ({
  paths: { identityDir: join(home, 'identity'), stateDir: join(home, 'state') },
  log: createMemoryLogger(),
  env,
  keytar: noKeychain,
  probeTimeoutMs: 2000,
  safeStorage: safeStorage(available),
});

describe('desktop secret store choice', () => {
  it('uses safeStorage when the keychain is unreachable, and says so', async () => {
    const { store, reason } = await openDesktopSecretStore(options(true));
    expect(store.backend).toBe('electron-safe-storage');
    expect(reason).toMatch(/keychain could not be reached/);
    await store.set('openai', 'sk-x');
    expect(await store.get('openai')).toBe('sk-x');
  });

  it('keeps the encrypted file when safeStorage cannot protect secrets either', async () => {
    const { store } = await openDesktopSecretStore(options(false));
    expect(store.backend).toBe('encrypted-file');
  });

  it('keeps secrets where they already are', async () => {
    const first = await openDesktopSecretStore(options(false));
    await first.store.set('openai', 'sk-x');
    const second = await openDesktopSecretStore(options(true));
    expect(second.store.backend).toBe('encrypted-file');
    expect(await second.store.get('openai')).toBe('sk-x');
  });

  it('honours HEARTH_SECRET_STORE=file', async () => {
    const { store } = await openDesktopSecretStore(options(true, { HEARTH_SECRET_STORE: 'file' }));
    expect(store.backend).toBe('encrypted-file');
  });
});
