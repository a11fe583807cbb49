/**
 * Test support (never shipped): indexes a workspace in a child process and reports progress
 * on stdout, so a test can kill -9 it in the middle of indexing.
 * Usage: tsx memory-index-child.ts <hearthHome>
 */
import { lanceDbMemoryBackend } from '../../extensions/memory-lancedb/index.js';
import { systemClock } from '../base/clock.js';
import { silentLogger } from '../base/logger.js';
import { createHashedEmbedder } from '../memory/embedders/hashed-embedder.js';
import { parseMemoryConfig } from '../memory/memory-config.js';
import { MemoryEngine } from '../memory/memory-engine.js';
import { createHearthPaths } from '../paths/index.js';

const home = process.argv[2];
if (!home) throw new Error('usage: memory-index-child.ts <hearthHome>');
const paths = createHearthPaths(home);
const engine = new MemoryEngine({
  agentId: 'main',
  workspaceDir: paths.workspaceDir('main'),
  dbDir: paths.memoryDbDir('main'),
  backend: lanceDbMemoryBackend,
  embedder: createHashedEmbedder(384),
  config: parseMemoryConfig({}),
  clock: systemClock,
  log: silentLogger,
  onProgress: (progress) => process.stdout.write(`progress ${progress.done}/${progress.total}\n`),
});
await engine.open();
await engine.sync();
process.stdout.write('done\n');
await engine.close();
