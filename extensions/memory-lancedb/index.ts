import { definePlugin } from '../../src-main/plugins/sdk/index.js';
import type { MemoryBackend } from '../../src-main/plugins/sdk/memory.js';
import { createLanceDbStore } from './lancedb-store.js';

/** The default memory backend: one LanceDB table per agent (vectors + BM25 full-text + metadata). */
export const lanceDbMemoryBackend: MemoryBackend = {
  id: 'memory-lancedb',
  openStore: async (options) => createLanceDbStore(options),
};

export default definePlugin({
  id: 'memory-lancedb',
  name: 'LanceDB memory',
  register(api) {
    api.registerMemoryBackend({
      id: 'memory-lancedb',
      description: 'Vectors, BM25 full-text and metadata in a LanceDB table per agent',
      create: () => lanceDbMemoryBackend,
    });
  },
});
