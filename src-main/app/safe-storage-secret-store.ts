import { readFile } from 'node:fs/promises';
import { writeFileAtomic } from '../fs/atomic-write.js';
import type { SecretStore } from '../secrets/index.js';

/** The parts of Electron's `safeStorage` used. */
export interface SafeStorageLike {
  isEncryptionAvailable(): boolean;
  encryptString(plainText: string): Buffer;
  decryptString(encrypted: Buffer): string;
  /** Linux only: which keyring protects the key. */
  getSelectedStorageBackend?(): string;
}

export const SAFE_STORAGE_BACKEND = 'electron-safe-storage';

/**
 * What Settings shows about where secrets live. The UI picks the line for the
 * store's `backend` and shows `warning` when the store has one.
 */
export const secretStorageSettingsCopy = {
  keychain: 'API keys and tokens are kept in your system keychain.',
  [SAFE_STORAGE_BACKEND]:
    'Your system keychain could not be reached, so Hearth encrypts API keys and tokens with the key your operating ' +
    'system keeps for this app (Electron safeStorage) and stores the encrypted data in a file only you can read. ' +
    'They never touch disk in plain text. Install or unlock a keychain (e.g. GNOME Keyring) to move them there.',
  'encrypted-file':
    'No system keychain is available, so Hearth keeps API keys and tokens in an encrypted file protected by a key ' +
    'in your Hearth folder. Anyone who can read your Hearth folder can decrypt them: prefer a system keychain.',
} as const;

export class SafeStorageUnavailableError extends Error {
  constructor(reason: string) {
    super(`Electron safeStorage cannot protect secrets here: ${reason}`);
    this.name = 'SafeStorageUnavailableError';
  }
}

interface FileShape {
  version: 1;
  entries: Record<string, string>;
}

/**
 * A SecretStore for when keytar is unavailable: each secret is encrypted by
 * safeStorage (DPAPI, Keychain-held key, or libsecret/kwallet key on Linux) and the
 * ciphertexts are kept in one 0600 JSON file, written atomically. On Linux with
 * only the "basic_text" backend safeStorage uses a hard-coded key, which is not
 * protection, so this refuses and the caller moves on to the next fallback.
 */
export function createSafeStorageSecretStore(safeStorage: SafeStorageLike, filePath: string): SecretStore {
  if (!safeStorage.isEncryptionAvailable()) throw new SafeStorageUnavailableError('encryption is not available');
  const backend = safeStorage.getSelectedStorageBackend?.();
  if (backend === 'basic_text') {
    throw new SafeStorageUnavailableError('no keyring is running (backend is basic_text, a hard-coded key)');
  }

  // Serialise read-modify-write so two quick `set`s do not lose one another.
  let queue: Promise<unknown> = Promise.resolve();
  const serial = <T>(work: () => Promise<T>): Promise<T> => {
    const next = queue.then(work, work);
    queue = next.catch(() => {});
    return next;
  };

  const load = async (): Promise<FileShape> => {
    let text: string;
    try {
      text = await readFile(filePath, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { version: 1, entries: {} };
      throw error;
    }
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      throw new Error(`secret file ${filePath} is not valid JSON`);
    }
    const shape = parsed as Partial<FileShape>;
    if (shape?.version !== 1 || typeof shape.entries !== 'object' || shape.entries === null) {
      throw new Error(`secret file ${filePath} has an unknown format`);
    }
    return shape as FileShape;
  };
  const save = (data: FileShape) => writeFileAtomic(filePath, `${JSON.stringify(data, null, 2)}\n`, 0o600);

  return {
    backend: SAFE_STORAGE_BACKEND,
    warning: secretStorageSettingsCopy[SAFE_STORAGE_BACKEND],
    get: (account) =>
      serial(async () => {
        checkAccount(account);
        const blob = (await load()).entries[account];
        if (blob === undefined) return undefined;
        try {
          return safeStorage.decryptString(Buffer.from(blob, 'base64'));
        } catch (error) {
          throw new Error(`could not decrypt the secret "${account}" (was it stored by another user or machine?)`, {
            cause: error,
          });
        }
      }),
    set: (account, secret) =>
      serial(async () => {
        checkAccount(account);
        if (typeof secret !== 'string' || secret.length === 0) {
          throw new TypeError(`secret for "${account}" must be a non-empty string`);
        }
        const data = await load();
        data.entries[account] = safeStorage.encryptString(secret).toString('base64');
        await save(data);
      }),
    delete: (account) =>
      serial(async () => {
        checkAccount(account);
        const data = await load();
        if (!(account in data.entries)) return false;
        delete data.entries[account];
        await save(data);
        return true;
      }),
    list: () => serial(async () => Object.keys((await load()).entries).sort()),
  };
}

function checkAccount(account: string): void {
  if (typeof account !== 'string' || account.length === 0 || account.length > 256) {
    throw new TypeError(`account must be a string of 1–256 characters, got ${JSON.stringify(account)}`);
  }
  if (account === '__proto__' || account === 'constructor' || account === 'prototype') {
    throw new TypeError(`account name "${account}" is reserved`);
  }
}
