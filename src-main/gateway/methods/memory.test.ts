import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { lanceDbMemoryBackend } from '../../../extensions/memory-lancedb/index.js';
import type { Disposable } from '../../base/disposable.js';
import { silentLogger } from '../../base/logger.js';
import { createHashedEmbedder } from '../../memory/embedders/hashed-embedder.js';
import { type MemoryConfigInput, parseMemoryConfig } from '../../memory/memory-config.js';
import { MemoryService } from '../../memory/memory-service.js';
import { createMemoryFixture } from '../../testing/memory-test-fixture.js';
import type { CallContext } from '../method-router.js';
import { MethodRegistry } from '../method-router.js';
import { registerDreamsMethods } from './dreams.js';
import { registerMemoryMethods } from './memory.js';

const call = (scopes: string[]): CallContext => ({
  caller: {
    connId: 'c1',
    role: 'operator',
    scopes,
    clientId: 'test',
    clientMode: 'ui',
    authMethod: 'token',
    isLocal: true,
    caps: [],
  },
  requestId: 'r1',
  signal: new AbortController().signal,
  acknowledge() {},
});
const reader = call(['operator.read']);
const admin = call(['operator.admin']);

let service: MemoryService | undefined;
/** The method registrations of each test's setup, released after it. */
const registrations: Disposable[] = [];
afterEach(async () => {
  for (const registration of registrations.splice(0)) registration.dispose();
  await service?.close();
  service = undefined;
});

async function setup(config: MemoryConfigInput = {}) {
  const fixture = await createMemoryFixture();
  service = new MemoryService({
    paths: fixture.paths,
    backend: lanceDbMemoryBackend,
    config: parseMemoryConfig(config),
    embedder: () => createHashedEmbedder(384),
    clock: fixture.clock,
    log: silentLogger,
    pid: 1,
    isAlive: () => false,
  });
  const registry = new MethodRegistry();
  registrations.push(registerMemoryMethods(registry, { memory: service }));
  registrations.push(registerDreamsMethods(registry, { memory: service }));
  return { fixture, registry, service };
}

