import { existsSync } from 'node:fs';
import { mkdir, readFile, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createMemoryFixture, type MemoryFixture } from '../../testing/memory-test-fixture.js';
import { runDreaming } from './dreaming.js';
import { promotionAppend } from './promotion-block.js';
import { listPending, readPending, reviewPending } from './promotion-review.js';

let fixture: MemoryFixture | undefined;
afterEach(async () => {
  await fixture?.engine.close();
  fixture = undefined;
});

const MINE = '# Memory\n\nWritten by me, by hand.\n';
const NOTES = '- 09:00 [preference] Prefers oat milk in coffee\n- 09:05 [fact] The office wifi is Hearth-5G\n';

/** A workspace whose two notes have been recalled often enough, by enough queries, to pass the gates. */
async function recalledWorkspace(options: { recalled?: boolean } = {}) {
  fixture = await createMemoryFixture();
  await fixture.write('MEMORY.md', MINE);
  await fixture.write('memory/2026-11-29.md', NOTES);
  await fixture.engine.open();
  if (options.recalled === false) return fixture;
  const entries: string[] = [];
  const recall = (text: string, line: number, queries: string[]) => {
    for (const [i, day] of ['2026-11-28', '2026-11-29', '2026-11-30'].entries())
      for (const query of queries)
        entries.push(JSON.stringify({ ts: i, day, query, path: 'memory/2026-11-29.md', line, text, score: 0.9 }));
  };
  recall('Prefers oat milk in coffee', 1, ['oat milk', 'coffee order']);
  recall('The office wifi is Hearth-5G', 2, ['wifi password', 'office network']);
  await mkdir(join(fixture.workspace, 'memory/.dreams'), { recursive: true });
  await writeFile(join(fixture.workspace, 'memory/.dreams/recalls.jsonl'), `${entries.join('\n')}\n`);
  return fixture;
}

function deps(f: MemoryFixture) {
  return {
    workspaceDir: f.workspace,
    scope: f.engine.defaultScope(),
    embedder: f.engine.deps.embedder,
    now: () => f.clock.now(),
    lock: { pid: 4242, now: () => f.clock.now(), isAlive: () => false },
  };
}

function reviewDeps(f: MemoryFixture) {
  return {
    workspaceDir: f.workspace,
    scope: f.engine.defaultScope(),
    now: () => f.clock.now(),
    day: () => '2026-11-30',
  };
}

const memoryOf = (f: MemoryFixture) => readFile(join(f.workspace, 'MEMORY.md'), 'utf8');

