import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createMemoryFixture, type MemoryFixture } from '../../testing/memory-test-fixture.js';
import { acquireDreamLock } from './dream-lock.js';
import { runDreaming } from './dreaming.js';

let fixture: MemoryFixture | undefined;
afterEach(async () => {
  await fixture?.engine.close();
  fixture = undefined;
});

const DAY = 86_400_000;

async function recallOverDays(f: MemoryFixture, queries: string[]) {
  const scope = f.engine.defaultScope();
  for (const query of queries) {
    await f.engine.search(query, { scope });
    f.clock.advance(DAY);
  }
}

function deps(f: MemoryFixture, extra: { isAlive?: (pid: number) => boolean } = {}) {
  return {
    workspaceDir: f.workspace,
    scope: f.engine.defaultScope(),
    embedder: f.engine.deps.embedder,
    now: () => f.clock.now(),
    lock: { pid: 4242, now: () => f.clock.now(), isAlive: extra.isAlive ?? (() => false) },
  };
}

describe('Dreaming', () => {
  it('promotes a note recalled often by different queries, and previews without writing', async () => {
    fixture = await createMemoryFixture();
    await fixture.write('MEMORY.md', '# Memory\n\nUser wrote this line.\n');
    await fixture.write(
      'memory/2026-11-29.md',
      '- 09:00 [preference] Prefers oat milk in coffee\n- 09:05 [fact] The office wifi is Hearth-5G\n',
    );
    await fixture.engine.open();
    await fixture.engine.sync();
    await recallOverDays(fixture, [
      'oat milk coffee',
      'how does the user take coffee',
      'milk preference',
      'coffee order',
    ]);

    const preview = await runDreaming(deps(fixture));
    const top = preview.candidates[0]!;
    expect(top.text).toBe('Prefers oat milk in coffee');
    expect(top.failures).toEqual([]);
    expect(preview.promoted).toEqual([]);
    expect(await readFile(join(fixture.workspace, 'MEMORY.md'), 'utf8')).toBe('# Memory\n\nUser wrote this line.\n');

    const applied = await runDreaming(deps(fixture), { apply: true });
    expect(applied.promoted).toEqual(['Prefers oat milk in coffee']);
    const memory = await readFile(join(fixture.workspace, 'MEMORY.md'), 'utf8');
    expect(memory.startsWith('# Memory\n\nUser wrote this line.\n')).toBe(true);
    expect(memory).toContain('## Promoted by Dreaming — 2026-12-04\n\n- Prefers oat milk in coffee');
    expect(await readFile(join(fixture.workspace, 'DREAMS.md'), 'utf8')).toContain('Promoted 1 to MEMORY.md');
    expect(await readFile(join(fixture.workspace, 'memory/dreaming/deep/2026-12-04.md'), 'utf8')).toContain('passes');

    const again = await runDreaming(deps(fixture), { apply: true });
    expect(again.promoted).toEqual([]);
  });

  it('holds candidates that miss a gate and withdraws notes deleted since recall', async () => {
    fixture = await createMemoryFixture();
    await fixture.write('memory/2026-11-29.md', '- Sister Ana lives in Lisbon\n- Gym membership renews in March\n');
    await fixture.engine.open();
    await fixture.engine.sync();
    await recallOverDays(fixture, [
      'sister Ana Lisbon',
      'sister Ana Lisbon',
      'sister Ana Lisbon',
      'where does Ana live',
      'gym renewal',
    ]);
    await writeFile(join(fixture.workspace, 'memory/2026-11-29.md'), '- Gym membership renews in March\n');
    const summary = await runDreaming(deps(fixture), { apply: true });
    const ana = summary.candidates.find((candidate) => candidate.text.includes('Ana'))!;
    expect(ana.withdrawn ?? ana.failures.join()).toBeTruthy();
    const gym = summary.candidates.find((candidate) => candidate.text.includes('Gym'))!;
    expect(gym.failures).toContain('recalls 1 < 3');
    expect(summary.promoted).toEqual([]);
  });

  it('refuses a concurrent run and takes over a lock left by a dead process', async () => {
    fixture = await createMemoryFixture();
    await fixture.engine.open();
    const stateDir = join(fixture.workspace, 'memory/.dreams');
    await mkdir(stateDir, { recursive: true });
    const held = await acquireDreamLock(stateDir, { pid: 1111, now: () => 0, isAlive: () => true });
    await expect(runDreaming(deps(fixture, { isAlive: (pid) => pid === 1111 }))).rejects.toThrow(
      /Dreaming is already running \(pid 1111/,
    );
    // The owner died without releasing: the next run takes the lock over.
    await expect(runDreaming(deps(fixture, { isAlive: () => false }))).resolves.toMatchObject({ promoted: [] });
    await held.release();
  });
});

describe('the recall log', () => {
  it('a run that writes drops recalls older than the look-back window, keeping newer and unreadable lines', async () => {
    fixture = await createMemoryFixture();
    const dir = join(fixture.workspace, 'memory', '.dreams');
    await mkdir(dir, { recursive: true });
    const entry = (day: string, query: string) =>
      JSON.stringify({ ts: 0, day, query, path: 'memory/x.md', line: 1, text: `note for ${query}`, score: 0.5 });
    const log = join(dir, 'recalls.jsonl');
    await writeFile(
      log,
      `${[entry('2026-09-01', 'ancient'), entry('2026-11-20', 'recent'), '{"torn', entry('2026-10-01', 'old')].join('\n')}\n`,
    );
    await runDreaming(deps(fixture));
    expect(await readFile(log, 'utf8')).toContain('ancient');
    await runDreaming(deps(fixture), { apply: true });
    const kept = await readFile(log, 'utf8');
    expect(kept).not.toContain('ancient');
    expect(kept).not.toContain('"old"');
    expect(kept).toContain('recent');
    expect(kept).toContain('{"torn');
  });
});
