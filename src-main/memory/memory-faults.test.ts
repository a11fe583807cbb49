import { spawn } from 'node:child_process';
import { createWriteStream } from 'node:fs';
import { readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { lanceDbMemoryBackend } from '../../extensions/memory-lancedb/index.js';
import { silentLogger } from '../base/logger.js';
import { createMemoryFixture, type MemoryFixture } from '../testing/memory-test-fixture.js';
import { createHashedEmbedder } from './embedders/hashed-embedder.js';
import { chunkMarkdownFile } from './markdown-chunker.js';
import { MemoryIndexer } from './memory-index.js';

let fixture: MemoryFixture | undefined;
afterEach(async () => {
  await fixture?.engine.close();
  fixture = undefined;
});

const here = fileURLToPath(new URL('.', import.meta.url));

async function walk(dir: string): Promise<string[]> {
  const out: string[] = [];
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...(await walk(path)));
    else out.push(path);
  }
  return out;
}

describe('memory faults', () => {
  it('an indexer killed with SIGKILL mid-run leaves an index that is detected and completed from markdown', async () => {
    fixture = await createMemoryFixture();
    for (let day = 1; day <= 40; day++) {
      const lines = Array.from(
        { length: 60 },
        (_, i) => `- note ${i} of day ${day}: the quarterly ledger item ${day * 100 + i}`,
      );
      await fixture.write(
        `memory/2026-10-${String((day % 28) + 1).padStart(2, '0')}-s${day}.md`,
        `${lines.join('\n')}\n`,
      );
    }
    await fixture.write('memory/2026-11-29.md', '- The spare key is under the blue flowerpot\n');
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', join(here, '..', 'testing', 'memory-index-child.ts'), fixture.home],
      {
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    const killed = await new Promise<boolean>((resolve) => {
      let seen = 0;
      child.stdout.on('data', (data: Buffer) => {
        seen += (data.toString().match(/progress/g) ?? []).length;
        if (seen >= 3 && child.exitCode === null) {
          child.kill('SIGKILL');
          resolve(true);
        }
        if (data.toString().includes('done')) resolve(false);
      });
      child.on('exit', () => resolve(false));
    });
    expect(killed).toBe(true);
    await new Promise((resolve) => child.once('exit', resolve));

    const opened = await fixture.engine.open();
    expect(opened.needsSync).toBe(true);
    await fixture.engine.sync();
    const status = await fixture.engine.status();
    expect(status.files).toBe(41);
    const hits = await fixture.engine.search('where is the spare key', { scope: fixture.engine.defaultScope() });
    expect(hits[0]?.path).toBe('memory/2026-11-29.md');
  }, 60_000);

  it('a sync that dies between two commits of one file redoes that whole file next time', async () => {
    fixture = await createMemoryFixture();
    const lines = Array.from({ length: 120 }, (_, i) => `- entry ${i}: the harbour ferry timetable note number ${i}`);
    lines.push('- The last line: the violin teacher moved the lesson to Thursday');
    await fixture.write('memory/2026-11-20.md', `${lines.join('\n')}\n`);
    const path = join(fixture.workspace, 'memory/2026-11-20.md');
    let expectedChunks = 0;
    for await (const _ of chunkMarkdownFile(path)) expectedChunks++;
    expect(expectedChunks).toBeGreaterThan(3);

    // The real LanceDB store, made to fail after its first commit: the process "dies" there.
    const embedder = createHashedEmbedder(384);
    const store = await lanceDbMemoryBackend.openStore({ dir: fixture.paths.memoryDbDir('main'), dimension: 384 });
    await store.open();
    let commits = 0;
    const dying = Object.create(store, {
      addRows: {
        value: async (rows: Parameters<typeof store.addRows>[0]) => {
          if (++commits > 1) throw new Error('process killed');
          await store.addRows(rows);
        },
      },
    }) as typeof store;
    const indexer = new MemoryIndexer({
      agentId: 'main',
      workspaceDir: fixture.workspace,
      dbDir: fixture.paths.memoryDbDir('main'),
      store: dying,
      embedder,
      log: silentLogger,
      batches: { embed: 2, write: 2 },
    });
    await expect(indexer.sync()).rejects.toThrow('process killed');
    const partial = (await store.files()).find((file) => file.path === 'memory/2026-11-20.md');
    expect(partial?.chunks).toBe(2);
    await store.close();

    const opened = await fixture.engine.open();
    expect(opened.needsSync).toBe(true);
    await fixture.engine.sync();
    const status = await fixture.engine.status();
    expect(status.chunks).toBe(expectedChunks);
    const hits = await fixture.engine.search('violin lesson day', { scope: fixture.engine.defaultScope() });
    // The last chunk (the one the crash cut off) is back: it ends on the violin line, line 121.
    expect(hits[0]).toMatchObject({ path: 'memory/2026-11-20.md', endLine: 121 });
  });

  it('a corrupt table is detected on open and rebuilt from the markdown files', async () => {
    fixture = await createMemoryFixture();
    await fixture.write('MEMORY.md', '- Blood type is O negative\n');
    await fixture.engine.open();
    await fixture.engine.sync();
    await fixture.engine.close();
    const dataFiles = (await walk(fixture.paths.memoryDbDir('main'))).filter(
      (path) => path.endsWith('.lance') || path.endsWith('.manifest'),
    );
    expect(dataFiles.length).toBeGreaterThan(0);
    for (const path of dataFiles) await writeFile(path, 'garbage, not lance');

    const opened = await fixture.engine.open();
    expect(opened.recovered).toMatch(/unreadable|rebuilt|reset/);
    await fixture.engine.sync();
    const hits = await fixture.engine.search('blood type', { scope: fixture.engine.defaultScope() });
    expect(hits[0]?.path).toBe('MEMORY.md');
  });

  it('a malformed daily file is indexed as far as it parses and the problem is reported', async () => {
    fixture = await createMemoryFixture();
    await fixture.write(
      'memory/2026-11-28.md',
      '- Good line about the violin lesson\n\u0000\u0001binary junk\n- After the junk\n',
    );
    await fixture.engine.open();
    const report = await fixture.engine.sync();
    expect(report.issues).toEqual([
      { path: 'memory/2026-11-28.md', line: 2, reason: 'binary or invalid UTF-8 content; indexing stopped here' },
    ]);
    expect((await fixture.engine.search('violin lesson', { scope: fixture.engine.defaultScope() }))[0]?.path).toBe(
      'memory/2026-11-28.md',
    );
    expect((await fixture.engine.status()).issues).toHaveLength(1);
  });

  it('chunks a huge file from a stream with headings as context', async () => {
    fixture = await createMemoryFixture();
    const path = join(fixture.workspace, 'huge.md');
    await fixture.write('huge.md', '');
    const stream = createWriteStream(path);
    for (let section = 0; section < 200; section++) {
      stream.write(`# Section ${section}\n`);
      for (let line = 0; line < 100; line++)
        stream.write(`line ${line} of section ${section} with some words to fill the chunk budget\n`);
    }
    await new Promise((resolve) => stream.end(resolve));
    let chunks = 0;
    let maxLines = 0;
    let last = { heading: '', startLine: 0 };
    for await (const chunk of chunkMarkdownFile(path)) {
      chunks++;
      maxLines = Math.max(maxLines, chunk.endLine - chunk.startLine + 1);
      last = chunk;
    }
    expect(chunks).toBeGreaterThan(200);
    expect(maxLines).toBeLessThan(40);
    expect(last.heading).toBe('Section 199');
  });
});
