import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { silentLogger } from '../../base/logger.js';
import { createEncryptedFileSecretStore, keyFileKeySource, type SecretStore } from '../../secrets/index.js';
import { createFakeClock, type FakeClock } from '../../testing/fake-clock.js';
import type { AuthConfig } from '../provider-config.js';
import { secretAccount } from './auth-profile.js';
import { type AuthProfileManager, createAuthProfileManager, type OAuthRefresher } from './auth-profile-manager.js';

let stateDir: string;
let clock: FakeClock;
let secrets: SecretStore;
let config: AuthConfig;

const make = (refreshers?: Record<string, OAuthRefresher>): Promise<AuthProfileManager> =>
  createAuthProfileManager({ stateDir, secrets, clock, log: silentLogger, config: () => config, refreshers });

beforeEach(async () => {
  stateDir = await mkdtemp(join(tmpdir(), 'hearth-auth-'));
  clock = createFakeClock();
  secrets = createEncryptedFileSecretStore({
    path: join(stateDir, 'secrets.enc.json'),
    keySource: keyFileKeySource({ path: join(stateDir, 'secrets.key') }),
  });
  config = { profiles: {}, order: {}, billingDisableMs: 5 * 60 * 60 * 1000 };
});
afterEach(() => rm(stateDir, { recursive: true, force: true, maxRetries: 5, retryDelay: 50 }));

describe('auth profile ordering', () => {
  it('puts oauth before token before api_key, then least recently used first', async () => {
    const manager = await make();
    await manager.set({ id: 'key1', provider: 'openai', type: 'api_key', secret: 'k1' });
    await manager.set({ id: 'key2', provider: 'openai', type: 'api_key', secret: 'k2' });
    await manager.set({ id: 'tok', provider: 'openai', type: 'token', secret: 't', expiresAt: clock.now() + 1e9 });
    await manager.set({
      id: 'oa',
      provider: 'openai',
      type: 'oauth',
      secret: JSON.stringify({ access: 'a', refresh: 'r', expires: clock.now() + 1e9 }),
    });
    expect(manager.order('openai').map((p) => p.id)).toEqual(['oa', 'tok', 'key1', 'key2']);
    manager.markUsed('key1');
    expect(manager.order('openai').map((p) => p.id)).toEqual(['oa', 'tok', 'key2', 'key1']);
    expect(manager.order('openai', 'key1')[0]?.id).toBe('key1');
  });

  it('honours the explicit order from config', async () => {
    config.order = { openai: ['key2'] };
    const manager = await make();
    await manager.set({ id: 'key1', provider: 'openai', type: 'api_key', secret: 'k1' });
    await manager.set({ id: 'key2', provider: 'openai', type: 'api_key', secret: 'k2' });
    expect(manager.order('openai').map((p) => p.id)).toEqual(['key2', 'key1']);
  });

  it('escalates cooldowns 30 s → 1 min → 5 min and puts cooling profiles last', async () => {
    const manager = await make();
    await manager.set({ id: 'a', provider: 'openai', type: 'api_key', secret: 'ka' });
    await manager.set({ id: 'b', provider: 'openai', type: 'api_key', secret: 'kb' });
    await manager.markFailure('a', 'rate_limit');
    expect(manager.order('openai').map((p) => p.id)).toEqual(['b', 'a']);
    expect(manager.soonestCooldownEnd(manager.profilesFor('openai'))).toBe(clock.now() + 30_000);
    clock.advance(30_000);
    await manager.markFailure('a', 'rate_limit');
    expect((await manager.health()).find((h) => h.id === 'a')?.cooldownRemainingMs).toBe(60_000);
    clock.advance(60_000);
    await manager.markFailure('a', 'rate_limit');
    expect((await manager.health()).find((h) => h.id === 'a')?.cooldownRemainingMs).toBe(300_000);
    await manager.markSuccess('a');
    expect((await manager.health()).find((h) => h.id === 'a')?.status).toBe('ok');
    // A provider asking for a longer pause than the current step gets it.
    await manager.markFailure('a', 'rate_limit', 120_000);
    expect((await manager.health()).find((h) => h.id === 'a')?.cooldownRemainingMs).toBe(120_000);
  });

  it('keeps a billing-disabled profile out across a restart until the period ends', async () => {
    config.billingDisableMs = 60 * 60 * 1000;
    const first = await make();
    await first.set({ id: 'a', provider: 'openai', type: 'api_key', secret: 'ka' });
    await first.set({ id: 'b', provider: 'openai', type: 'api_key', secret: 'kb' });
    await first.markFailure('a', 'billing');
    await first.flush();
    const second = await make();
    expect(second.order('openai').map((p) => p.id)).toEqual(['b']);
    expect((await second.health()).find((h) => h.id === 'a')).toMatchObject({
      status: 'disabled',
      disabledReason: 'billing',
    });
    clock.advance(60 * 60 * 1000);
    expect(second.order('openai').map((p) => p.id)).toContain('a');
  });

  it('disables auth_permanent until the user sets the profile again', async () => {
    const manager = await make();
    await manager.set({ id: 'a', provider: 'openai', type: 'api_key', secret: 'ka' });
    await manager.markFailure('a', 'auth_permanent');
    clock.advance(365 * 24 * 3600 * 1000);
    expect(manager.order('openai')).toEqual([]);
    await manager.set({ id: 'a', provider: 'openai', type: 'api_key', secret: 'new' });
    expect(manager.order('openai').map((p) => p.id)).toEqual(['a']);
  });
});

