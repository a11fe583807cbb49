export { type AllowAlwaysScope, allowAlwaysEntries } from './allow-always.js';
export { type AllowlistStore, approvalsFilePath, openAllowlistStore } from './allowlist-store.js';
export {
  type AnalysisSummary,
  type AnalyzedCommand,
  type AnalyzeOptions,
  type CommandAnalysis,
  type Finding,
  type Reason,
  summariseAnalysis,
} from './analysis-types.js';
export {
  type ApprovalChoice,
  answerOf,
  approvalChoices,
  isDestructive,
  SCOPE_SHORT,
  scopeSentence,
  scopesNamed,
} from './approval-choices.js';
export {
  type ApprovalHistory,
  type ApprovalHistoryEntry,
  approvalsHistoryPath,
  createApprovalHistory,
} from './approval-history.js';
export { type ReasonLanguage, reasonSentence, reasonSentences } from './approval-reason-words.js';
export {
  type ApprovalEventSink,
  ApprovalService,
  type ApprovalServiceDeps,
  type SessionGrant,
} from './approval-service.js';
export { type AllowlistSuggestion, suggestAllowlist } from './approval-suggest.js';
export {
  type AlwaysScope,
  type ApprovalAnswer,
  type ApprovalDecision,
  type ApprovalGate,
  type ApprovalInput,
  type ApprovalPrompter,
  type ApprovalRequest,
  type ApprovalResolution,
  type ApprovalSubject,
  alwaysScopes,
  approvalDecisions,
  approvalView,
} from './approval-types.js';
export {
  type ApproveCommand,
  type ApproveCommandReply,
  answerApproveCommand,
  parseApproveCommand,
} from './approve-command.js';
export { type BashParser, BashParserNotReadyError, lazyBashParser, loadBashParser } from './bash-parser.js';
export { buildChildEnv } from './child-env.js';
export { analyseCommand } from './command-analysis.js';
export { type CheckResult, type CommandChecker, createCommandChecker, loadCommandChecker } from './command-checker.js';
export { createCommandScreen, type ScreenPlace } from './command-screen.js';
export { createExecCapability, type ExecCapability, type ExecCapabilityDeps } from './exec-capability.js';
export {
  defaultExecConfig,
  type ExecConfig,
  type ExecSandboxConfig,
  execConfigSchema,
  execSandboxConfigSchema,
  type SmartApprovalConfig,
  smartApprovalConfigSchema,
} from './exec-config.js';
export {
  type ExecCaller,
  ExecHost,
  type ExecHostDeps,
  type ExecOutcome,
  type ExecRequest,
} from './exec-host.js';
export {
  type AllowlistEntry,
  allowlistEntrySchema,
  defaultExecPolicy,
  type ExecDecision,
  type ExecPolicy,
  execPolicySchema,
} from './exec-policy.js';
export { createExecTool, execToolInputSchema, formatOutcome } from './exec-tool.js';
export { rulesFromOlderPermissionFiles } from './older-permission-files.js';
export { OutputBuffer } from './output-buffer.js';
export {
  createFsExecutableCheck,
  createPathResolver,
  type PathResolver,
  type PathResolverDeps,
} from './path-resolver.js';
export {
  type NewPermissionRule,
  type PermissionRule,
  PermissionStore,
  permissionsFilePath,
} from './permission-store.js';
export { type EvaluateOptions, evaluatePolicy, type PolicyVerdict } from './policy-evaluator.js';
export { loadPolicyFile, parsePolicyText } from './policy-file.js';
export { type RunDeps, type RunResult, type RunSpec, runProcess, type SpawnFn } from './process-runner.js';
export { type PtyExit, PtySession, type PtySessionOptions, type PtySpawnFn } from './pty-session.js';
export { alwaysScopesFor, gradeRisk, type RiskGrade, type RiskLevel } from './risk-grade.js';
export {
  createBubblewrapSandbox,
  createDockerSandbox,
  createLocalSandbox,
  type Sandbox,
  type SandboxCommand,
  type SandboxDeps,
  type SandboxLaunch,
} from './sandbox.js';
export { type PreflightDeps, type PreflightIssue, preflightScripts } from './script-preflight.js';
export { sensitiveHomePaths } from './sensitive-reads.js';
export {
  buildJudgePrompt,
  createSmartTriage,
  parseVerdict,
  type SmartJudge,
  type SmartTriageDeps,
  type SmartVerdict,
  stripComments,
} from './smart-approval.js';
export {
  type TerminalEventSink,
  type TerminalInfo,
  TerminalManager,
  type TerminalManagerDeps,
  type TerminalOpenOptions,
  UnknownTerminalError,
} from './terminal-manager.js';
