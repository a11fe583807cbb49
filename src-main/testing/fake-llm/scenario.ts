/**
 * What a scripted fake provider answers. Tests queue these per model (or per API key)
 * and the server renders each in the real wire format of whichever provider was called.
 */
export type FakeProvider = 'openai-chat' | 'openai-responses' | 'anthropic' | 'google' | 'ollama';

/** Failures with each provider's real status and error body (see error-bodies.ts). */
export type FakeErrorKind =
  | 'rate_limit'
  | 'auth'
  | 'billing'
  | 'forbidden'
  | 'model_not_found'
  | 'overloaded'
  | 'overloaded_529'
  | 'context_length'
  | 'server_error';

export interface FakeToolCall {
  name: string;
  input: unknown;
  id?: string;
}

export type FakeReply =
  | {
      type: 'text';
      text: string;
      /** Characters per streamed chunk (default 8). */
      chunkSize?: number;
      /** Delay before the first byte of the body, to simulate a slow first token. */
      firstTokenDelayMs?: number;
      cachedTokens?: number;
    }
  | { type: 'tool_calls'; calls: FakeToolCall[]; text?: string; cachedTokens?: number }
  | { type: 'error'; error: FakeErrorKind; retryAfterSeconds?: number; message?: string }
  /** Sends about half of the text, then destroys the socket. */
  | { type: 'die_midway'; text: string }
  /** A well-formed stream with no text and no tool call. */
  | { type: 'empty' }
  /** 200 with a body that is not the provider's format. */
  | { type: 'garbage' };

/** What a scenario is matched on; an unset field matches anything. */
export interface FakeMatch {
  model?: string;
  apiKey?: string;
}

export interface FakeRequestInfo {
  provider: FakeProvider;
  model: string;
  lastUserText: string;
  /** Number of tool results already in the prompt (lets a default reply finish a tool round trip). */
  toolResultCount: number;
}

/** A reply, or a function of the request (used for defaults such as echo). */
export type FakeReplySource = FakeReply | ((request: FakeRequestInfo) => FakeReply);

export const echoReply = (request: FakeRequestInfo): FakeReply => ({
  type: 'text',
  text: `echo: ${request.lastUserText}`,
});

interface QueueEntry {
  match: FakeMatch;
  replies: FakeReplySource[];
}

/** FIFO per match; the most specific match (apiKey, then model, then any) is served first. */
export class ScenarioQueue {
  private readonly entries: QueueEntry[] = [];

  constructor(private fallback: FakeReplySource = echoReply) {}

  setDefault(reply: FakeReplySource): void {
    this.fallback = reply;
  }

  push(replies: FakeReplySource[], match: FakeMatch = {}): void {
    const existing = this.entries.find((e) => e.match.model === match.model && e.match.apiKey === match.apiKey);
    if (existing) existing.replies.push(...replies);
    else this.entries.push({ match, replies: [...replies] });
  }

  get pending(): number {
    return this.entries.reduce((n, e) => n + e.replies.length, 0);
  }

  clear(): void {
    this.entries.length = 0;
  }

  next(request: FakeRequestInfo, apiKey: string | undefined): FakeReply {
    const score = (m: FakeMatch) => (m.apiKey ? 2 : 0) + (m.model ? 1 : 0);
    const candidates = this.entries
      .filter((e) => e.replies.length > 0)
      .filter((e) => (e.match.apiKey === undefined || e.match.apiKey === apiKey) && matchesModel(e.match, request))
      .sort((a, b) => score(b.match) - score(a.match));
    const source = candidates[0]?.replies.shift() ?? this.fallback;
    return typeof source === 'function' ? source(request) : source;
  }
}

function matchesModel(match: FakeMatch, request: FakeRequestInfo): boolean {
  return match.model === undefined || match.model === request.model;
}
