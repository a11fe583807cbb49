import { join } from 'node:path';
import { type Clock, systemClock } from '../base/clock.js';
import type { Logger } from '../base/logger.js';
import type { HearthPaths } from '../paths/index.js';
import { createEncryptedFileSecretStore } from './encrypted-file-secret-store.js';
import { type KeySource, keyFileKeySource, passphraseKeySource } from './key-source.js';
import { createKeytarSecretStore, type KeytarLike } from './keytar-secret-store.js';
import { migrateFileSecrets } from './migrate-secrets.js';
import type { SecretStore } from './secret-store.js';

export interface OpenSecretStoreOptions {
  paths: Pick<HearthPaths, 'identityDir' | 'stateDir'>;
  log: Logger;
  /**
   * `HEARTH_SECRET_STORE` = auto (default) | keychain (fail if none) | file;
   * `HEARTH_SECRETS_PASSPHRASE` derives the file key from a passphrase instead of a key file.
   */
  env: Record<string, string | undefined>;
  /** Keychain service name; "hearth" unless tests keep theirs apart. */
  service?: string;
  keytar?: KeytarLike | (() => Promise<KeytarLike>);
  clock?: Pick<Clock, 'setTimeout'>;
  /** A Secret Service that never answers counts as none. */
  probeTimeoutMs?: number;
}

export interface OpenedSecretStore {
  store: SecretStore;
  /** One sentence for `hearth doctor`, status and Settings: which backend and why. */
  reason: string;
}

export const secretFilePaths = (paths: Pick<HearthPaths, 'identityDir' | 'stateDir'>) => ({
  file: join(paths.stateDir, 'secrets.enc.json'),
  keyFile: join(paths.identityDir, 'secrets.key'),
});

const modes = ['auto', 'keychain', 'file'] as const;
type Mode = (typeof modes)[number];

function fileKeySource(env: Record<string, string | undefined>, keyFile: string): KeySource {
  const passphrase = env.HEARTH_SECRETS_PASSPHRASE;
  return passphrase ? passphraseKeySource({ passphrase }) : keyFileKeySource({ path: keyFile });
}

function withTimeout<T>(promise: Promise<T>, ms: number, clock: Pick<Clock, 'setTimeout'>): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = clock.setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
    promise.then(
      (value) => {
        timer.dispose();
        resolve(value);
      },
      (error: unknown) => {
        timer.dispose();
        reject(error);
      },
    );
  });
}

/**
 * Picks where secrets live: the OS keychain when a probe call succeeds, otherwise
 * the encrypted file, announced in the log and through the store's `warning` (and
 * never plaintext). The returned `reason` is what the user is told.
 */
export async function openSecretStore(options: OpenSecretStoreOptions): Promise<OpenedSecretStore> {
  const { log, env } = options;
  const mode = (env.HEARTH_SECRET_STORE?.trim() || 'auto') as Mode;
  if (!modes.includes(mode)) {
    throw new Error(
      `HEARTH_SECRET_STORE must be one of ${modes.join(', ')} (got ${JSON.stringify(env.HEARTH_SECRET_STORE)})`,
    );
  }
  const { file, keyFile } = secretFilePaths(options.paths);

  let fallbackReason = 'HEARTH_SECRET_STORE=file was set';
  if (mode !== 'file') {
    const keychain = createKeytarSecretStore({ service: options.service ?? 'hearth', keytar: options.keytar });
    try {
      await withTimeout(keychain.probe(), options.probeTimeoutMs ?? 5000, options.clock ?? systemClock);
      log.info('secret store: OS keychain', { backend: keychain.backend });
      const { moved } = await migrateFileSecrets({
        from: createEncryptedFileSecretStore({ path: file, keySource: fileKeySource(env, keyFile) }),
        fromPath: file,
        to: keychain,
        log,
      });
      const reason =
        moved.length > 0
          ? `Secrets are in the OS keychain (${moved.length} moved there from the encrypted file).`
          : 'Secrets are in the OS keychain.';
      return { store: keychain, reason };
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      if (mode === 'keychain') {
        throw new Error(`HEARTH_SECRET_STORE=keychain but the OS keychain is not available: ${message}`);
      }
      fallbackReason = message;
    }
  }

  const keySource = fileKeySource(env, keyFile);
  const store = createEncryptedFileSecretStore({ path: file, keySource, reason: fallbackReason });
  log.warn('secret store: no OS keychain; using the encrypted secret file', {
    backend: store.backend,
    file,
    key: keySource.description,
    reason: fallbackReason,
  });
  return { store, reason: `${store.warning} (file ${file}, key from ${keySource.description}).` };
}
