import { hkdf, randomBytes, scrypt } from 'node:crypto';
import { chmod, mkdir, open, readFile, stat } from 'node:fs/promises';
import { dirname } from 'node:path';
import { promisify } from 'node:util';

/**
 * Where the encrypted secret file's key comes from. The file stores a random salt;
 * the source turns it into the 32-byte AES key. `kind` is written into the file so
 * opening it with the other kind of source says so instead of "wrong key".
 */
export interface KeySource {
  readonly kind: 'key-file' | 'passphrase';
  /** For messages: where the key lives (never the key). */
  readonly description: string;
  /**
   * `create`: a key file may be made when missing; only for a brand-new secret file,
   * so a lost key file is reported rather than silently replaced.
   */
  deriveKey(salt: Buffer, options?: { create?: boolean }): Promise<Buffer>;
}

const hkdfAsync = promisify(hkdf);
const scryptAsync = promisify(scrypt) as (
  password: string,
  salt: Buffer,
  keylen: number,
  options: object,
) => Promise<Buffer>;

const KEY_BYTES = 32;

async function readKeyFile(path: string): Promise<Buffer | undefined> {
  try {
    const bytes = await readFile(path);
    if (bytes.length !== KEY_BYTES) {
      throw new Error(`secret key file ${path} is ${bytes.length} bytes long, expected ${KEY_BYTES}; it is damaged`);
    }
    const mode = (await stat(path)).mode & 0o777;
    // Someone loosened it: tighten rather than refuse, the key itself is still private to this machine.
    if (mode !== 0o600) await chmod(path, 0o600);
    return bytes;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

/**
 * A random key in a 0600 file (under identity/), created on first use. It never
 * leaves this machine, so the secret file alone (a backup, a synced folder) is useless.
 */
export function keyFileKeySource(options: { path: string }): KeySource {
  const { path } = options;
  let key: Promise<Buffer> | undefined;
  const material = async (create: boolean): Promise<Buffer> => {
    const existing = await readKeyFile(path);
    if (existing) return existing;
    if (!create) throw new Error(`secret key file ${path} is missing, so the secret file cannot be decrypted`);
    await mkdir(dirname(path), { recursive: true, mode: 0o700 });
    const fresh = randomBytes(KEY_BYTES);
    try {
      // 'wx': two processes racing to create it must not end up with different keys.
      const handle = await open(path, 'wx', 0o600);
      try {
        await handle.writeFile(fresh);
        await handle.sync();
      } finally {
        await handle.close();
      }
      return fresh;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      return (await readKeyFile(path))!;
    }
  };
  return {
    kind: 'key-file',
    description: `key file ${path}`,
    async deriveKey(salt, options = {}) {
      key ??= material(options.create === true);
      key.catch(() => {
        key = undefined;
      });
      return Buffer.from(await hkdfAsync('sha256', await key, salt, 'hearth secret store v1', KEY_BYTES));
    },
  };
}

/** A key derived from a passphrase the user supplies (scrypt, N=2^15). */
export function passphraseKeySource(options: { passphrase: string }): KeySource {
  if (!options.passphrase) throw new Error('secret store passphrase must not be empty');
  const cache = new Map<string, Promise<Buffer>>();
  return {
    kind: 'passphrase',
    description: 'a passphrase',
    deriveKey(salt) {
      const id = salt.toString('base64');
      let key = cache.get(id);
      if (!key) {
        key = scryptAsync(options.passphrase, salt, KEY_BYTES, { N: 2 ** 15, r: 8, p: 1, maxmem: 64 * 1024 * 1024 });
        cache.set(id, key);
      }
      return key;
    },
  };
}
