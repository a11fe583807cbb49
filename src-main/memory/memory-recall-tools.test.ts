import { afterEach, describe, expect, it } from 'vitest';
import { lanceDbMemoryBackend } from '../../extensions/memory-lancedb/index.js';
import { toDisposable } from '../base/disposable.js';
import { silentLogger } from '../base/logger.js';
import { createMemoryFixture } from '../testing/memory-test-fixture.js';
import { createActiveRecall } from './active-recall.js';
import { nextDreamingRun, scheduleDreaming } from './dreaming/dreaming-schedule.js';
import { createHashedEmbedder } from './embedders/hashed-embedder.js';
import { parseMemoryConfig } from './memory-config.js';
import { MemoryService } from './memory-service.js';
import { createMemoryTools } from './memory-tools.js';
import { watchMemoryFiles } from './memory-watcher.js';

let service: MemoryService | undefined;
afterEach(async () => {
  await service?.close();
  service = undefined;
});

const toolContext = (userId?: string) => ({
  agentId: 'main',
  sessionKey: 's',
  workspaceDir: '',
  signal: new AbortController().signal,
  log: silentLogger,
  userId,
});

describe('memory tools, active recall, watcher, schedule', () => {
  it('memory_write then memory_search and memory_get, confined to the user scope', async () => {
    const fixture = await createMemoryFixture();
    service = new MemoryService({
      paths: fixture.paths,
      backend: lanceDbMemoryBackend,
      config: parseMemoryConfig({ scope: 'per-user' }),
      embedder: () => createHashedEmbedder(384),
      clock: fixture.clock,
      log: silentLogger,
    });
    const [search, get, write] = createMemoryTools(service);
    const written = await write!.execute({ text: 'I prefer standing desks at work' }, toolContext('carol'));
    expect(written.output).toBe('Saved to users/carol/memory/2026-11-30.md.');
    await (await service.engine('main')).idle();
    expect((await search!.execute({ query: 'standing desk' }, toolContext('carol'))).output).toContain(
      'users/carol/memory/2026-11-30.md:1-1',
    );
    expect((await search!.execute({ query: 'standing desk' }, toolContext('dave'))).output).toBe(
      'No matching memories.',
    );
    expect((await get!.execute({ path: 'memory/2026-11-30.md' }, toolContext('carol'))).output).toBe(
      '- 10:00 [preference] I prefer standing desks at work',
    );
    expect(await get!.execute({ path: '../carol/memory/2026-11-30.md' }, toolContext('dave'))).toMatchObject({
      isError: true,
    });
    expect(search!.inputSchema.safeParse({ query: '' }).success).toBe(false);
  });

  it('active recall injects a short summary, caches it, and never blocks on a hung model', async () => {
    const fixture = await createMemoryFixture();
    await fixture.write('memory/2026-11-29.md', '- [preference] Likes the window table at Luigi’s pizzeria\n');
    await fixture.engine.open();
    await fixture.engine.sync();
    const scope = fixture.engine.defaultScope();
    const config = parseMemoryConfig({}).recall;
    const recall = createActiveRecall({ engine: fixture.engine, config, clock: fixture.clock });
    const summary = await recall.recall({ scope, message: 'book a table at Luigi’s pizzeria' });
    expect(summary).toMatch(/^Memory: Likes the window table/);
    expect(summary!.length).toBeLessThanOrEqual(220);
    await fixture.write('memory/2026-11-29.md', '- nothing here now\n');
    await fixture.engine.sync();
    expect(await recall.recall({ scope, message: 'book a table at Luigi’s pizzeria' })).toBe(summary);

    let modelCalled!: () => void;
    const reachedModel = new Promise<void>((resolve) => {
      modelCalled = resolve;
    });
    const hung = createActiveRecall({
      engine: fixture.engine,
      config: { ...config, style: 'strict' },
      clock: fixture.clock,
      modelRecall: () => {
        modelCalled();
        return new Promise(() => {});
      },
    });
    const pending = hung.recall({ scope, message: 'is anything here from the old notes' });
    // Once the model hangs, the timeout (not the model) ends the recall.
    await reachedModel;
    fixture.clock.advance(15_000);
    expect(await pending).toBeUndefined();
    await fixture.engine.close();
  });

  it('debounces hand edits into one sync, ignoring non-memory paths', async () => {
    const fixture = await createMemoryFixture();
    let emit: (path: string) => void = () => {};
    let syncs = 0;
    const watcher = watchMemoryFiles({
      source: (onChange) => {
        emit = onChange;
        return toDisposable(() => {});
      },
      clock: fixture.clock,
      sync: async () => {
        syncs++;
      },
    });
    emit('memory/2026-11-30.md');
    emit('MEMORY.md');
    emit('memory/dreaming/deep/2026-11-30.md');
    fixture.clock.advance(1000);
    emit('memory/2026-11-30.md');
    expect(syncs).toBe(0);
    fixture.clock.advance(2000);
    expect(syncs).toBe(1);
    emit('SOUL.md');
    fixture.clock.advance(5000);
    expect(syncs).toBe(1);
    watcher.dispose();
  });

  it('schedules Dreaming at 03:00 and rejects a bad cron', () => {
    const next = nextDreamingRun('0 3 * * *', new Date(2026, 10, 30, 10, 0));
    expect([next?.getDate(), next?.getHours(), next?.getMinutes()]).toEqual([1, 3, 0]);
    expect(() => scheduleDreaming({ enabled: true, cron: 'not a cron', run: async () => {} })).toThrow(
      /invalid memory.dreaming.cron/,
    );
    scheduleDreaming({ enabled: true, cron: '0 3 * * *', run: async () => {} }).dispose();
  });
});
