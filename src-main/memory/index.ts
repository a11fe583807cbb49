export { type ActiveRecallDeps, createActiveRecall, type RecallRequest } from './active-recall.js';
export {
  type CaptureCategory,
  type CaptureDecision,
  type CaptureInput,
  classifyCapture,
  shouldCapture,
} from './capture.js';
export { DreamingLockedError, processIsAlive } from './dreaming/dream-lock.js';
export { DREAM_STALL_MS, type DreamOrigin, type DreamRunView } from './dreaming/dream-run.js';
export { DreamStallWatch, watchDreamRuns } from './dreaming/dream-run-watch.js';
export { DEEP_GATES, type DeepSignals, type DreamCandidate } from './dreaming/dream-signals.js';
export {
  analyse,
  type DreamIngestProgress,
  type DreamingDeps,
  type DreamSummary,
  runDreaming,
  type ScoredCandidate,
} from './dreaming/dreaming.js';
export { nextDreamingRun, scheduleDreaming } from './dreaming/dreaming-schedule.js';
export { ingestTranscripts, type TranscriptMessage } from './dreaming/transcript-ingest.js';
export { createEmbedder, type EmbedderDeps } from './embedders/create-embedder.js';
export { type Embedder, EmbedderError } from './embedders/embedder.js';
export { ensureEmbedderDimension } from './embedders/embedder-dimension.js';
export { type EmbedderSecretSource, requireEmbedderSecret } from './embedders/embedder-secret.js';
export { createHashedEmbedder } from './embedders/hashed-embedder.js';
export { LocalModels, type LocalModelsDeps } from './embedders/local-models.js';
export {
  BUILT_IN_MODELS,
  type CatalogueModel,
  DEFAULT_MODEL,
  findCatalogueModel,
  modelCatalogue,
} from './embedders/model-catalogue.js';
export {
  embedderConfigFor,
  embedderMergePatch,
  type InstalledModel,
  installModel,
  type ModelInstallProgress,
  readInstalledModel,
} from './embedders/model-install.js';
export { createOnnxEmbedder } from './embedders/onnx-embedder.js';
export { createProviderEmbedder, type ProviderEmbedderOptions } from './embedders/provider-embedder.js';
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
} from './memory-backend.js';
export {
  agentMemoryConfigSchema,
  type MemoryConfig,
  type MemoryConfigInput,
  type MemoryRecallOverride,
  memoryConfigSchema,
  parseMemoryConfig,
  type RecallStyle,
  recallConfigFor,
  scopeSettingsFor,
} from './memory-config.js';
export { MemoryEngine, type MemoryEngineDeps, type MemorySearchResult, type MemoryStatus } from './memory-engine.js';
export {
  dailyPath,
  listMemoryFiles,
  localDate,
  type MemoryFileEntry,
  readMemoryFile,
  writeMemoryFile,
} from './memory-files.js';
export type { IndexProgress, IndexReport } from './memory-index.js';
export { agentScope, type MemoryScope, resolveScope, resolveUserId, userScope } from './memory-scope.js';
export { MemoryService, type MemoryServiceDeps } from './memory-service.js';
export { createMemoryTools, type MemoryToolsOptions } from './memory-tools.js';
export { nodeWatchSource, shareWatchSource, type WatchSource, watchMemoryFiles } from './memory-watcher.js';
export { createModelRecall, type ModelRecallDeps } from './model-recall.js';
export {
  createAgentRewriters,
  createQueryRewriter,
  type QueryRewriter,
  type QueryRewriteUsage,
  searchRewritten,
} from './query-rewrite.js';
export { redactSecrets } from './redact-secrets.js';
/** The tokenizer memory's full-text index uses (Latin stems, CJK words and bigrams), for other full-text indexes. */
export { analyzeText, rawTokens } from './text-tokens.js';