describe('memory.* and dreams.* methods', () => {
  it('search carries component scores; files list, get and set round-trip', async () => {
    const { fixture, registry, service } = await setup();
    await fixture.write('memory/2026-11-29.md', '- Flight to Oslo leaves at 07:40 on Tuesday\n');
    await (await service.engine('main')).idle();

    const search = await registry.dispatch('memory.search', { query: 'Oslo flight' }, reader);
    expect(search.ok).toBe(true);
    const hit = (search as { payload: { results: Record<string, unknown>[] } }).payload.results[0]!;
    expect(hit).toMatchObject({ path: 'memory/2026-11-29.md', startLine: 1, endLine: 1, category: 'other' });
    expect(hit.vectorScore).toBeGreaterThan(0);
    expect(hit.textScore).toBeGreaterThan(0);
    expect(hit.decay).toBeGreaterThan(0.9);

    const files = await registry.dispatch('memory.files.list', {}, reader);
    expect(files).toMatchObject({
      ok: true,
      payload: { files: [{ path: 'memory/2026-11-29.md', kind: 'daily', date: '2026-11-29' }] },
    });

    const denied = await registry.dispatch('memory.file.set', { path: 'MEMORY.md', content: 'x' }, reader);
    expect(denied).toMatchObject({ ok: false, error: { code: 'FORBIDDEN' } });
    expect(await registry.dispatch('memory.file.set', { path: 'MEMORY.md', content: '# Mine\n' }, admin)).toMatchObject(
      { ok: true },
    );
    expect(await readFile(join(fixture.workspace, 'MEMORY.md'), 'utf8')).toBe('# Mine\n');
    expect(await registry.dispatch('memory.file.get', { path: 'MEMORY.md' }, reader)).toMatchObject({
      ok: true,
      payload: { content: '# Mine\n' },
    });
    const status = await registry.dispatch('memory.status', {}, reader);
    expect(status).toMatchObject({ ok: true, payload: { agentId: 'main', backend: 'memory-lancedb' } });
  });

  it('rejects bad input naming what was wrong', async () => {
    const { registry } = await setup();
    expect(await registry.dispatch('memory.file.get', { path: '../hearth.json' }, reader)).toMatchObject({
      ok: false,
      error: { code: 'INVALID_REQUEST', message: expect.stringContaining('escapes the workspace') },
    });
    expect(await registry.dispatch('memory.file.get', { path: 'SOUL.md' }, reader)).toMatchObject({
      ok: false,
      error: { message: expect.stringContaining('not a memory file') },
    });
    expect(await registry.dispatch('memory.file.get', { path: 'memory/2020-01-01.md' }, reader)).toMatchObject({
      ok: false,
      error: { code: 'NOT_FOUND' },
    });
    expect(await registry.dispatch('memory.search', { query: '' }, reader)).toMatchObject({
      ok: false,
      error: { message: expect.stringContaining('invalid memory.search params') },
    });
    expect(await registry.dispatch('dreams.run', { apply: true }, reader)).toMatchObject({
      ok: false,
      error: { code: 'FORBIDDEN' },
    });
  });

  it('per-user scope: two users on one agent never see each other', async () => {
    const { fixture, registry, service } = await setup({
      scope: 'per-user',
      identityLinks: { alice: ['telegram:100', 'webhook:alice'], bob: ['telegram:200'] },
    });
    await fixture.write('users/alice/memory/2026-11-29.md', '- [entity] My bank PIN hint is the blue heron\n');
    await fixture.write('users/bob/memory/2026-11-29.md', '- [entity] My locker code is 4471 at the swimming pool\n');
    await (await service.engine('main')).idle();

    const search = async (userId: string, query: string) =>
      (
        (await registry.dispatch('memory.search', { query, userId, minScore: 0 }, reader)) as {
          payload: { results: { path: string }[] };
        }
      ).payload.results.map((result) => result.path);
    expect(await search('telegram:100', 'bank PIN hint heron')).toEqual(['users/alice/memory/2026-11-29.md']);
    expect(
      await search('telegram:200', 'bank PIN hint heron').then((paths) => paths.some((p) => p.includes('alice'))),
    ).toBe(false);
    expect(await search('bob', 'locker code swimming pool')).toEqual(['users/bob/memory/2026-11-29.md']);
    expect(
      await search('webhook:alice', 'locker code swimming pool').then((paths) => paths.some((p) => p.includes('bob'))),
    ).toBe(false);
    // Without a user, per-user scope refuses rather than falling back to a shared memory.
    expect(await registry.dispatch('memory.search', { query: 'locker' }, reader)).toMatchObject({
      ok: false,
      error: { message: expect.stringContaining('no user identity') },
    });
    const dreams = await registry.dispatch('dreams.candidates', { userId: 'telegram:200' }, reader);
    expect(JSON.stringify(dreams)).not.toContain('heron');
  });

  it('dreams.run previews, dreams.explain explains', async () => {
    const { registry } = await setup();
    expect(await registry.dispatch('dreams.run', {}, admin)).toMatchObject({
      ok: true,
      payload: { applied: false, promoted: [] },
    });
    expect(await registry.dispatch('dreams.status', {}, reader)).toMatchObject({
      ok: true,
      payload: { enabled: false, cron: '0 3 * * *' },
    });
    expect(await registry.dispatch('dreams.explain', { text: 'nothing' }, reader)).toMatchObject({
      ok: true,
      payload: { lines: [expect.stringContaining('has not been recalled')] },
    });
  });

  it('memory.status says whose memory the Control UI is looking at', async () => {
    const { registry } = await setup();
    expect(await registry.dispatch('memory.status', {}, reader)).toMatchObject({ payload: { scope: 'per-agent' } });
    await service?.close();
    const linked = await setup({ scope: 'per-user', identityLinks: { sam: ['owner', 'telegram:7'] } });
    expect(await linked.registry.dispatch('memory.status', {}, reader)).toMatchObject({
      payload: { scope: 'per-user', ownerFolder: 'users/sam/' },
    });
  });

  it('dreams.status says when the schedule runs next and how the last run went, across a restart', async () => {
    const { fixture, registry } = await setup({ dreaming: { enabled: true } });
    const before = await registry.dispatch('dreams.status', {}, reader);
    // The fixture's clock is 2026-11-30 10:00 local: the next 03:00 is tomorrow's.
    expect(before).toMatchObject({ ok: true, payload: { enabled: true, next: new Date(2026, 11, 1, 3, 0).getTime() } });
    expect((before as { payload: Record<string, unknown> }).payload.last).toBeUndefined();
    fixture.clock.advance(60_000);
    await registry.dispatch('dreams.run', { apply: true }, admin);
    const last = { at: fixture.clock.now(), promoted: 0, applied: true };
    expect(await registry.dispatch('dreams.status', {}, reader)).toMatchObject({ payload: { last } });

    // A restarted gateway: a new service over the same workspace still knows.
    await service?.close();
    service = new MemoryService({
      paths: fixture.paths,
      backend: lanceDbMemoryBackend,
      config: parseMemoryConfig({}),
      embedder: () => createHashedEmbedder(384),
      clock: fixture.clock,
      log: silentLogger,
    });
    const restarted = new MethodRegistry();
    registrations.push(registerDreamsMethods(restarted, { memory: service }));
    const after = await restarted.dispatch('dreams.status', {}, reader);
    expect(after).toMatchObject({ payload: { enabled: false, last } });
    expect((after as { payload: Record<string, unknown> }).payload.next).toBeUndefined();
  });
});
