import type { CronJobInput } from '../cron/index.js';
import type { ProviderEntry } from '../providers/index.js';
import type { Binding } from '../sessions/index.js';
import type { AgentMessage } from '../transcript/index.js';
import type { ImportReason, NoImportReason } from './import-reasons.js';

/** Where a person may come from. */
export const importSources = ['openclaw', 'hermes'] as const;
export type ImportSource = (typeof importSources)[number];

/**
 * What a reader found in another tool's folder, already in Hearth's terms. Readers only read:
 * deciding what is new, present or in conflict is the plan's job (plan-import.ts).
 */
export interface ImportInventory {
  source: ImportSource;
  /** The folder read (e.g. ~/.openclaw). */
  from: string;
  workspaceFiles: WorkspaceFileFound[];
  sessions: SessionFound[];
  providers: ProviderFound[];
  credentials: CredentialFound[];
  /** `agents.defaults.model` of Hearth. */
  defaultModel?: { primary: string; fallbacks: string[]; origin: string };
  agents: AgentFound[];
  bindings: BindingFound[];
  cronJobs: CronJobFound[];
  allowlist: AllowlistFound[];
  /** Found but not importable (a malformed file, an unsupported kind): reported, never fatal. */
  skipped: SkippedFound[];
}

export interface WorkspaceFileFound {
  agentId: string;
  /** Relative to the agent's workspace, `/`-separated (`SOUL.md`, `memory/2026-05-07.md`). */
  relPath: string;
  /** Absolute path of the source file. */
  sourcePath: string;
}

export interface SessionFound {
  agentId: string;
  /** The other tool's session id; the Hearth key is derived from it, so a second run finds it. */
  sourceId: string;
  /** The other tool's session key or channel, shown in the report. */
  sourceKey?: string;
  sourcePath: string;
  title?: string;
  messages: AgentMessage[];
  /** Lines that were not messages Hearth keeps (tool-less events, malformed lines). */
  droppedLines: number;
  malformedLines: number;
}

export interface ProviderFound {
  id: string;
  entry: ProviderEntry;
  origin: string;
}

export interface CredentialFound {
  /** Hearth auth profile id. */
  profileId: string;
  provider: string;
  type: 'api_key' | 'token';
  secret: string;
  /** Where it was read (file and key name), never the value. */
  origin: string;
}

export interface AgentFound {
  id: string;
  name?: string;
  model?: string | { primary: string; fallbacks: string[] };
  default?: boolean;
  origin: string;
}

export interface BindingFound {
  binding: Binding;
  origin: string;
}

export interface CronJobFound {
  input: CronJobInput & { name: string; message: string; schedule: string };
  origin: string;
  /** Set when the job cannot be brought over as it is (e.g. a one-shot time that passed). */
  note?: string;
}

export interface AllowlistFound {
  agentId: string;
  pattern: string;
  origin: string;
}

/** Why it is skipped is a coded reason (import-reasons.ts), worded in the person's language by the Control UI. */
export type SkippedFound = { kind: ImportItemKind; what: string } & ImportReason;

export const importItemKinds = [
  'workspace-file',
  'session',
  'provider',
  'credential',
  'model',
  'agent',
  'binding',
  'cron-job',
  'allowlist',
  'other',
] as const;
export type ImportItemKind = (typeof importItemKinds)[number];

/**
 * `import`: new, will be brought over. `present`: Hearth already has the same (a second run).
 * `conflict`: Hearth has something different under that name, which is kept. `skipped`: cannot
 * be imported, `reason` says why. After apply: `imported` or `failed`.
 */
export type ImportItemStatus = 'import' | 'present' | 'conflict' | 'skipped' | 'imported' | 'failed';

interface ImportItemFields {
  kind: ImportItemKind;
  /** What it becomes in Hearth (a file of a workspace, a session key, a profile id). */
  target: string;
  /** Where it came from (a file, a key of a file). */
  origin: string;
  status: ImportItemStatus;
}

/**
 * One line of the report. A reason comes only as a whole coded reason (code, params and English
 * sentence, from `importReason`), so a new reason without a code does not build.
 */
export type ImportItem = ImportItemFields & (ImportReason | NoImportReason);

export interface ImportReport {
  source: ImportSource;
  from: string;
  applied: boolean;
  items: ImportItem[];
  counts: Record<ImportItemStatus, number>;
}

export function countItems(items: readonly ImportItem[]): Record<ImportItemStatus, number> {
  const counts: Record<ImportItemStatus, number> = {
    import: 0,
    present: 0,
    conflict: 0,
    skipped: 0,
    imported: 0,
    failed: 0,
  };
  for (const item of items) counts[item.status] += 1;
  return counts;
}

export function emptyInventory(source: ImportSource, from: string): ImportInventory {
  return {
    source,
    from,
    workspaceFiles: [],
    sessions: [],
    providers: [],
    credentials: [],
    agents: [],
    bindings: [],
    cronJobs: [],
    allowlist: [],
    skipped: [],
  };
}
