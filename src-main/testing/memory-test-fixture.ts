import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { lanceDbMemoryBackend } from '../../extensions/memory-lancedb/index.js';
import { silentLogger } from '../base/logger.js';
import type { Embedder } from '../memory/embedders/embedder.js';
import { createHashedEmbedder } from '../memory/embedders/hashed-embedder.js';
import { type MemoryConfigInput, parseMemoryConfig } from '../memory/memory-config.js';
import { MemoryEngine } from '../memory/memory-engine.js';
import { createHearthPaths, type HearthPaths } from '../paths/index.js';
import { createFakeClock, type FakeClock } from './fake-clock.js';

/** A temp HEARTH_HOME with a real LanceDB-backed engine: what memory tests build on (never shipped). */
export interface MemoryFixture {
  home: string;
  paths: HearthPaths;
  clock: FakeClock;
  engine: MemoryEngine;
  workspace: string;
  write(relativePath: string, text: string): Promise<void>;
}

/** 2026-11-30 10:00 local. */
export const FIXTURE_NOW = new Date(2026, 10, 30, 10, 0, 0).getTime();

export async function createMemoryFixture(
  options: { config?: MemoryConfigInput; agentId?: string; home?: string; embedder?: Embedder } = {},
): Promise<MemoryFixture> {
  const home = options.home ?? (await mkdtemp(join(tmpdir(), 'hearth-memory-')));
  const paths = createHearthPaths(home);
  const agentId = options.agentId ?? 'main';
  const clock = createFakeClock(FIXTURE_NOW);
  const workspace = paths.workspaceDir(agentId);
  const engine = new MemoryEngine({
    agentId,
    workspaceDir: workspace,
    dbDir: paths.memoryDbDir(agentId),
    backend: lanceDbMemoryBackend,
    embedder: options.embedder ?? createHashedEmbedder(384),
    config: parseMemoryConfig(options.config ?? {}),
    clock,
    log: silentLogger,
  });
  return {
    home,
    paths,
    clock,
    engine,
    workspace,
    async write(relativePath, text) {
      const absolute = join(workspace, relativePath);
      await mkdir(dirname(absolute), { recursive: true });
      await writeFile(absolute, text);
    },
  };
}
