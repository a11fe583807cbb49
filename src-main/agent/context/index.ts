export { applyCompactionSummaries } from './apply-compactions.js';
export {
  buildTraceRecord,
  CACHE_TRACE_FILE,
  CACHE_TRACE_STAGES,
  type CacheTraceRecord,
  type CacheTraceSnapshot,
  type CacheTraceStage,
  type CacheTraceWriter,
  type CacheTraceWriterOptions,
  createCacheTraceWriter,
} from './cache-trace.js';
export { explainCacheTrace, readCacheTraceRecords, showCacheTrace } from './cache-trace-reader.js';
export { type CallTrace, createCallTrace } from './call-trace.js';
export { compactSession } from './compact-session.js';
export {
  type CompactHistoryOptions,
  type CompactionOutcome,
  type CompactionReason,
  compactHistory,
  DEFAULT_KEEP_RECENT_TURNS,
  SUMMARY_INSTRUCTIONS,
  type Summarizer,
} from './compaction.js';
export {
  type CompactionDecision,
  type CompactionPolicy,
  type CompactionPolicyOptions,
  ContextOverflowError,
  createCompactionPolicy,
  MAX_OVERFLOW_COMPACTIONS,
  TIMEOUT_COMPACTION_USAGE,
} from './compaction-policy.js';
export type {
  AssembledContext,
  ContextBudget,
  ContextEngine,
  ContextEngineDeps,
  ContextEngineFactory,
  MaintenanceReport,
  MemoryFlushTarget,
  SubagentEnded,
  SubagentSeed,
} from './context-engine.js';
export { subagentEndedNotice } from './context-engine.js';
export { type ContextEngineRegistry, createContextEngineRegistry } from './context-engine-registry.js';
export { type CollectedIdentifiers, collectIdentifiers, findMissingIdentifiers } from './identifiers.js';
export {
  LINEAR_CONTEXT_ENGINE_ID,
  LinearContextEngine,
  linearContextEngineFactory,
  validateBudget,
} from './linear-engine.js';
export { dailyMemoryPath, extractDurableFacts, flushDurableFacts, localDateStamp } from './memory-flush.js';
export {
  chooseOverflowRoute,
  computePromptBudget,
  MIN_PROMPT_TOKENS,
  type OverflowRoute,
  type PromptBudget,
  type PromptBudgetInput,
} from './prompt-budget.js';
export { redactSecrets } from './redact-secrets.js';
export { createRunContextHooks, type RunContextHooks } from './run-context-hooks.js';
export { createSdkSummarizer, renderTranscript } from './sdk-summarizer.js';
export {
  createSessionEngines,
  type SessionContext,
  type SessionEngines,
  type SessionEnginesDeps,
} from './session-engines.js';
export { createSettledTraceWriter } from './settled-trace-writer.js';
export { budgetWithFixedText } from './token-budget.js';
export {
  countRawTokens,
  estimateMessagesTokens,
  estimateMessageTokens,
  estimateTokens,
  TOKEN_SAFETY_MARGIN,
} from './token-estimate.js';
export {
  TOOL_RESULT_MAX_CHARS,
  TOOL_RESULT_MIN_HEAD_CHARS,
  toolResultCharLimit,
  truncateToolOutput,
  truncateToolResults,
} from './tool-result-truncation.js';
export { createTurnHooks, type TurnHooks, type TurnHooksDeps } from './turn-hooks.js';
export { fitNewestTurns, splitTurns } from './turns.js';
