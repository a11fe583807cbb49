import { createCipheriv, randomBytes } from 'node:crypto';
import { chmod, mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createEncryptedFileSecretStore, SecretFileError } from './encrypted-file-secret-store.js';
import { keyFileKeySource, passphraseKeySource } from './key-source.js';

let dir: string;
let file: string;
let keyFile: string;

const SECRET = 'sk-live-0123456789abcdefTOPSECRET';
const open = (key = keyFileKeySource({ path: keyFile })) =>
  createEncryptedFileSecretStore({ path: file, keySource: key });

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'hearth-secrets-'));
  file = join(dir, 'state', 'secrets.enc.json');
  keyFile = join(dir, 'identity', 'secrets.key');
});

afterEach(async () => {
  await rm(dir, { recursive: true, force: true, maxRetries: 5, retryDelay: 50 });
});

describe('encrypted file secret store', () => {
  it('round-trips secrets across instances and announces itself', async () => {
    const store = open();
    expect(store.backend).toBe('encrypted-file');
    expect(store.warning).toMatch(/^Secrets are in an encrypted file because no OS keychain is available: /);
    expect(await store.get('openai:default')).toBeUndefined();
    await store.set('openai:default', SECRET);
    await store.set('anthropic:work', 'ant-key');
    await store.set('__proto__', 'still just a name');

    const again = open();
    expect(await again.get('openai:default')).toBe(SECRET);
    expect(await again.get('__proto__')).toBe('still just a name');
    expect(await again.list()).toEqual(['__proto__', 'anthropic:work', 'openai:default']);
    expect(await again.delete('anthropic:work')).toBe(true);
    expect(await again.delete('anthropic:work')).toBe(false);
    expect(await open().list()).toEqual(['__proto__', 'openai:default']);
  });

  it('keeps every secret when many are set at once', async () => {
    const store = open();
    await Promise.all(Array.from({ length: 20 }, (_, i) => store.set(`k${i}`, `v${i}`)));
    expect(await open().list()).toHaveLength(20);
  });

  it('never writes a secret in plain text, and keeps file and key private (0600)', async () => {
    await open().set('openai:default', SECRET);
    const bytes = await readFile(file);
    expect(bytes.includes(Buffer.from(SECRET))).toBe(false);
    expect(bytes.includes(Buffer.from('TOPSECRET'))).toBe(false);
    expect(bytes.includes(Buffer.from(Buffer.from(SECRET).toString('base64').slice(0, 12)))).toBe(false);
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    expect((await stat(keyFile)).mode & 0o777).toBe(0o600);
  });

  it('detects a tampered file, says so, and leaves it untouched', async () => {
    await open().set('openai:default', SECRET);
    const envelope = JSON.parse(await readFile(file, 'utf8'));
    const data = Buffer.from(envelope.data, 'base64');
    data[0] = data[0]! ^ 0x01;
    envelope.data = data.toString('base64');
    const tampered = JSON.stringify(envelope);
    await writeFile(file, tampered);

    const store = open();
    await expect(store.get('openai:default')).rejects.toThrow(SecretFileError);
    await expect(store.get('openai:default')).rejects.toThrow(/wrong key, or the file was modified; it was left as is/);
    await expect(store.set('new', 'value')).rejects.toThrow(/cannot decrypt/);
    await expect(store.delete('openai:default')).rejects.toThrow(/cannot decrypt/);
    expect(await readFile(file, 'utf8')).toBe(tampered);
  });

  it('detects an edited header (salt) through the authenticated data', async () => {
    await open().set('a', 'b');
    const envelope = JSON.parse(await readFile(file, 'utf8'));
    envelope.salt = Buffer.alloc(16, 7).toString('base64');
    await writeFile(file, JSON.stringify(envelope));
    await expect(open().list()).rejects.toThrow(/cannot decrypt/);
  });

  it('refuses the wrong key without losing anything', async () => {
    await open().set('openai:default', SECRET);
    const before = await readFile(file, 'utf8');
    await writeFile(join(dir, 'other.key'), randomBytes(32), { mode: 0o600 });
    const otherKey = keyFileKeySource({ path: join(dir, 'other.key') });
    await expect(open(otherKey).set('x', 'y')).rejects.toThrow(
      /cannot decrypt secret file .* with key file .*other\.key/,
    );
    expect(await readFile(file, 'utf8')).toBe(before);
    expect(await open().get('openai:default')).toBe(SECRET);
  });

  it('works with a passphrase and names the mismatch when opened with a key file', async () => {
    const pass = passphraseKeySource({ passphrase: 'correct horse battery staple' });
    await open(pass).set('token', SECRET);
    expect(await open(passphraseKeySource({ passphrase: 'correct horse battery staple' })).get('token')).toBe(SECRET);
    await expect(open(passphraseKeySource({ passphrase: 'wrong' })).get('token')).rejects.toThrow(/cannot decrypt/);
    await expect(open().get('token')).rejects.toThrow(/encrypted with a passphrase, but this run offers key file/);
    expect(() => passphraseKeySource({ passphrase: '' })).toThrow(/passphrase must not be empty/);
  });

  it.each([
    ['not JSON', 'garbage{', /not valid JSON/],
    ['another format', '{"format":"other","version":1}', /not a Hearth secret file/],
    [
      'a missing field',
      '{"format":"hearth-secrets","version":1,"kdf":"key-file","salt":"AA=="}',
      /damaged or was edited \(iv: Invalid input: expected string, received undefined\); it was left as is/,
    ],
  ])('reports a file that is %s', async (_name, content, message) => {
    await open().set('seed', 'x');
    await writeFile(file, content);
    await expect(open().get('seed')).rejects.toThrow(message);
    expect(await readFile(file, 'utf8')).toBe(content);
  });

  it('refuses contents that decrypt but are not secrets, naming the account and never its value', async () => {
    await open().set('openai:default', SECRET);
    // Re-encrypt, with the right key, contents this version never writes: one value is not a string.
    const envelope = JSON.parse(await readFile(file, 'utf8'));
    const key = await keyFileKeySource({ path: keyFile }).deriveKey(Buffer.from(envelope.salt, 'base64'));
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', key, iv);
    cipher.setAAD(Buffer.from(`${envelope.format}|${envelope.version}|${envelope.kdf}|${envelope.salt}`));
    const contents = JSON.stringify({ secrets: { 'openai:default': SECRET, 'work:token': 42 } });
    const data = Buffer.concat([cipher.update(contents, 'utf8'), cipher.final()]);
    const edited = JSON.stringify({
      ...envelope,
      iv: iv.toString('base64'),
      tag: cipher.getAuthTag().toString('base64'),
      data: data.toString('base64'),
    });
    await writeFile(file, edited);

    const error = await open()
      .set('other', 'x')
      .catch((caught: unknown) => caught as Error);
    expect(error).toBeInstanceOf(SecretFileError);
    expect(error?.message).toBe(
      `secret file ${file} decrypts, but not to a list of secrets (secrets.work:token: Invalid input: expected string, received number); it was left as is`,
    );
    expect(error?.message).not.toContain(SECRET);
    expect(await readFile(file, 'utf8')).toBe(edited);
  });

  it('rejects empty account names and a damaged key file', async () => {
    await expect(open().set('', 'x')).rejects.toThrow(/account name must not be empty/);
    await open().set('a', 'b');
    await writeFile(keyFile, 'short');
    await expect(open().get('a')).rejects.toThrow(/is 5 bytes long, expected 32; it is damaged/);
  });

  it('reports a lost key file instead of making a new key for an existing secret file', async () => {
    await open().set('a', 'b');
    const before = await readFile(file, 'utf8');
    await rm(keyFile);
    await expect(open().set('c', 'd')).rejects.toThrow(/secret key file .*secrets\.key is missing/);
    await expect(stat(keyFile)).rejects.toThrow(/ENOENT/);
    expect(await readFile(file, 'utf8')).toBe(before);
  });

  it('tightens a key file someone made readable by others', async () => {
    await open().set('a', 'b');
    await chmod(keyFile, 0o644);
    expect(await open().get('a')).toBe('b');
    expect((await stat(keyFile)).mode & 0o777).toBe(0o600);
  });
});
