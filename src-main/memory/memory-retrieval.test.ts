import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createMemoryFixture, type MemoryFixture } from '../testing/memory-test-fixture.js';

// What issue 13 asks of retrieval, with the default configuration (minScore 0.15, 30-day
// half-life) on the offline embedder: age ranks, never hides; words, typos, synonyms and
// the other language find a note; the newer of two conflicting notes comes first.

let fixture: MemoryFixture | undefined;
afterEach(async () => {
  await fixture?.engine.close();
  fixture = undefined;
});

/** `count` recent days of routine notes that share the query's topic words but not its specifics. */
async function writeRoutineDays(target: MemoryFixture, count: number): Promise<void> {
  for (let day = 1; day <= count; day++) {
    const date = `2026-11-${String(day).padStart(2, '0')}`;
    await target.write(
      `memory/${date}.md`,
      [
        '## Work',
        '- 09:30 Standup: calsync board mostly green, two tickets waiting for review',
        `- 11:00 Reviewed pull request #${100 + day} in calsync, small fixes to the calendar sync`,
        '## Life',
        '- 19:00 Jonas cooked pasta, we watched an episode of Severance',
        '',
      ].join('\n'),
    );
  }
}

async function search(query: string, options: { k?: number; minScore?: number } = {}) {
  return fixture!.engine.search(query, { scope: fixture!.engine.defaultScope(), record: false, ...options });
}

