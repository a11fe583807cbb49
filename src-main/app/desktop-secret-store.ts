import { join } from 'node:path';
import { type OpenedSecretStore, type OpenSecretStoreOptions, openSecretStore } from '../secrets/index.js';
import {
  createSafeStorageSecretStore,
  type SafeStorageLike,
  SafeStorageUnavailableError,
  secretStorageSettingsCopy,
} from './safe-storage-secret-store.js';

export interface DesktopSecretStoreOptions extends OpenSecretStoreOptions {
  safeStorage: SafeStorageLike;
}

export function safeStorageFilePath(identityDir: string): string {
  return join(identityDir, 'secrets.safe-storage.json');
}

/**
 * The desktop's choice of secret store: the OS keychain (keytar) first; where it
 * is unreachable, Electron safeStorage (the key stays with the OS) rather than the
 * plain encrypted file, whose key sits beside it. Secrets already in the encrypted
 * file stay there, so switching never strands a key; `HEARTH_SECRET_STORE=file`
 * and `=keychain` are honoured as the CLI honours them.
 */
export async function openDesktopSecretStore(options: DesktopSecretStoreOptions): Promise<OpenedSecretStore> {
  const opened = await openSecretStore(options);
  const mode = options.env.HEARTH_SECRET_STORE?.trim() || 'auto';
  if (opened.store.backend === 'keychain' || mode !== 'auto') return opened;
  if ((await opened.store.list()).length > 0) return opened;
  try {
    const store = createSafeStorageSecretStore(options.safeStorage, safeStorageFilePath(options.paths.identityDir));
    options.log.warn('secret store: no OS keychain; using Electron safeStorage', { backend: store.backend });
    return { store, reason: secretStorageSettingsCopy['electron-safe-storage'] };
  } catch (error) {
    if (!(error instanceof SafeStorageUnavailableError)) throw error;
    options.log.warn('secret store: safeStorage unavailable too; keeping the encrypted file', {
      reason: error.message,
    });
    return opened;
  }
}