describe('auth profile credentials', () => {
  it('names the profile whose secret is missing', async () => {
    const manager = await make();
    await manager.set({ id: 'a', provider: 'openai', type: 'api_key', secret: 'ka' });
    await secrets.delete(secretAccount('a'));
    manager.forgetCachedSecrets();
    const profile = manager.get('a');
    await expect(manager.credential(profile!)).rejects.toThrow(/auth profile "a" \(openai\) has no secret/);
    expect((await manager.health())[0]?.status).toBe('missing_secret');
  });

  it('refreshes an oauth token that is about to expire, via the injected refresher', async () => {
    const manager = await make({
      anthropic: async () => ({ access: 'fresh', refresh: 'r2', expires: clock.now() + 3600_000 }),
    });
    await manager.set({
      id: 'o',
      provider: 'anthropic',
      type: 'oauth',
      secret: JSON.stringify({ access: 'stale', refresh: 'r1', expires: clock.now() + 1000 }),
    });
    expect(await manager.credential(manager.get('o')!)).toEqual({ kind: 'bearer', value: 'fresh' });
    expect(JSON.parse((await secrets.get(secretAccount('o')))!).refresh).toBe('r2');
  });

  it('rejects an expired token profile with a clear error', async () => {
    const manager = await make();
    await manager.set({ id: 't', provider: 'openai', type: 'token', secret: 'tt', expiresAt: clock.now() + 10 });
    clock.advance(11);
    expect(manager.order('openai')).toEqual([]);
    await expect(manager.credential(manager.get('t')!)).rejects.toThrow(/"t" token expired/);
  });
});

describe('auth profile bad input', () => {
  it('rejects bad ids, empty secrets, malformed oauth secrets and missing secrets', async () => {
    const manager = await make();
    await expect(manager.set({ id: 'bad id!', provider: 'openai', type: 'api_key', secret: 'x' })).rejects.toThrow(
      /invalid auth profile id "bad id!"/,
    );
    await expect(manager.set({ id: 'a', provider: 'openai', type: 'api_key', secret: '  ' })).rejects.toThrow(
      /secret is empty/,
    );
    await expect(manager.set({ id: 'o', provider: 'openai', type: 'oauth', secret: 'nope' })).rejects.toThrow(
      /not \{access, refresh, expires\} JSON/,
    );
    await expect(manager.set({ id: 'n', provider: 'openai', type: 'api_key' })).rejects.toThrow(/needs a secret/);
  });

  it('a stored oauth secret that is not one fails naming the field, never the value, and is left as it is', async () => {
    const manager = await make();
    await manager.set({
      id: 'o',
      provider: 'openai',
      type: 'oauth',
      secret: JSON.stringify({ access: 'at', refresh: 'rt', expires: clock.now() + 3_600_000 }),
    });
    const broken = JSON.stringify({
      access: 'sk-very-secret-access',
      refresh: 'sk-very-secret-refresh',
      expires: 'soon',
    });
    await secrets.set(secretAccount('o'), broken);
    const again = await make();
    const error = await again.credential(again.get('o')!).then(
      () => undefined,
      (caught: unknown) => caught as Error,
    );
    expect(error?.message).toMatch(
      /auth profile "o" is oauth but its secret is not \{access, refresh, expires\} JSON \(expires: Invalid input: expected number, received string\); it was left as it is/,
    );
    expect(error?.message).not.toMatch(/sk-very-secret/);
    expect(await secrets.get(secretAccount('o'))).toBe(broken);

    await secrets.set(secretAccount('o'), 'sk-very-secret-plain-key');
    const fresh = await make();
    const plain = await fresh.credential(fresh.get('o')!).then(
      () => undefined,
      (caught: unknown) => caught as Error,
    );
    expect(plain?.message).toMatch(/\(not JSON\)/);
    expect(plain?.message).not.toMatch(/sk-very-secret/);
  });

  it('refuses to remove a profile declared in config, and reports a corrupt stats file by name', async () => {
    config.profiles = { cfg: { provider: 'openai', type: 'api_key' } };
    const manager = await make();
    await expect(manager.remove('cfg')).rejects.toThrow(/declared in hearth.json/);
    expect(await manager.remove('nope')).toBe(false);
    await writeFile(join(stateDir, 'auth-profiles.json'), '{oops');
    await expect(make()).rejects.toThrow(/auth-profiles.json is not valid JSON/);
  });

  it('never writes secrets to the stats file', async () => {
    const manager = await make();
    await manager.set({ id: 'a', provider: 'openai', type: 'api_key', secret: 'sk-very-secret' });
    await manager.flush();
    expect(await readFile(join(stateDir, 'auth-profiles.json'), 'utf8')).not.toContain('sk-very-secret');
  });
});