describe('memory retrieval', () => {
  it('finds a ten-week-old exact match first, among a month of newer notes on the same project', async () => {
    fixture = await createMemoryFixture();
    await fixture.write(
      'memory/2026-09-20.md',
      '## Work\n- 10:12 calsync: PROPFIND on large calendars fails with XmlError(UnexpectedEof) in propfind.rs\n- 12:00 lunch with Anna\n',
    );
    await writeRoutineDays(fixture, 29);
    await fixture.engine.open();
    await fixture.engine.sync();
    const results = await search('XmlError UnexpectedEof in propfind.rs', { k: 5 });
    expect(results[0]).toMatchObject({ path: 'memory/2026-09-20.md', startLine: 2, endLine: 2 });
    // Age lowers the score a little; it never takes the note below minScore.
    expect(results[0]!.decay).toBeLessThan(0.25);
    expect(results[0]!.score).toBeGreaterThan(0.15);
    // Its parts find it too: the file name and the error variant alone.
    expect((await search('propfind.rs', { k: 3 }))[0]?.path).toBe('memory/2026-09-20.md');
    expect((await search('unexpected eof', { k: 3 }))[0]?.path).toBe('memory/2026-09-20.md');
  });

  it('never lets decay hide a note: a year-old note whose words appear nowhere else comes first', async () => {
    fixture = await createMemoryFixture();
    await fixture.write('memory/2025-10-02.md', '- 08:00 [fact] The storage unit code is 4417 at Lagerbox Spandau\n');
    await writeRoutineDays(fixture, 29);
    await fixture.engine.open();
    await fixture.engine.sync();
    const [first] = await search('storage unit code Lagerbox');
    expect(first).toMatchObject({ path: 'memory/2025-10-02.md' });
    expect(first!.decay).toBeLessThan(0.001);
  });

  it('puts the newer of two conflicting notes first, weeks apart', async () => {
    fixture = await createMemoryFixture();
    await fixture.write(
      'memory/2026-09-14.md',
      '- 19:10 [fact] Electricity contract with Vattenfall: €0.31/kWh, monthly advance €84\n',
    );
    await fixture.write(
      'memory/2026-10-12.md',
      '- 21:00 [fact] Switched electricity to Tibber: €0.27/kWh dynamic average, monthly fee €5.99\n',
    );
    await writeRoutineDays(fixture, 10);
    await fixture.engine.open();
    await fixture.engine.sync();
    for (const query of ['electricity price per kWh', 'electricity tariff']) {
      const paths = (await search(query, { k: 5 })).map((hit) => hit.path);
      expect(paths.indexOf('memory/2026-10-12.md'), query).toBeGreaterThanOrEqual(0);
      expect(paths.indexOf('memory/2026-10-12.md'), query).toBeLessThan(paths.indexOf('memory/2026-09-14.md'));
    }
  });

  it('answers a question for a value with the note that states one, though it lacks the question word', async () => {
    fixture = await createMemoryFixture();
    await fixture.write('memory/2026-09-16.md', '- 09:05 [fact] Daily standup is at 09:45 in the Fernsehturm room\n');
    await fixture.write('memory/2026-11-14.md', '- 09:00 [fact] Daily standup moves to 10:15 from next week\n');
    await fixture.write('memory/2026-11-15.md', '- 18:00 [fact] Bouldering membership at Boulderklub is €39 a month\n');
    await writeRoutineDays(fixture, 10);
    await fixture.engine.open();
    await fixture.engine.sync();
    const paths = (await search('standup time', { k: 5 })).map((hit) => hit.path);
    // Every day's notes mention the standup; the two that give its time come first, newer first.
    expect(paths.slice(0, 2)).toEqual(['memory/2026-11-14.md', 'memory/2026-09-16.md']);
    const cost = await search('how much does bouldering cost', { k: 3 });
    expect(cost[0]?.path).toBe('memory/2026-11-15.md');
  });

  it('puts a daily note that corrects a MEMORY.md line above it, and keeps an old exact value first', async () => {
    fixture = await createMemoryFixture();
    await fixture.write(
      'MEMORY.md',
      '# Memory\n\n## Work\n- On-call rotation is weekly, handover on Mondays at 10:00.\n',
    );
    await fixture.write(
      'memory/2026-11-12.md',
      '- 17:30 [fact] On-call handover moved to Tuesdays at 11:00 because of the new standup time\n',
    );
    await writeRoutineDays(fixture, 10);
    await fixture.engine.open();
    await fixture.engine.sync();
    const paths = (await search('when is the on-call handover', { k: 5 })).map((hit) => hit.path);
    expect(paths.indexOf('memory/2026-11-12.md')).toBeGreaterThanOrEqual(0);
    expect(paths.indexOf('memory/2026-11-12.md')).toBeLessThan(paths.indexOf('MEMORY.md'));
    // Asked for the old value itself, the line that has it comes first.
    expect((await search('handover Mondays 10:00', { k: 5 }))[0]?.path).toBe('MEMORY.md');
  });

  it('finds a Chinese-only note by Chinese words, by English, and an English note by a Chinese query', async () => {
    fixture = await createMemoryFixture();
    await fixture.write(
      'memory/2026-10-03.md',
      '## 生活\n- 11:00 给表弟陈浩转了 2000 元，他下个月还，用的是支付宝\n- 14:00 成都的牙医是华西口腔的李医生，洗牙一次 300 元\n',
    );
    await fixture.write(
      'memory/2026-09-15.md',
      '- 18:30 [entity] Dentist: Dr. Okafor at Zahnarztpraxis Mitte, phone 030 2847 1190\n',
    );
    await writeRoutineDays(fixture, 5);
    await fixture.engine.open();
    await fixture.engine.sync();
    expect((await search('支付宝转账'))[0]).toMatchObject({ path: 'memory/2026-10-03.md', startLine: 2 });
    expect((await search('洗牙多少钱'))[0]).toMatchObject({ path: 'memory/2026-10-03.md', startLine: 3 });
    // CC-CEDICT: 牙医 → dentist, and dentist → 牙医.
    const dentists = (await search('牙医', { k: 3 })).map((hit) => hit.path);
    expect(dentists).toEqual(expect.arrayContaining(['memory/2026-10-03.md', 'memory/2026-09-15.md']));
    expect((await search('dentist phone number', { k: 3 })).map((hit) => hit.path)).toContain('memory/2026-09-15.md');
  });

  it('tolerates typos and meets synonyms, ranking the note as written above them', async () => {
    fixture = await createMemoryFixture();
    await fixture.write(
      'memory/2026-11-20.md',
      '- [fact] Mom’s doctor changed her blood pressure medicine to amlodipine\n',
    );
    await fixture.write('memory/2026-11-21.md', '- [fact] The physician at the clinic is Dr. Brandt\n');
    await writeRoutineDays(fixture, 5);
    await fixture.engine.open();
    await fixture.engine.sync();
    expect((await search('amlodipin blod presure'))[0]?.path).toBe('memory/2026-11-20.md');
    // WordNet: physician ~ doctor. The note that says "physician" still comes first for "physician".
    const physician = (await search('physician', { k: 3 })).map((hit) => hit.path);
    expect(physician[0]).toBe('memory/2026-11-21.md');
    expect(physician).toContain('memory/2026-11-20.md');
    // The note's date is searchable as words: month and weekday.
    expect((await search('what did the doctor say in November about medicine'))[0]?.path).toBe('memory/2026-11-20.md');
  });

  it('finds one line deep inside a huge file, with its own line numbers', async () => {
    fixture = await createMemoryFixture();
    const lines = Array.from({ length: 15_000 }, (_, i) => `- routine entry ${i} about the weekly calsync review`);
    lines[12_345] = '- the spare key is taped under the third balcony planter';
    await fixture.write('memory/notes.md', `${lines.join('\n')}\n`);
    await fixture.engine.open();
    await fixture.engine.sync();
    const [hit] = await search('where is the spare key');
    expect(hit).toMatchObject({ path: 'memory/notes.md', startLine: 12_346, endLine: 12_346 });
    expect((await readFile(join(fixture.workspace, 'memory', 'notes.md'), 'utf8')).split('\n')[12_345]).toBe(
      hit!.snippet,
    );
  });

  it('rebuilds an index written with the previous search terms, from the notes', async () => {
    fixture = await createMemoryFixture();
    await fixture.write('memory/2026-11-20.md', '- the spare key is under the planter\n');
    await fixture.engine.open();
    await fixture.engine.sync();
    await fixture.engine.close();
    const metaPath = join(fixture.paths.memoryDbDir('main'), 'hearth-index.json');
    const meta = JSON.parse(await readFile(metaPath, 'utf8')) as Record<string, unknown>;
    delete meta.terms;
    await writeFile(metaPath, JSON.stringify(meta));
    const opened = await fixture.engine.open();
    expect(opened).toMatchObject({ needsSync: true, recovered: expect.stringContaining('search terms changed') });
    await fixture.engine.sync();
    expect((await search('spare key'))[0]?.path).toBe('memory/2026-11-20.md');
  });
});
