import type { MemoryBackend } from '../../memory/memory-backend.js';
import type { Contribution, PluginServiceContext } from './contributions.js';

// SDK types for memory backends (src-main/memory). Type-only re-exports from the capability:
// extensions still see only the SDK.
export type {
  BackendFileEntry,
  BackendHit,
  BackendOpenReport,
  BackendQuery,
  MemoryBackend,
  MemoryChunkRow,
  MemoryIndexStore,
  MemoryIndexStoreOptions,
  TextQueryClause,
} from '../../memory/memory-backend.js';
export type MemoryBackendService = MemoryBackend;
export type MemoryBackendContribution = Contribution<MemoryBackendService, PluginServiceContext>;
