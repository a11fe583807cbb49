import { z } from 'zod';
import { method } from './define.js';

/** Which agent's memory (default: main). Shared with dreams.*. */
export const agentId = z
  .string()
  .min(1)
  .max(64)
  .regex(/^[A-Za-z0-9][A-Za-z0-9_-]*$/, 'agent id: letters, digits, _ and -')
  .optional();
/** Per-user memory scope: the user (or linked account) whose memory to read. */
export const userId = z.string().min(1).max(128).optional();
/**
 * The account whoever runs Hearth speaks as: an agent's main session, and the Control UI. In
 * per-user memory it is the person `owner` (folder `users/owner/`).
 */
export const OWNER_USER_ID = 'owner';

export interface MemorySearchHit {
  /** Workspace-relative, e.g. `memory/2026-11-02.md`. */
  path: string;
  startLine: number;
  endLine: number;
  score: number;
  /** Component scores so the UI can show why a hit ranked where it did. */
  vectorScore: number;
  textScore: number;
  decay: number;
  snippet: string;
  heading: string;
  date?: string;
  category: string;
}

export interface MemoryFileInfo {
  path: string;
  size: number;
  mtimeMs: number;
  kind: 'static' | 'daily';
  date?: string;
}

export interface MemoryStatusResult {
  agentId: string;
  backend: string;
  embedder: { id: string; dimension: number };
  files: number;
  chunks: number;
  reindex: { running: boolean; phase?: 'index' | 'reembed'; done: number; total: number };
  recovered?: string;
  issues: { path: string; line: number; reason: string }[];
  lastSync?: { at: number; indexed: number; removed: number };
  /** `per-user`: searches and Dreaming need a `userId` (the Control UI passes `owner`). */
  scope: 'per-agent' | 'per-user';
  /** With per-user memory: the owner's folder (`users/owner/`, or the id `owner` is linked to). */
  ownerFolder?: string;
  /**
   * `memory.queryRewrite`: model calls made to rewrite queries since memory opened, and their
   * tokens (as the provider reported them, or counted with the o200k tokenizer: `estimatedCalls`).
   */
  queryRewrite?: {
    enabled: boolean;
    calls: number;
    cacheHits: number;
    failures: number;
    inputTokens: number;
    outputTokens: number;
    cachedInputTokens: number;
    estimatedCalls: number;
  };
}

/** A local embedding model of the catalogue (`memory.model.list`). */
export interface MemoryModelInfo {
  name: string;
  description: string;
  languages: string[];
  dimension?: number;
  /** Bytes to download, when the catalogue knows them. */
  size?: number;
  /** Every file is on disk and verified. */
  installed: boolean;
  /** `memory.embedder` uses it. */
  active: boolean;
  /** Bytes an interrupted install left; the next install resumes from them. */
  partialBytes?: number;
}

/**
 * The install in progress or the last one (`memory.model.status`, and the payload of the
 * `memory.changed` event with `reason: "model"`). `failed` keeps the embedder memory had.
 */
export interface MemoryModelStatus {
  state: 'idle' | 'downloading' | 'verifying' | 'installed' | 'failed';
  name?: string;
  file?: string;
  received?: number;
  total?: number;
  /** Where the model was installed. */
  dir?: string;
  /** Whether memory.embedder was switched to it. */
  activated?: boolean;
  /** The person's message: what failed and what memory keeps using. */
  error?: string;
  failure?: 'unreachable' | 'http' | 'interrupted' | 'checksum' | 'aborted';
}

export const memoryMethods = {
  'memory.search': method<{ results: MemorySearchHit[] }>()({
    scope: 'operator.read',
    params: () =>
      z
        .object({
          query: z.string().min(1).max(2000),
          agentId,
          userId,
          k: z.number().int().min(1).max(100).optional(),
          minScore: z.number().min(0).max(1).optional(),
        })
        .strict(),
  }),
  'memory.files.list': method<{ files: MemoryFileInfo[] }>()({
    scope: 'operator.read',
    params: () => z.object({ agentId }).strict(),
  }),
  'memory.file.get': method<{ path: string; content: string }>()({
    scope: 'operator.read',
    params: () => z.object({ agentId, path: z.string().min(1).max(512) }).strict(),
  }),
  'memory.file.set': method<{ ok: true; path: string }>()({
    scope: 'operator.admin',
    controlPlaneWrite: true,
    params: () => z.object({ agentId, path: z.string().min(1).max(512), content: z.string().max(5_000_000) }).strict(),
  }),
  'memory.status': method<MemoryStatusResult>()({
    scope: 'operator.read',
    params: () => z.object({ agentId }).strict(),
  }),
  'memory.model.list': method<{ models: MemoryModelInfo[] }>()({
    scope: 'operator.read',
    params: () => z.object({}).strict(),
  }),
  'memory.model.status': method<MemoryModelStatus>()({
    scope: 'operator.read',
    params: () => z.object({}).strict(),
  }),
  /** Starts the install and answers at once; progress comes as `memory.changed` `{reason: "model", model}`. */
  'memory.model.install': method<MemoryModelStatus>()({
    scope: 'operator.admin',
    controlPlaneWrite: true,
    params: () =>
      z
        .object({
          name: z.string().min(1).max(64),
          /** Switch memory.embedder to it once installed (default true). */
          activate: z.boolean().optional(),
        })
        .strict(),
  }),
};
