import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { z } from 'zod';
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

// Typed by the interface it decodes, so a field added to the envelope without its schema breaks the build.
const envelopeSchema: z.ZodType<Envelope> = z.looseObject({
  format: z.literal('hearth-secrets'),
  version: z.literal(1),
  kdf: z.enum(['key-file', 'passphrase']),
  salt: z.string(),
  iv: z.string(),
  tag: z.string(),
  data: z.string(),
});
/**
 * What the envelope's `data` decrypts to. Entries go into a Map before they are checked: a zod
 * record copies into a plain object, where an account named "__proto__" would vanish.
 */
const contentsSchema = z.looseObject({
  secrets: z
    .custom<object>(
      (value) => typeof value === 'object' && value !== null && !Array.isArray(value),
      'expected an object',
    )
    .transform((value) => new Map(Object.entries(value)))
    .pipe(z.map(z.string(), z.string())),
});

/**
 * Where a decode failed, never what was there: the contents are secrets, so only the path and
 * zod's wording (which names types, not values) go into the message.
 */
function whereInvalid(error: z.ZodError): string {
  const issue = error.issues[0];
  return `${issue?.path.join('.') || 'file'}: ${issue?.message ?? 'invalid'}`;
}

function parseEnvelope(path: string, text: string): Envelope {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new SecretFileError(`secret file ${path} is not valid JSON; it was damaged or edited (left as is)`);
  }
  const parsed = envelopeSchema.safeParse(value);
  if (parsed.success) return parsed.data;
  const field = parsed.error.issues[0]?.path[0];
  if (field === 'format' || field === 'version' || field === undefined) {
    throw new SecretFileError(
      `secret file ${path} is not a Hearth secret file (version 1): ${whereInvalid(parsed.error)}; left as is`,
    );
  }
  throw new SecretFileError(
    `secret file ${path} is damaged or was edited (${whereInvalid(parsed.error)}); it was left as is`,
  );
}

export function createEncryptedFileSecretStore(options: EncryptedFileSecretStoreOptions): SecretStore {
  const { path, keySource } = options;
  const fallbackReason = options.reason ?? 'none was found';
  const warning = `Secrets are in an encrypted file because no OS keychain is available: ${fallbackReason}`;
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
    let contents: unknown;
    try {
      const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(envelope.iv, 'base64'));
      decipher.setAAD(aad(envelope));
      decipher.setAuthTag(Buffer.from(envelope.tag, 'base64'));
      const plain = Buffer.concat([decipher.update(Buffer.from(envelope.data, 'base64')), decipher.final()]);
      contents = JSON.parse(plain.toString('utf8'));
    } catch {
      throw new SecretFileError(
        `cannot decrypt secret file ${path} with ${keySource.description}: wrong key, or the file was modified; it was left as is`,
      );
    }
    // Authenticated, so only something holding the key wrote this; still, a shape this version
    // never wrote is refused rather than read as no secrets (the next `set` would drop them all).
    const decoded = contentsSchema.safeParse(contents);
    if (!decoded.success) {
      throw new SecretFileError(
        `secret file ${path} decrypts, but not to a list of secrets (${whereInvalid(decoded.error)}); it was left as is`,
      );
    }
    return { salt, secrets: decoded.data.secrets };
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
    fallbackReason,
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
