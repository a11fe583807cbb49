import { randomBytes } from 'node:crypto';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createMemoryLogger } from '../base/logger.js';
import { createHearthPaths, type HearthPaths } from '../paths/index.js';
import { createFakeClock } from '../testing/fake-clock.js';
import type { KeytarLike } from './keytar-secret-store.js';
import { openSecretStore, secretFilePaths } from './open-secret-store.js';

let home: string;
let paths: HearthPaths;
let log: ReturnType<typeof createMemoryLogger>;

// Run the real keytar with no session bus at all, as on a headless server: it must reject.
const savedEnv = { bus: process.env.DBUS_SESSION_BUS_ADDRESS, display: process.env.DISPLAY };
beforeAll(() => {
  delete process.env.DBUS_SESSION_BUS_ADDRESS;
  delete process.env.DISPLAY;
});
afterAll(() => {
  if (savedEnv.bus !== undefined) process.env.DBUS_SESSION_BUS_ADDRESS = savedEnv.bus;
  if (savedEnv.display !== undefined) process.env.DISPLAY = savedEnv.display;
});

beforeEach(async () => {
  home = await mkdtemp(join(tmpdir(), 'hearth-open-secrets-'));
  paths = createHearthPaths(home);
  log = createMemoryLogger();
});

afterEach(async () => {
  await rm(home, { recursive: true, force: true, maxRetries: 5, retryDelay: 50 });
});

/** A keychain that works, in memory: stands in for the OS service where one is expected to answer. */
function workingKeychain(): KeytarLike {
  const items = new Map<string, string>();
  return {
    getPassword: async (service, account) => items.get(`${service}/${account}`) ?? null,
    setPassword: async (service, account, password) => void items.set(`${service}/${account}`, password),
    deletePassword: async (service, account) => items.delete(`${service}/${account}`),
    findCredentials: async (service) =>
      [...items]
        .filter(([id]) => id.startsWith(`${service}/`))
        .map(([id, password]) => ({ account: id.slice(service.length + 1), password })),
  };
}

describe('openSecretStore', () => {
  it('falls back to the encrypted file, with a warning, when the real keytar finds no Secret Service', async () => {
    const { store, reason } = await openSecretStore({ paths, log, env: {}, service: 'hearth-test' });
    expect(store.backend).toBe('encrypted-file');
    expect(store.warning).toMatch(
      /no OS keychain is available: the OS keychain refused to answer: Cannot autolaunch D-Bus without X11 \$DISPLAY/,
    );
    expect(store.fallbackReason).toMatch(/^the OS keychain refused to answer: Cannot autolaunch D-Bus/);
    expect(reason).toContain(secretFilePaths(paths).file);
    const warning = log.entries.find((e) => e.level === 'warn');
    expect(warning?.message).toMatch(/no OS keychain; using the encrypted secret file/);

    await store.set('openai:default', 'sk-fallback-secret');
    const bytes = await readFile(secretFilePaths(paths).file);
    expect(bytes.includes(Buffer.from('sk-fallback-secret'))).toBe(false);
    expect(JSON.stringify(log.entries)).not.toContain('sk-fallback-secret');
  });

  it('falls back when keytar itself cannot be loaded', async () => {
    const { store } = await openSecretStore({
      paths,
      log,
      env: {},
      keytar: async () => {
        throw new Error('libsecret-1.so.0: cannot open shared object file');
      },
    });
    expect(store.warning).toMatch(/libsecret-1\.so\.0/);
  });

  it('uses the keychain when the probe answers', async () => {
    const { store, reason } = await openSecretStore({ paths, log, env: {}, keytar: workingKeychain() });
    expect(store.backend).toBe('keychain');
    expect(store.warning).toBeUndefined();
    expect(reason).toBe('Secrets are in the OS keychain.');
    await store.set('a', 'b');
    expect(await store.list()).toEqual(['a']);
  });

  it('moves secrets saved in the encrypted file during a fallback into the keychain once it answers', async () => {
    const fallback = await openSecretStore({ paths, log, env: {} });
    await fallback.store.set('openai:default', 'sk-from-file');
    await fallback.store.set('anthropic:work', 'ant-from-file');
    const keychain = workingKeychain();
    await keychain.setPassword('hearth', 'anthropic:work', 'ant-newer-in-keychain');

    const { store, reason } = await openSecretStore({ paths, log, env: {}, keytar: keychain });
    expect(store.backend).toBe('keychain');
    expect(reason).toBe('Secrets are in the OS keychain (2 moved there from the encrypted file).');
    expect(await store.get('openai:default')).toBe('sk-from-file');
    expect(await store.get('anthropic:work')).toBe('ant-newer-in-keychain');
    expect(await fallback.store.list()).toEqual([]);
    expect(log.entries.some((e) => e.message.includes('moved secrets from the encrypted file'))).toBe(true);
  });

  it('leaves an undecryptable fallback file alone when the keychain answers', async () => {
    const fallback = await openSecretStore({ paths, log, env: {} });
    await fallback.store.set('openai:default', 'sk-from-file');
    const { file, keyFile } = secretFilePaths(paths);
    await writeFile(keyFile, randomBytes(32));
    const before = await readFile(file, 'utf8');

    const { store, reason } = await openSecretStore({ paths, log, env: {}, keytar: workingKeychain() });
    expect(store.backend).toBe('keychain');
    expect(reason).toBe('Secrets are in the OS keychain.');
    expect(await readFile(file, 'utf8')).toBe(before);
    expect(log.entries.find((e) => e.message.startsWith('could not move secrets'))?.fields?.problem).toMatch(
      /cannot decrypt/,
    );
  });

  it('treats a keychain that never answers as none', async () => {
    const clock = createFakeClock();
    const hanging: KeytarLike = { ...workingKeychain(), findCredentials: () => new Promise(() => {}) };
    const opening = openSecretStore({ paths, log, env: {}, keytar: hanging, clock, probeTimeoutMs: 2000 });
    await new Promise((resolve) => setImmediate(resolve));
    clock.advance(2000);
    const { store } = await opening;
    expect(store.warning).toMatch(/no answer within 2000 ms/);
  });

  it('honours HEARTH_SECRET_STORE and the passphrase option', async () => {
    const forced = await openSecretStore({
      paths,
      log,
      env: { HEARTH_SECRET_STORE: 'file', HEARTH_SECRETS_PASSPHRASE: 'pw' },
      keytar: workingKeychain(),
    });
    expect(forced.store.backend).toBe('encrypted-file');
    expect(forced.reason).toMatch(/HEARTH_SECRET_STORE=file was set.*a passphrase/);

    await expect(openSecretStore({ paths, log, env: { HEARTH_SECRET_STORE: 'keychain' } })).rejects.toThrow(
      /HEARTH_SECRET_STORE=keychain but the OS keychain is not available/,
    );
    await expect(openSecretStore({ paths, log, env: { HEARTH_SECRET_STORE: 'vault' } })).rejects.toThrow(
      /HEARTH_SECRET_STORE must be one of auto, keychain, file \(got "vault"\)/,
    );
  });
});
