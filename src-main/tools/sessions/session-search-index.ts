import type { Disposable } from '../../base/disposable.js';
import type { Logger } from '../../base/logger.js';
import { analyzeText, rawTokens } from '../../memory/index.js';
import type { SessionRecord, SessionStore } from '../../sessions/index.js';
import type { AgentMessage } from '../../transcript/index.js';

/** One session that matched, with its best message. */
export interface SessionSearchHit {
  agentId: string;
  key: string;
  sessionId: string;
  title?: string;
  updatedAt: number;
  archived?: boolean;
  /** The best-matching message: link to it with the key and this id. */
  messageId: string;
  role: 'user' | 'assistant';
  ts: number;
  /** Up to ~160 characters around the first match, `…` where cut. */
  snippet: string;
  /** Messages of the session that matched. */
  matches: number;
  score: number;
}

export interface SessionSearchOptions {
  agentId?: string;
  /** Sessions returned (default 10, at most 50). */
  limit?: number;
  /** Archived sessions too (default true: searching is how old chats are found again). */
  includeArchived?: boolean;
}

export interface SessionSearchIndex extends Disposable {
  search(query: string, options?: SessionSearchOptions): Promise<SessionSearchHit[]>;
}

interface Doc {
  session: string;
  messageId: string;
  role: 'user' | 'assistant';
  ts: number;
  text: string;
  /** term → weighted frequency (primary terms 1, CJK bigrams 0.5). */
  terms: Map<string, number>;
  length: number;
}

interface IndexedSession {
  record: SessionRecord;
  docs: Doc[];
}

const SNIPPET_CHARS = 160;
/** Messages read per transcript: the store's maximum page. */
const READ_LIMIT = 10_000;

const sessionId = (agentId: string, key: string) => `${agentId}\u0000${key}`;

function termsOf(text: string): { terms: Map<string, number>; length: number } {
  const { primary, secondary } = analyzeText(text);
  const terms = new Map<string, number>();
  for (const term of primary) terms.set(term, (terms.get(term) ?? 0) + 1);
  for (const term of secondary) terms.set(term, (terms.get(term) ?? 0) + 0.5);
  return { terms, length: primary.length + secondary.length / 2 };
}

/** Text the person and the model said; tool calls, results and summaries are not what "what was said" means. */
function spoken(message: AgentMessage): { role: 'user' | 'assistant'; text: string } | undefined {
  if (message.kind === 'user' && message.text.trim()) return { role: 'user', text: message.text };
  if (message.kind === 'assistant' && message.text.trim()) return { role: 'assistant', text: message.text };
  return undefined;
}

/** A window of the text around the first place a query word occurs (case-insensitive), or its start. */
export function snippetOf(text: string, query: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  const lower = flat.toLowerCase();
  let at = -1;
  for (const token of rawTokens(query)) {
    // A CJK run of the query may be longer than what the message shares with it: try its bigrams too.
    const probes = [token, ...(token.length > 2 && /[^\x00-\x7f]/.test(token) ? bigrams(token) : [])];
    for (const probe of probes) {
      const found = lower.indexOf(probe);
      if (found >= 0 && (at < 0 || found < at)) at = found;
      if (found >= 0) break;
    }
    if (at < 0 && token.length > 4) at = lower.indexOf(token.slice(0, Math.max(4, token.length - 3)));
  }
  if (flat.length <= SNIPPET_CHARS) return flat;
  const start = at < 0 ? 0 : Math.max(0, Math.min(at - 40, flat.length - SNIPPET_CHARS));
  const end = Math.min(flat.length, start + SNIPPET_CHARS);
  return `${start > 0 ? '…' : ''}${flat.slice(start, end).trim()}${end < flat.length ? '…' : ''}`;
}

function bigrams(run: string): string[] {
  const chars = [...run];
  return chars.slice(0, -1).map((char, i) => char + chars[i + 1]);
}

/**
 * A full-text index of what was said in every transcript (user and assistant text), kept in
 * memory. It is built on the first search, not at start (idle costs nothing), and a session the
 * store reports changed is re-read at the next search. Terms come from memory's tokenizer, so
 * English stems (`meetings` finds "meeting") and Chinese words and bigrams match alike.
 * Ranking is BM25 per message; a session ranks by its best message.
 */
