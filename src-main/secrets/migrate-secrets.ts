import { access } from 'node:fs/promises';
import type { Logger } from '../base/logger.js';
import type { SecretStore } from './secret-store.js';

/**
 * When the keychain comes back (the user installed gnome-keyring, or logged into a
 * desktop session), secrets saved in the encrypted file during a fallback move into
 * it, so no credential is stranded in the weaker store. Each secret is written to
 * the keychain and read back before it leaves the file; a file that cannot be
 * decrypted is left alone and reported.
 */
export async function migrateFileSecrets(options: {
  from: SecretStore;
  fromPath: string;
  to: SecretStore;
  log: Logger;
}): Promise<{ moved: string[]; error?: string }> {
  const { from, to, log } = options;
  try {
    await access(options.fromPath);
  } catch {
    return { moved: [] };
  }
  const moved: string[] = [];
  try {
    for (const account of await from.list()) {
      const secret = await from.get(account);
      if (secret === undefined) continue;
      // A secret already in the keychain is newer than the fallback copy: keep it.
      if ((await to.get(account)) === undefined) {
        await to.set(account, secret);
        if ((await to.get(account)) !== secret) throw new Error(`the keychain did not keep "${account}"`);
      }
      await from.delete(account);
      moved.push(account);
    }
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    log.warn('could not move secrets from the encrypted file into the OS keychain; the file was left as is', {
      file: options.fromPath,
      moved: moved.length,
      problem: message,
    });
    return { moved, error: message };
  }
  if (moved.length > 0) {
    log.info('moved secrets from the encrypted file into the OS keychain', {
      file: options.fromPath,
      count: moved.length,
    });
  }
  return { moved };
}