describe('Dreaming in review mode', () => {
  it('a review run changes nothing the person wrote until approved; approve writes exactly that one', async () => {
    const f = await recalledWorkspace();
    const before = await stat(join(f.workspace, 'MEMORY.md'));
    const summary = await runDreaming(deps(f), { mode: 'review' });
    expect(summary.mode).toBe('review');
    expect(summary.promoted).toEqual([]);
    expect(summary.queued.map((c) => c.text).sort()).toEqual([
      'Prefers oat milk in coffee',
      'The office wifi is Hearth-5G',
    ]);
    expect(await memoryOf(f)).toBe(MINE);
    expect((await stat(join(f.workspace, 'MEMORY.md'))).mtimeMs).toBe(before.mtimeMs);
    expect(existsSync(join(f.workspace, 'DREAMS.md'))).toBe(false);

    // Each candidate is shown as the diff approving it would make.
    const pending = await listPending(reviewDeps(f));
    const oat = pending.find((c) => c.text === 'Prefers oat milk in coffee')!;
    expect(oat.id).toMatch(/^[0-9a-f]{8}$/);
    expect(oat.rebased).toBe(false);
    expect(oat.diff).toBe(
      [
        '--- MEMORY.md',
        '+++ MEMORY.md',
        '@@ -1,3 +1,7 @@',
        ' # Memory',
        ' ',
        ' Written by me, by hand.',
        '+',
        '+## Promoted by Dreaming — 2026-11-30',
        '+',
        '+- Prefers oat milk in coffee',
      ].join('\n'),
    );

    const outcome = await reviewPending(reviewDeps(f), { approve: [oat.id] });
    expect(outcome).toEqual({
      approved: [{ id: oat.id, text: 'Prefers oat milk in coffee' }],
      rejected: [],
      refused: [],
      rebased: false,
    });
    expect(await memoryOf(f)).toBe(`${MINE}\n## Promoted by Dreaming — 2026-11-30\n\n- Prefers oat milk in coffee\n`);
    // The other one still waits, and survives a restart (it lives on disk).
    expect((await readPending(f.workspace, f.engine.defaultScope())).candidates.map((c) => c.text)).toEqual([
      'The office wifi is Hearth-5G',
    ]);
    // Approved the next day's way: the second joins the same day's section, no new heading.
    const wifi = (await listPending(reviewDeps(f)))[0]!;
    await reviewPending(reviewDeps(f), { approve: [wifi.id] });
    expect(await memoryOf(f)).toBe(
      `${MINE}\n## Promoted by Dreaming — 2026-11-30\n\n- Prefers oat milk in coffee\n- The office wifi is Hearth-5G\n`,
    );
    expect(await listPending(reviewDeps(f))).toEqual([]);
  });

  it('reject removes the candidate, and no later run proposes it again', async () => {
    const f = await recalledWorkspace();
    await runDreaming(deps(f), { mode: 'review' });
    const wifi = (await listPending(reviewDeps(f))).find((c) => c.text.includes('wifi'))!;
    const outcome = await reviewPending(reviewDeps(f), { reject: [wifi.id] });
    expect(outcome.rejected).toEqual([{ id: wifi.id, text: 'The office wifi is Hearth-5G' }]);
    expect((await listPending(reviewDeps(f))).map((c) => c.text)).toEqual(['Prefers oat milk in coffee']);
    expect(await memoryOf(f)).toBe(MINE);
    const again = await runDreaming(deps(f), { mode: 'review' });
    expect(again.queued.map((c) => c.text)).toEqual(['Prefers oat milk in coffee']);
    expect((await listPending(reviewDeps(f))).map((c) => c.text)).toEqual(['Prefers oat milk in coffee']);
  });

  it('MEMORY.md edited since the candidate was made: the diff re-bases, the edit stays, the note goes after it', async () => {
    const f = await recalledWorkspace();
    await runDreaming(deps(f), { mode: 'review' });
    const edited = `${MINE}- Another line I added later\n`;
    await writeFile(join(f.workspace, 'MEMORY.md'), edited);
    const oat = (await listPending(reviewDeps(f))).find((c) => c.text.includes('oat'))!;
    expect(oat.rebased).toBe(true);
    expect(oat.diff).toContain(' - Another line I added later\n+\n+## Promoted by Dreaming');
    const outcome = await reviewPending(reviewDeps(f), { approve: [oat.id] });
    expect(outcome.rebased).toBe(true);
    expect(await memoryOf(f)).toBe(`${edited}${promotionAppend(edited, ['Prefers oat milk in coffee'], '2026-11-30')}`);
    expect((await memoryOf(f)).startsWith(edited)).toBe(true);
  });

  it('refuses clearly: an unknown id, a note already written by hand, a note deleted from its daily file', async () => {
    const f = await recalledWorkspace();
    await runDreaming(deps(f), { mode: 'review' });
    const pending = await listPending(reviewDeps(f));
    const oat = pending.find((c) => c.text.includes('oat'))!;
    const wifi = pending.find((c) => c.text.includes('wifi'))!;
    await expect(reviewPending(reviewDeps(f), { approve: ['deadbeef'] })).rejects.toThrow(
      new RegExp(`no pending candidate deadbeef \\(pending: ${oat.id === pending[0]!.id ? oat.id : wifi.id}, `),
    );
    await expect(reviewPending(reviewDeps(f), { approve: [oat.id], reject: [oat.id] })).rejects.toThrow(
      /cannot be both approved and rejected/,
    );
    const byHand = `${MINE}- Prefers oat milk in coffee\n`;
    await writeFile(join(f.workspace, 'MEMORY.md'), byHand);
    await writeFile(join(f.workspace, 'memory/2026-11-29.md'), '- 09:00 [preference] Prefers oat milk in coffee\n');
    const outcome = await reviewPending(reviewDeps(f), { approve: [oat.id, wifi.id] });
    expect(outcome.approved).toEqual([]);
    expect(outcome.refused).toEqual([
      { id: oat.id, reason: 'already in MEMORY.md; nothing written' },
      { id: wifi.id, reason: 'no longer in memory/2026-11-29.md; nothing written' },
    ]);
    expect(await memoryOf(f)).toBe(byHand);
  });

  it('auto-apply stays an option and appends only', async () => {
    const f = await recalledWorkspace();
    const summary = await runDreaming(deps(f), { mode: 'apply' });
    expect(summary.promoted.sort()).toEqual(['Prefers oat milk in coffee', 'The office wifi is Hearth-5G']);
    expect((await memoryOf(f)).startsWith(MINE)).toBe(true);
    expect(await listPending(reviewDeps(f))).toEqual([]);
  });
});

describe('a run that finds nothing', () => {
  it('writes nothing in any mode: no report, no diary, no queue, MEMORY.md untouched', async () => {
    const f = await recalledWorkspace({ recalled: false });
    const before = await stat(join(f.workspace, 'MEMORY.md'));
    for (const mode of ['preview', 'review', 'apply'] as const) {
      const summary = await runDreaming(deps(f), { mode });
      expect(summary.promoted).toEqual([]);
      expect(summary.queued).toEqual([]);
    }
    expect((await stat(join(f.workspace, 'MEMORY.md'))).mtimeMs).toBe(before.mtimeMs);
    expect(await memoryOf(f)).toBe(MINE);
    for (const path of ['DREAMS.md', 'memory/dreaming', 'memory/.dreams/pending.json'])
      expect(existsSync(join(f.workspace, path)), path).toBe(false);
  });
});