export function createSessionSearchIndex(deps: { store: SessionStore; log: Logger }): SessionSearchIndex {
  const sessions = new Map<string, IndexedSession>();
  const postings = new Map<string, Set<Doc>>();
  const dirty = new Map<string, { agentId: string; key: string } | 'deleted'>();
  let built: Promise<void> | undefined;
  let totalLength = 0;
  let docCount = 0;

  const removeSession = (id: string) => {
    const existing = sessions.get(id);
    if (!existing) return;
    for (const doc of existing.docs) {
      for (const term of doc.terms.keys()) {
        const set = postings.get(term);
        set?.delete(doc);
        if (set?.size === 0) postings.delete(term);
      }
      totalLength -= doc.length;
      docCount -= 1;
    }
    sessions.delete(id);
  };

  const indexSession = async (record: SessionRecord) => {
    const id = sessionId(record.agentId, record.key);
    removeSession(id);
    const { messages } = await deps.store.read(record.agentId, record.sessionId, { limit: READ_LIMIT });
    const docs: Doc[] = [];
    for (const message of messages) {
      const said = spoken(message);
      if (!said) continue;
      const { terms, length } = termsOf(said.text);
      if (terms.size === 0) continue;
      const doc: Doc = {
        session: id,
        messageId: message.id,
        role: said.role,
        ts: message.ts,
        text: said.text,
        terms,
        length,
      };
      docs.push(doc);
      for (const term of terms.keys()) {
        const set = postings.get(term);
        if (set) set.add(doc);
        else postings.set(term, new Set([doc]));
      }
      totalLength += length;
      docCount += 1;
    }
    sessions.set(id, { record, docs });
  };

  const build = async () => {
    let offset = 0;
    for (;;) {
      const page = await deps.store.list({ archived: 'include', limit: 500, offset });
      for (const record of page.sessions) {
        await indexSession(record).catch((error) =>
          deps.log.warn('session search: a transcript could not be read', { key: record.key, error: String(error) }),
        );
      }
      if (!page.hasMore || page.nextOffset === null) break;
      offset = page.nextOffset;
    }
  };

  const refresh = async () => {
    for (const [id, change] of [...dirty]) {
      dirty.delete(id);
      if (change === 'deleted') {
        removeSession(id);
        continue;
      }
      const record = await deps.store.get(change.agentId, change.key);
      if (!record) removeSession(id);
      else
        await indexSession(record).catch((error) =>
          deps.log.warn('session search: a transcript could not be read', { key: record.key, error: String(error) }),
        );
    }
  };

  const subscription = deps.store.onDidChange((change) => {
    const id = sessionId(change.agentId, change.key);
    dirty.set(id, change.reason === 'deleted' ? 'deleted' : { agentId: change.agentId, key: change.key });
  });

  // One search at a time: a refresh must not interleave with another's.
  let queue: Promise<unknown> = Promise.resolve();

  async function run(query: string, options: SessionSearchOptions): Promise<SessionSearchHit[]> {
    built ??= build();
    await built;
    await refresh();
    const { terms: queryTerms } = termsOf(query);
    if (queryTerms.size === 0) return [];
    const averageLength = docCount > 0 ? totalLength / docCount : 1;
    const scores = new Map<Doc, number>();
    for (const [term, weight] of queryTerms) {
      const docs = postings.get(term);
      if (!docs) continue;
      const idf = Math.log(1 + (docCount - docs.size + 0.5) / (docs.size + 0.5));
      for (const doc of docs) {
        const session = sessions.get(doc.session)?.record;
        if (!session) continue;
        if (options.agentId && session.agentId !== options.agentId) continue;
        if (options.includeArchived === false && session.archived) continue;
        const tf = doc.terms.get(term)!;
        const bm25 = (idf * tf * 2.2) / (tf + 1.2 * (0.25 + (0.75 * doc.length) / averageLength));
        scores.set(doc, (scores.get(doc) ?? 0) + bm25 * Math.min(weight, 1));
      }
    }
    const best = new Map<string, { doc: Doc; score: number; matches: number }>();
    for (const [doc, score] of scores) {
      const current = best.get(doc.session);
      if (!current) best.set(doc.session, { doc, score, matches: 1 });
      else {
        current.matches += 1;
        if (score > current.score) Object.assign(current, { doc, score });
      }
    }
    const limit = Math.min(Math.max(options.limit ?? 10, 1), 50);
    return [...best.values()]
      .sort((a, b) => b.score - a.score || b.doc.ts - a.doc.ts)
      .slice(0, limit)
      .map(({ doc, score, matches }) => {
        const { record } = sessions.get(doc.session)!;
        return {
          agentId: record.agentId,
          key: record.key,
          sessionId: record.sessionId,
          ...(record.title ? { title: record.title } : {}),
          updatedAt: record.updatedAt,
          ...(record.archived ? { archived: true } : {}),
          messageId: doc.messageId,
          role: doc.role,
          ts: doc.ts,
          snippet: snippetOf(doc.text, query),
          matches,
          score: Math.round(score * 1000) / 1000,
        };
      });
  }

  return {
    search(query, options = {}) {
      const next = queue.then(() => run(query, options));
      queue = next.catch(() => {});
      return next;
    },
    dispose: () => subscription.dispose(),
  };
}
