import { workerData } from 'node:worker_threads';
import { writeCedictCache } from './cedict.js';

// Worker entry of `prepareCedictCache`: parses CC-CEDICT once and writes the cache, off the
// main thread. Nothing is sent back: the caller reads the cache file when this thread exits.
const { path, cacheDir } = workerData as { path: string; cacheDir: string };
await writeCedictCache(path, cacheDir);
