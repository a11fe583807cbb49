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
}

/** What changed in the index; the gateway forwards these as `sessions.changed`. */
export interface SessionChange {
  reason: 'created' | 'reset' | 'deleted' | 'patched' | 'updated';
  agentId: string;
  key: string;
  /** The current session id (absent after a delete). */
  sessionId?: string;
  /** On reset and delete: the transcript that was set aside. */
  previousSessionId?: string;
}

export interface SessionStore {
  /** Fires after the change is on disk; `updated` once per `sync` (turn end) of a current session. */
  readonly onDidChange: Event<SessionChange>;
  /** The session behind a key, created (with an empty transcript) when missing. */
  resolve(agentId: string, sessionKey: string): Promise<SessionRecord>;
  get(agentId: string, sessionKey: string): Promise<SessionRecord | undefined>;
  /** Appends to the transcript; call `sync` at the end of the turn. */
  append(agentId: string, sessionId: string, messages: readonly AgentMessage[]): Promise<void>;
  /** fsyncs the transcript and writes the index if it changed. */
  sync(agentId: string, sessionId: string): Promise<void>;
  read(agentId: string, sessionId: string, options?: ReadOptions): Promise<ReadResult>;
  list(options?: ListOptions): Promise<ListResult>;
  patch(agentId: string, sessionKey: string, patch: SessionPatch): Promise<SessionRecord>;
  /** Starts a new transcript under the same key; the old one stays on disk. */
  reset(agentId: string, sessionKey: string): Promise<SessionRecord>;
  /** Forgets the key; its transcript is renamed `<id>.jsonl.deleted-<ts>`, not removed. */
  delete(agentId: string, sessionKey: string): Promise<boolean>;
  /** Writes pending index changes; for shutdown. */
  flush(): Promise<void>;
}

export type SessionStoreErrorCode = 'invalid' | 'not_found';

export class SessionStoreError extends HearthError {
  constructor(code: SessionStoreErrorCode, message: string) {
    super(code === 'not_found' ? 'not_found' : 'bad_request', message);
    this.name = 'SessionStoreError';
  }
}
