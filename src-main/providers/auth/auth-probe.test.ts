import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, onTestFinished } from 'vitest';
import { silentLogger } from '../../base/logger.js';
import { createEncryptedFileSecretStore, keyFileKeySource } from '../../secrets/index.js';
import { createFakeClock, type FakeClock } from '../../testing/fake-clock.js';
import { type FakeLlmServer, startFakeLlmServer } from '../../testing/fake-llm/index.js';
import { registerBuiltinProviders } from '../builtin-providers.js';
import { createModelFactory } from '../model-factory.js';
import type { ProvidersConfig } from '../provider-config.js';
import { createProviderRegistry } from '../provider-registry.js';
import { createAuthProber, defaultProbeCooldownMs } from './auth-probe.js';
import { type AuthProfileManager, createAuthProfileManager } from './auth-profile-manager.js';

// Probes with the real manager and model factory against a fake provider that accepts one key:
// a probe is a real model-list request, its answer is the health row's, and it is not repeated
// within the cooldown unless forced.
let server: FakeLlmServer;
let refusedURL: string;
let stateDir: string;
let clock: FakeClock;
let manager: AuthProfileManager;
let providers: ProvidersConfig;

beforeAll(async () => {
  server = await startFakeLlmServer({ acceptKeys: ['sk-good'], listedModels: ['m-1', 'm-2'] });
  const free = createServer();
  await new Promise<void>((resolve) => free.listen(0, '127.0.0.1', resolve));
  refusedURL = `http://127.0.0.1:${(free.address() as AddressInfo).port}/v1`;
  await new Promise<void>((resolve) => free.close(() => resolve()));
});
afterAll(() => server.close());

beforeEach(async () => {
  stateDir = await mkdtemp(join(tmpdir(), 'hearth-probe-'));
  clock = createFakeClock();
  providers = {
    compat: { kind: 'openai-compatible', baseURL: server.baseUrlFor('openai-compatible') },
    gone: { kind: 'openai-compatible', baseURL: refusedURL },
  };
  const secrets = createEncryptedFileSecretStore({
    path: join(stateDir, 'secrets.enc.json'),
    keySource: keyFileKeySource({ path: join(stateDir, 'secrets.key') }),
  });
  manager = await createAuthProfileManager({
    stateDir,
    secrets,
    clock,
    log: silentLogger,
    config: () => ({ profiles: {}, order: {}, billingDisableMs: 1 }),
  });
});
afterEach(() => rm(stateDir, { recursive: true, force: true, maxRetries: 5, retryDelay: 50 }));

const prober = () => {
  const registry = createProviderRegistry();
  const registrations = registerBuiltinProviders(registry);
  onTestFinished(() => registrations.dispose());
  return createAuthProber({
    auth: manager,
    models: createModelFactory({ registry, providers: () => providers }),
    fetch,
    clock,
  });
};
const modelListCalls = () => server.requests.length; // the fake records completions only
const health = async (id: string) => (await manager.health()).find((row) => row.id === id);

describe('auth probe', () => {
  it('never calls a new key ready until it has worked, then records the probe that proved it', async () => {
    await manager.set({ id: 'compat:default', provider: 'compat', type: 'api_key', secret: 'sk-good' });
    expect(await health('compat:default')).toMatchObject({ status: 'ok', verified: false });
    const outcome = await prober().probe('compat:default');
    expect(outcome).toMatchObject({ fromCooldown: false, probe: { ok: true, models: 2, at: clock.now() } });
    expect(await health('compat:default')).toMatchObject({
      verified: true,
      lastSuccess: clock.now(),
      lastProbe: { ok: true, models: 2 },
    });
    expect(modelListCalls()).toBe(0);
  });

  it('keeps a refused key unverified with the provider’s refusal and status', async () => {
    await manager.set({ id: 'compat:bad', provider: 'compat', type: 'api_key', secret: 'sk-bad' });
    const outcome = await prober().probe('compat:bad');
    expect(outcome.probe).toMatchObject({ ok: false, problem: 'auth', status: 401 });
    expect(outcome.probe.message).toContain('Incorrect API key provided.');
    expect(await health('compat:bad')).toMatchObject({ verified: false, lastProbe: { ok: false, problem: 'auth' } });
  });

  it('shows a refused connection as down', async () => {
    await manager.set({ id: 'gone:default', provider: 'gone', type: 'api_key', secret: 'sk-any' });
    const outcome = await prober().probe('gone:default');
    expect(outcome.probe).toMatchObject({ ok: false, problem: 'down' });
    expect(outcome.probe.message).toContain('connection refused');
  });

  it('answers from the last probe within the cooldown, and probes again when forced or after it', async () => {
    await manager.set({ id: 'compat:default', provider: 'compat', type: 'api_key', secret: 'sk-good' });
    const probes = prober();
    const first = await probes.probe('compat:default');
    // The key is revoked at the provider; within the cooldown the stored answer stands.
    await manager.set({ id: 'compat:default', provider: 'compat', type: 'api_key', secret: 'sk-revoked' });
    await manager.recordProbe('compat:default', first.probe);
    clock.advance(defaultProbeCooldownMs - 1);
    expect(await probes.probe('compat:default')).toMatchObject({ fromCooldown: true, probe: { ok: true } });
    expect(await probes.probe('compat:default', { force: true })).toMatchObject({
      fromCooldown: false,
      probe: { ok: false, problem: 'auth' },
    });
    expect((await health('compat:default'))?.verified).toBe(false);
    clock.advance(defaultProbeCooldownMs);
    expect((await probes.probe('compat:default')).fromCooldown).toBe(false);
  });

  it('survives a restart: the last probe is read back from the state file', async () => {
    await manager.set({ id: 'compat:default', provider: 'compat', type: 'api_key', secret: 'sk-good' });
    await prober().probe('compat:default');
    await manager.flush();
    const secrets = createEncryptedFileSecretStore({
      path: join(stateDir, 'secrets.enc.json'),
      keySource: keyFileKeySource({ path: join(stateDir, 'secrets.key') }),
    });
    const reopened = await createAuthProfileManager({
      stateDir,
      secrets,
      clock,
      log: silentLogger,
      config: () => ({ profiles: {}, order: {}, billingDisableMs: 1 }),
    });
    expect((await reopened.health())[0]).toMatchObject({ verified: true, lastProbe: { ok: true, models: 2 } });
  });
});
