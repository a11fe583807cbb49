import type { ContextEngineFactory } from '../../agent/context/index.js';
import type { Contribution, PluginServiceContext } from './contributions.js';

// SDK surface for context engines (src-main/agent/context). A context-engine plugin contributes a
// `ContextEngineService`: a factory the host calls once per session with `ContextEngineDeps`.
// Agents pick an engine by id in config (`agents.<id>.contextEngine`, default "linear").
export type ContextEngineService = ContextEngineFactory;
export type ContextEngineContribution = Contribution<ContextEngineService, PluginServiceContext>;

export type {
  AssembledContext,
  CompactionOutcome,
  CompactionReason,
  ContextBudget,
  ContextEngine,
  ContextEngineDeps,
  ContextEngineFactory,
  MaintenanceReport,
  OverflowRoute,
  SubagentEnded,
  SubagentSeed,
  Summarizer,
} from '../../agent/context/index.js';
// The building blocks an engine needs to honour the same budgets and compaction guarantees as the default one.
export {
  chooseOverflowRoute,
  compactHistory,
  compactSession,
  estimateMessagesTokens,
  estimateMessageTokens,
  estimateTokens,
  flushDurableFacts,
  LinearContextEngine,
  splitTurns,
  subagentEndedNotice,
  truncateToolResults,
} from '../../agent/context/index.js';
export type {
  AgentMessage,
  CompactionSummaryMessage,
  ToolResultMessage,
  UserMessage,
} from '../../transcript/index.js';
