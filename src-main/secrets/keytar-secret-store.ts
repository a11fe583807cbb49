import type { SecretStore } from './secret-store.js';

/** The part of the `keytar` module we use; tests of the fallback path pass their own. */
export interface KeytarLike {
  getPassword(service: string, account: string): Promise<string | null>;
  setPassword(service: string, account: string, password: string): Promise<void>;
  deletePassword(service: string, account: string): Promise<boolean>;
  findCredentials(service: string): Promise<{ account: string; password: string }[]>;
}

export class KeychainUnavailableError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'KeychainUnavailableError';
  }
}

/**
 * keytar is a native module linked against libsecret; importing it lazily means a
 * machine without libsecret (or with a broken build) gets a caught error, not a crash at start.
 */
export async function loadKeytar(): Promise<KeytarLike> {
  try {
    const module = (await import('keytar')) as { default?: KeytarLike } & Partial<KeytarLike>;
    const keytar = module.default ?? (module as KeytarLike);
    if (typeof keytar.getPassword !== 'function') throw new Error('the keytar module has no getPassword');
    return keytar;
  } catch (error) {
    throw new KeychainUnavailableError(
      `the OS keychain module (keytar) could not be loaded: ${error instanceof Error ? error.message : String(error)}`,
      { cause: error },
    );
  }
}

export interface KeytarSecretStoreOptions {
  /** The keychain "service" every Hearth secret is filed under, e.g. "hearth". */
  service: string;
  /** Defaults to the real keytar module, loaded on first use. */
  keytar?: KeytarLike | (() => Promise<KeytarLike>);
}

export interface KeytarSecretStore extends SecretStore {
  /** A read-only call that fails when no Secret Service / Keychain / Credential Vault answers. */
  probe(): Promise<void>;
}

function checkAccount(account: string): void {
  if (typeof account !== 'string' || account.trim() === '') throw new Error('secret account name must not be empty');
}

/** Secrets in the OS keychain (Secret Service on Linux, Keychain on macOS, Credential Vault on Windows). */
export function createKeytarSecretStore(options: KeytarSecretStoreOptions): KeytarSecretStore {
  const { service } = options;
  if (!service) throw new Error('keychain service name must not be empty');
  let loaded: Promise<KeytarLike> | undefined;
  const keytar = (): Promise<KeytarLike> => {
    const source = options.keytar;
    loaded ??= typeof source === 'function' ? source() : source ? Promise.resolve(source) : loadKeytar();
    // A failed load is not cached: libsecret may appear (or the daemon start) later.
    loaded.catch(() => {
      loaded = undefined;
    });
    return loaded;
  };
  const failed = (action: string, error: unknown): never => {
    if (error instanceof KeychainUnavailableError) throw error;
    throw new KeychainUnavailableError(
      `the OS keychain refused to ${action}: ${error instanceof Error ? error.message : String(error)}`,
      { cause: error },
    );
  };

  return {
    backend: 'keychain',
    async probe() {
      try {
        await (await keytar()).findCredentials(service);
      } catch (error) {
        failed('answer', error);
      }
    },
    async get(account) {
      checkAccount(account);
      try {
        return (await (await keytar()).getPassword(service, account)) ?? undefined;
      } catch (error) {
        return failed(`read secret "${account}"`, error);
      }
    },
    async set(account, secret) {
      checkAccount(account);
      if (typeof secret !== 'string') throw new Error(`secret for "${account}" must be a string`);
      try {
        await (await keytar()).setPassword(service, account, secret);
      } catch (error) {
        failed(`store secret "${account}"`, error);
      }
    },
    async delete(account) {
      checkAccount(account);
      try {
        return await (await keytar()).deletePassword(service, account);
      } catch (error) {
        return failed(`delete secret "${account}"`, error);
      }
    },
    async list() {
      try {
        return (await (await keytar()).findCredentials(service)).map((credential) => credential.account).sort();
      } catch (error) {
        return failed('list secrets', error);
      }
    },
  };
}
