import type { Event } from '../base/emitter.js';
import { HearthError } from '../base/errors.js';
import type { AgentMessage } from '../transcript/index.js';

/** The contract of the session store: what the runtime, the gateway methods and the UI rely on. */

export interface SessionRecord {
  key: string;
  sessionId: string;
  agentId: string;
  createdAt: number;
  updatedAt: number;
  title?: string;
  model?: string;
  /** Unknown after an index rebuild until the session is read. */
  messageCount?: number;
  /** Shown first in the chat list. */
  pinned?: boolean;
  /** Hidden from the chat list unless asked for; the transcript stays. */
  archived?: boolean;
  /** Where a fork came from: the session and the last message it kept. */
  forkedFrom?: { key: string; sessionId: string; messageId: string };
}

export interface ReadOptions {
  /** At most this many messages (default 200, max 10 000), the newest before `before`. */
  limit?: number;
  /** A `nextCursor` from a previous read: page towards older messages. */
  before?: string;
}

export interface ReadResult {
  messages: AgentMessage[];
  hasMore: boolean;
  nextCursor?: string;
}

export interface ListOptions {
  agentId?: string;
  limit?: number;
  offset?: number;
  /** Case-insensitive substring of the key, title, session id, agent or model. */
  search?: string;
  /** Only sessions updated at or after this epoch ms. */
  updatedAfter?: number;
  /** `exclude` (default: every session, archived or not, for older callers), `only`, or `include`. */
  archived?: 'exclude' | 'only' | 'include';
  /** Pinned sessions first (then newest first), as the chat list shows them. */
  pinnedFirst?: boolean;
}

export interface ListResult {
  count: number;
  totalCount: number;
  nextOffset: number | null;
  hasMore: boolean;
  sessions: SessionRecord[];
}

export interface SessionPatch {
  title?: string | null;
  model?: string | null;
  pinned?: boolean | null;
  archived?: boolean | null;
}

export interface ForkOptions {
  /** The last message the fork keeps (a tool call's result comes along). */
  messageId?: string;
  /** Instead of `messageId`: keep everything through the end of this run (its last reply). */
  runId?: string;
  /** The new session's key; it must not exist yet. */
  newKey: string;
  title?: string;
}

export interface DeleteOptions {
  /** Remove the transcript files of this key (current and earlier) instead of renaming them aside. */
  removeTranscripts?: boolean;
}

/** What changed in the index; the gateway forwards these as `sessions.changed`. */
export interface SessionChange {
  reason: 'created' | 'reset' | 'deleted' | 'patched' | 'updated' | 'forked';
  agentId: string;
  key: string;
  /** The current session id (absent after a delete). */
  sessionId?: string;
  /** On reset and delete: the transcript that was set aside. */
  previousSessionId?: string;
}

export interface CommitOptions {
  /** More of this turn will be committed soon: the index may be written once, with it. */
  turnContinues?: boolean;
}

export interface SessionStore {
  /** Fires once the change is written; `updated` once per `sync` or `commit` of a current session. */
  readonly onDidChange: Event<SessionChange>;
  /** The session behind a key, created (with an empty transcript) when missing. */
  resolve(agentId: string, sessionKey: string): Promise<SessionRecord>;
  get(agentId: string, sessionKey: string): Promise<SessionRecord | undefined>;
  /** Appends to the transcript; call `sync` at the end of the turn. */
  append(agentId: string, sessionId: string, messages: readonly AgentMessage[]): Promise<void>;
  /** fsyncs the transcript and writes the index if it changed. */
  sync(agentId: string, sessionId: string): Promise<void>;
  /**
   * What was appended is announced now (`updated` fires, as after `sync`), and made durable in
   * the background: the transcript's fsync (shared with the next commit's when they overlap) and
   * the index write follow without being waited for; `flush` waits for them. A chat turn commits
   * its user message and its reply this way (docs/SESSIONS.md, "Durability"): an append that
   * resolved is in the operating system's hands, so killing the process loses none of it; only
   * a power cut or a kernel crash in the few milliseconds before the fsync could.
   * `turnContinues` (the user message's commit): the turn commits again soon (its reply), so the
   * index write (`sessions.json`: time, count, title) is left to that commit, or made after
   * `DEFERRED_INDEX_WRITE_MS` if it does not come; the transcript's fsync is not deferred.
   */
  commit(agentId: string, sessionId: string, options?: CommitOptions): Promise<void>;
  read(agentId: string, sessionId: string, options?: ReadOptions): Promise<ReadResult>;
  list(options?: ListOptions): Promise<ListResult>;
  patch(agentId: string, sessionKey: string, patch: SessionPatch): Promise<SessionRecord>;
  /** Starts a new transcript under the same key; the old one stays on disk. */
  reset(agentId: string, sessionKey: string): Promise<SessionRecord>;
  /**
   * Forgets the key; its transcript is renamed `<id>.jsonl.deleted-<ts>`, not removed, unless
   * `removeTranscripts` asks for the files of every conversation under the key to go.
   */
  delete(agentId: string, sessionKey: string, options?: DeleteOptions): Promise<boolean>;
  /** A new session `newKey` whose transcript is a copy of `sessionKey`'s up to a message. */
  fork(agentId: string, sessionKey: string, options: ForkOptions): Promise<SessionRecord>;
  /** Writes pending index changes and waits for the commits' fsyncs; for shutdown. */
  flush(): Promise<void>;
}

export type SessionStoreErrorCode = 'invalid' | 'not_found';

export class SessionStoreError extends HearthError {
  constructor(code: SessionStoreErrorCode, message: string) {
    super(code === 'not_found' ? 'not_found' : 'bad_request', message);
    this.name = 'SessionStoreError';
  }
}
