import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createMemoryFixture, type MemoryFixture } from '../testing/memory-test-fixture.js';

let fixture: MemoryFixture | undefined;
afterEach(async () => {
  await fixture?.engine.close();
  fixture = undefined;
});

describe('memory engine', () => {
  it('indexes markdown files and finds notes by meaning, words and Chinese', async () => {
    fixture = await createMemoryFixture();
    await fixture.write(
      'MEMORY.md',
      '# About the user\n\n- Works as a nurse at the city hospital\n- Has a cat called Miso\n',
    );
    await fixture.write('memory/2026-11-28.md', '- 09:00 [preference] Prefers green tea over coffee in the morning\n');
    await fixture.write(
      'memory/2026-11-29.md',
      '- 10:00 [fact] 我喜欢吃四川火锅，周末常去\n- 11:00 [decision] Decided to move the dentist appointment to Friday\n',
    );
    await fixture.engine.open();
    const report = await fixture.engine.sync();
    expect(report.indexed).toBe(3);
    const scope = fixture.engine.defaultScope();

    const tea = await fixture.engine.search('favourite morning drink', { scope });
    expect(tea[0]?.path).toBe('memory/2026-11-28.md');
    const hotpot = await fixture.engine.search('火锅', { scope });
    expect(hotpot[0]?.path).toBe('memory/2026-11-29.md');
    expect(hotpot[0]?.textScore).toBeGreaterThan(0);
    const pet = await fixture.engine.search('name of the cat', { scope });
    expect(pet[0]).toMatchObject({ path: 'MEMORY.md', decay: 1 });
    const typo = await fixture.engine.search('dentsit apointment', { scope });
    expect(typo[0]?.snippet).toContain('dentist');
  });

  it('lets older daily notes decay while MEMORY.md stays evergreen', async () => {
    fixture = await createMemoryFixture();
    await fixture.write('memory/2026-10-01.md', '- The project codename is Bluebird\n');
    await fixture.write('memory/2026-11-29.md', '- The project codename is Bluebird\n');
    await fixture.engine.open();
    await fixture.engine.sync();
    const results = await fixture.engine.search('project codename Bluebird', {
      scope: fixture.engine.defaultScope(),
      minScore: 0,
    });
    expect(results.map((result) => result.path)[0]).toBe('memory/2026-11-29.md');
    const old = results.find((result) => result.path === 'memory/2026-10-01.md');
    expect(old?.decay).toBeLessThan(0.35);
  });

  it('follows hand edits and deletions on the next sync, and skips unchanged files', async () => {
    fixture = await createMemoryFixture();
    await fixture.write('memory/2026-11-29.md', '- Parking spot is B12\n');
    await fixture.engine.open();
    await fixture.engine.sync();
    await fixture.write('memory/2026-11-29.md', '- Parking spot is now C7\n');
    await fixture.write('MEMORY.md', '- Likes jazz\n');
    const second = await fixture.engine.sync();
    expect(second.indexed).toBe(2);
    const spot = await fixture.engine.search('parking spot', { scope: fixture.engine.defaultScope() });
    expect(spot[0]?.snippet).toContain('C7');
    const third = await fixture.engine.sync();
    expect(third.indexed).toBe(0);
  });

  it('records each search hit for Dreaming and appends captured notes to today', async () => {
    fixture = await createMemoryFixture();
    await fixture.engine.open();
    const scope = fixture.engine.defaultScope();
    const path = await fixture.engine.appendDaily(scope, 'Always book aisle seats on flights', {
      category: 'preference',
    });
    expect(path).toBe('memory/2026-11-30.md');
    await fixture.engine.sync();
    await fixture.engine.search('aisle seat', { scope });
    const recalls = await readFile(join(fixture.workspace, 'memory/.dreams/recalls.jsonl'), 'utf8');
    expect(JSON.parse(recalls.trim())).toMatchObject({
      query: 'aisle seat',
      day: '2026-11-30',
      text: 'Always book aisle seats on flights',
    });
    expect(await readFile(join(fixture.workspace, path), 'utf8')).toBe(
      '- 10:00 [preference] Always book aisle seats on flights\n',
    );
  });

  it('rejects bad search input with a clear message', async () => {
    fixture = await createMemoryFixture();
    await fixture.engine.open();
    const scope = fixture.engine.defaultScope();
    await expect(fixture.engine.search('  ', { scope })).rejects.toThrow(/non-empty query/);
    await expect(fixture.engine.search('x', { scope, k: 0 })).rejects.toThrow(/k must be 1..100/);
  });
});

describe('capture and /new archives', () => {
  it('captures a triggered user message into today with its category, and skips the rest', async () => {
    fixture = await createMemoryFixture();
    await fixture.engine.open();
    const scope = fixture.engine.defaultScope();
    expect(await fixture.engine.capture(scope, '我喜欢靠窗的座位，记住这个', 'user')).toMatchObject({
      capture: true,
      category: 'preference',
      path: 'memory/2026-11-30.md',
    });
    expect(await fixture.engine.capture(scope, 'I always prefer short answers', 'assistant')).toMatchObject({
      capture: false,
    });
    await fixture.engine.idle();
    expect(await readFile(join(fixture.workspace, 'memory/2026-11-30.md'), 'utf8')).toBe(
      '- 10:00 [preference] 我喜欢靠窗的座位，记住这个\n',
    );
    expect((await fixture.engine.search('靠窗的座位', { scope }))[0]?.path).toBe('memory/2026-11-30.md');
  });

  it('writes a /new archive as a dated, slugged file', async () => {
    fixture = await createMemoryFixture();
    await fixture.engine.open();
    const path = await fixture.engine.archiveSession(
      fixture.engine.defaultScope(),
      'Trip Planning!',
      '# Trip planning\n- Book Lisbon hotel',
    );
    expect(path).toBe('memory/2026-11-30-trip-planning.md');
    expect(await readFile(join(fixture.workspace, path), 'utf8')).toBe('# Trip planning\n- Book Lisbon hotel\n');
    await expect(fixture.engine.archiveSession(fixture.engine.defaultScope(), ' ', 'x')).rejects.toThrow(
      /needs a slug/,
    );
  });
});
