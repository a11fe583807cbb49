import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as lancedb from '@lancedb/lancedb';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { MemoryChunkRow, MemoryIndexStore } from '../../src-main/plugins/sdk/memory.js';
import { createLanceDbStore } from './lancedb-store.js';

const DIMENSION = 16;

/** A deterministic unit vector per seed (a small LCG), so the test reads the same every run. */
function unitVector(seed: number): Float32Array {
  const vector = new Float32Array(DIMENSION);
  let state = seed * 2_654_435_761;
  let norm = 0;
  for (let i = 0; i < DIMENSION; i++) {
    state = (state * 1_103_515_245 + 12_345) % 2 ** 31;
    vector[i] = state / 2 ** 31 - 0.5;
    norm += vector[i]! * vector[i]!;
  }
  for (let i = 0; i < DIMENSION; i++) vector[i]! /= Math.sqrt(norm);
  return vector;
}

function row(n: number, scope: string): MemoryChunkRow {
  return {
    id: `r${n}`,
    path: `memory/note-${n}.md`,
    scope,
    agent: 'main',
    date: '',
    category: 'fact',
    heading: `note ${n}`,
    startLine: n,
    endLine: n + 1,
    text: `note number ${n}`,
    ftsText: `note number ${n}`,
    fileHash: `h${n}`,
    embedder: 'test',
    vector: unitVector(n + 1),
  };
}

let dir: string;
let store: MemoryIndexStore;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'hearth-lancedb-'));
  store = createLanceDbStore({ dir, dimension: DIMENSION });
  await store.open();
});

afterEach(async () => {
  await store.close();
  await rm(dir, { recursive: true, force: true });
});

/** The same query made by LanceDB itself, as the store makes it for a big table. */
async function lanceNearest(vector: Float32Array, scope: string, limit: number) {
  const db = await lancedb.connect(dir);
  const table = await db.openTable('chunks');
  try {
    const rows = (await table
      .vectorSearch(Array.from(vector))
      .distanceType('dot')
      .where(`scope = '${scope}'`)
      .select(['id', '_distance'])
      .limit(limit)
      .toArray()) as { id: string; _distance: number }[];
    return rows.map((hit) => ({ id: hit.id, score: 1 - hit._distance }));
  } finally {
    table.close();
    db.close();
  }
}

describe('LanceDB memory store', () => {
  it('answers a small table from memory with the rows and scores LanceDB finds', async () => {
    await store.addRows(Array.from({ length: 30 }, (_, n) => row(n, n % 3 === 0 ? 'user:alice' : 'agent:main')));
    for (const seed of [101, 202, 303]) {
      const query = unitVector(seed);
      const hits = await store.vectorSearch(query, { scope: 'agent:main', limit: 8 });
      const expected = await lanceNearest(query, 'agent:main', 8);
      expect(hits.map((hit) => hit.row.id)).toEqual(expected.map((hit) => hit.id));
      for (const [index, hit] of hits.entries()) expect(hit.score).toBeCloseTo(expected[index]!.score, 5);
      // As LanceDB's query selects them: every column but the vector.
      expect(hits[0]!.row).toMatchObject({ scope: 'agent:main', path: expect.stringMatching(/^memory\//) });
      expect(hits.every((hit) => hit.row.vector.length === 0)).toBe(true);
    }
  });

  it('sees every write: added rows are found, deleted files are gone, a reset empties it', async () => {
    await store.addRows([row(1, 'agent:main'), row(2, 'agent:main')]);
    // row(n)'s vector is unitVector(n + 1): this is r3's own direction.
    const query = unitVector(4);
    expect(
      (await store.vectorSearch(query, { scope: 'agent:main', limit: 10 })).map((hit) => hit.row.id).sort(),
    ).toEqual(['r1', 'r2']);
    await store.addRows([row(3, 'agent:main')]);
    const afterAdd = await store.vectorSearch(query, { scope: 'agent:main', limit: 10 });
    expect(afterAdd[0]!.row.id).toBe('r3');
    expect(afterAdd[0]!.score).toBeCloseTo(1, 5);
    await store.deleteFiles(['memory/note-3.md']);
    expect(
      (await store.vectorSearch(query, { scope: 'agent:main', limit: 10 })).map((hit) => hit.row.id).sort(),
    ).toEqual(['r1', 'r2']);
    expect(await store.vectorSearch(query, { scope: 'user:bob', limit: 10 })).toEqual([]);
    await store.reset();
    expect(await store.vectorSearch(query, { scope: 'agent:main', limit: 10 })).toEqual([]);
  });
});
