import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { writeFileAtomic } from '../fs/atomic-write.js';
import type { KeySource } from './key-source.js';
import type { SecretStore } from './secret-store.js';

/**
 * The fallback when no OS keychain answers: every secret in one AES-256-GCM file
 * (0600, atomic writes). The envelope's header (format, kdf, salt) is bound as
 * associated data, so editing any byte fails authentication. A file that does not
 * decrypt is never overwritten: every call fails with a clear error until the
 * right key is back or the user moves the file away.
 */

interface Envelope {
  format: 'hearth-secrets';
  version: 1;
  kdf: KeySource['kind'];
  salt: string;
  iv: string;
  tag: string;
  data: string;
}

export class SecretFileError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SecretFileError';
  }
}

export interface EncryptedFileSecretStoreOptions {
  path: string;
  keySource: KeySource;
  /** Why the keychain was not used; shown to the user with the warning. */
  reason?: string;
}

const aad = (e: Pick<Envelope, 'format' | 'version' | 'kdf' | 'salt'>) =>
  Buffer.from(`${e.format}|${e.version}|${e.kdf}|${e.salt}`);

function parseEnvelope(path: string, text: string): Envelope {
  let value: Partial<Envelope>;
  try {
    value = JSON.parse(text) as Partial<Envelope>;
  } catch {
    throw new SecretFileError(`secret file ${path} is not valid JSON; it was damaged or edited (left as is)`);
  }
  if (value?.format !== 'hearth-secrets' || value.version !== 1) {
    throw new SecretFileError(`secret file ${path} is not a Hearth secret file (version 1); left as is`);
  }
  for (const field of ['kdf', 'salt', 'iv', 'tag', 'data'] as const) {
    if (typeof value[field] !== 'string') {
      throw new SecretFileError(`secret file ${path} has no "${field}"; it was damaged or edited (left as is)`);
    }
  }
  return value as Envelope;
}

export function createEncryptedFileSecretStore(options: EncryptedFileSecretStoreOptions): SecretStore {
  const { path, keySource } = options;
  const warning = `Secrets are in an encrypted file because no OS keychain is available: ${options.reason ?? 'none was found'}`;
  let chain: Promise<unknown> = Promise.resolve();
  /** One operation at a time, so two `set`s never lose each other's secret. */
  const serial = <T>(job: () => Promise<T>): Promise<T> => {
    const result = chain.then(job, job);
    chain = result.catch(() => undefined);
    return result;
  };

  async function load(): Promise<{ salt: Buffer; secrets: Map<string, string>; fresh?: true }> {
    let text: string;
    try {
      text = await readFile(path, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') {
        return { salt: randomBytes(16), secrets: new Map(), fresh: true };
      }
      throw error;
    }
    const envelope = parseEnvelope(path, text);
    if (envelope.kdf !== keySource.kind) {
      throw new SecretFileError(
        `secret file ${path} was encrypted with a ${envelope.kdf}, but this run offers ${keySource.description}; left as is`,
      );
    }
    const salt = Buffer.from(envelope.salt, 'base64');
    // Key problems (a damaged key file) are reported as themselves, outside the decrypt catch.
    const key = await keySource.deriveKey(salt);
    try {
      const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(envelope.iv, 'base64'));
      decipher.setAAD(aad(envelope));
      decipher.setAuthTag(Buffer.from(envelope.tag, 'base64'));
      const plain = Buffer.concat([decipher.update(Buffer.from(envelope.data, 'base64')), decipher.final()]);
      const parsed = JSON.parse(plain.toString('utf8')) as { secrets?: Record<string, string> };
      // A Map, so an account named "__proto__" is just a name.
      return { salt, secrets: new Map(Object.entries(parsed.secrets ?? {})) };
    } catch {
      throw new SecretFileError(
        `cannot decrypt secret file ${path} with ${keySource.description}: wrong key, or the file was modified; it was left as is`,
      );
    }
  }

  async function save(salt: Buffer, secrets: Map<string, string>, fresh = false): Promise<void> {
    const header = {
      format: 'hearth-secrets' as const,
      version: 1 as const,
      kdf: keySource.kind,
      salt: salt.toString('base64'),
    };
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', await keySource.deriveKey(salt, { create: fresh }), iv);
    cipher.setAAD(aad(header));
    const data = Buffer.concat([
      cipher.update(JSON.stringify({ secrets: Object.fromEntries(secrets) }), 'utf8'),
      cipher.final(),
    ]);
    const envelope: Envelope = {
      ...header,
      iv: iv.toString('base64'),
      tag: cipher.getAuthTag().toString('base64'),
      data: data.toString('base64'),
    };
    await writeFileAtomic(path, `${JSON.stringify(envelope)}\n`, 0o600);
  }

  const checkAccount = (account: string) => {
    if (typeof account !== 'string' || account.trim() === '') throw new Error('secret account name must not be empty');
  };

  return {
    backend: 'encrypted-file',
    warning,
    get: (account) =>
      serial(async () => {
        checkAccount(account);
        const { secrets } = await load();
        return secrets.get(account);
      }),
    set: (account, secret) =>
      serial(async () => {
        checkAccount(account);
        if (typeof secret !== 'string') throw new Error(`secret for "${account}" must be a string`);
        const { salt, secrets, fresh } = await load();
        secrets.set(account, secret);
        await save(salt, secrets, fresh);
      }),
    delete: (account) =>
      serial(async () => {
        checkAccount(account);
        const { salt, secrets } = await load();
        if (!secrets.delete(account)) return false;
        await save(salt, secrets);
        return true;
      }),
    list: () => serial(async () => [...(await load()).secrets.keys()].sort()),
  };
}
