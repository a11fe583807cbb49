import { createHash } from 'node:crypto';
import { appendFile, mkdir, readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { writeFileAtomic } from '../../fs/atomic-write.js';
import { staticPath } from '../memory-files.js';
import type { MemoryScope } from '../memory-scope.js';
import { noteBody } from '../note-lines.js';
import { dreamsStateDir } from '../recall-log.js';
import { noteKey } from './dream-signals.js';
import { promotionAppend, promotionDiff } from './promotion-block.js';

/**
 * Review mode (`memory.dreaming.review`): candidates that pass the Deep gates wait in
 * `memory/.dreams/pending.json` until the person approves or rejects each one. The file is
 * Hearth's state, written atomically, so pending candidates survive restarts; MEMORY.md is
 * touched only by an approval, and only by appending that one candidate.
 */
const FILE = 'pending.json';

export interface PendingCandidate {
  /** Short and stable: the same note proposed again keeps its id. */
  id: string;
  text: string;
  /** The daily note it came from. */
  path: string;
  line: number;
  score: number;
  /** The run that proposed it (local day) and when. */
  day: string;
  createdAt: number;
  /** SHA-256 of MEMORY.md when it was proposed: a later approval says when the file moved on. */
  baseHash: string;
}

interface PendingFile {
  version: 1;
  candidates: PendingCandidate[];
  /** Keys of notes the person rejected: never proposed again. */
  rejected: string[];
}

export interface ReviewDeps {
  workspaceDir: string;
  scope: MemoryScope;
  now(): number;
  day(): string;
}

export function pendingId(text: string): string {
  return createHash('sha256').update(noteKey(text)).digest('hex').slice(0, 8);
}

export function contentHash(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

export async function readPending(workspaceDir: string, scope: MemoryScope): Promise<PendingFile> {
  let text: string;
  try {
    text = await readFile(join(dreamsStateDir(workspaceDir, scope), FILE), 'utf8');
  } catch {
    return { version: 1, candidates: [], rejected: [] };
  }
  try {
    const value = JSON.parse(text) as Partial<PendingFile>;
    return {
      version: 1,
      candidates: Array.isArray(value.candidates) ? value.candidates : [],
      rejected: Array.isArray(value.rejected) ? value.rejected : [],
    };
  } catch (error) {
    // Never silently start over: that would re-propose what the person rejected.
    throw new Error(
      `${join(dreamsStateDir(workspaceDir, scope), FILE)} is not valid JSON (${(error as Error).message}); fix or delete it`,
    );
  }
}

async function writePending(workspaceDir: string, scope: MemoryScope, file: PendingFile): Promise<void> {
  await writeFileAtomic(join(dreamsStateDir(workspaceDir, scope), FILE), `${JSON.stringify(file, null, 2)}\n`);
}

/** Whether a note was rejected before, so a run does not propose it again. */
export function wasRejected(file: PendingFile, text: string): boolean {
  return file.rejected.includes(noteKey(text));
}

/**
 * Adds a run's passing candidates to the queue (one already waiting keeps its id and gets the
 * newer score). Resolves with the candidates now waiting that this run proposed.
 */
export async function queueCandidates(
  deps: ReviewDeps,
  candidates: readonly { text: string; path: string; line: number; score: number }[],
): Promise<PendingCandidate[]> {
  const file = await readPending(deps.workspaceDir, deps.scope);
  const memory = await readMemory(deps);
  const queued: PendingCandidate[] = [];
  for (const candidate of candidates) {
    if (wasRejected(file, candidate.text)) continue;
    const id = pendingId(candidate.text);
    const existing = file.candidates.find((item) => item.id === id);
    if (existing) {
      existing.score = candidate.score;
      queued.push(existing);
      continue;
    }
    const entry: PendingCandidate = {
      id,
      text: candidate.text,
      path: candidate.path,
      line: candidate.line,
      score: candidate.score,
      day: deps.day(),
      createdAt: deps.now(),
      baseHash: contentHash(memory),
    };
    file.candidates.push(entry);
    queued.push(entry);
  }
  if (queued.length > 0) await writePending(deps.workspaceDir, deps.scope, file);
  return queued;
}

export interface PendingView extends PendingCandidate {
  /** MEMORY.md before → after approving this one candidate, against the file as it is now. */
  diff: string;
  /** MEMORY.md changed since the candidate was made (the diff is re-based on the current file). */
  rebased: boolean;
}

/** The waiting candidates, each with its diff against MEMORY.md as it is now. */
export async function listPending(deps: ReviewDeps): Promise<PendingView[]> {
  const file = await readPending(deps.workspaceDir, deps.scope);
  const memory = await readMemory(deps);
  const path = staticPath(deps.scope);
  return file.candidates.map((candidate) => ({
    ...candidate,
    diff: promotionDiff(path, memory, [candidate.text], deps.day()),
    rebased: candidate.baseHash !== contentHash(memory),
  }));
}

export interface ReviewOutcome {
  approved: { id: string; text: string }[];
  rejected: { id: string; text: string }[];
  /** Candidates that could not be approved, and why (nothing was written for them). */
  refused: { id: string; reason: string }[];
  /** MEMORY.md had changed since a candidate was made; the append was re-based on it. */
  rebased: boolean;
}

/**
 * Approves and rejects by id. Every id must be pending (else nothing happens and the error
 * names the ids that are). An approved note is appended to MEMORY.md as it is now — re-based
 * when the person edited it meanwhile — unless it is already there or gone from its daily
 * note, in which case it is refused with the reason and leaves the queue. Rejected notes leave
 * the queue and are remembered, so no later run proposes them again.
 */
export async function reviewPending(
  deps: ReviewDeps,
  decision: { approve?: readonly string[]; reject?: readonly string[] },
): Promise<ReviewOutcome> {
  const file = await readPending(deps.workspaceDir, deps.scope);
  const approve = [...new Set(decision.approve ?? [])];
  const reject = [...new Set(decision.reject ?? [])];
  const both = approve.filter((id) => reject.includes(id));
  if (both.length > 0) throw new Error(`candidate ${both.join(', ')} cannot be both approved and rejected`);
  const unknown = [...approve, ...reject].filter((id) => !file.candidates.some((item) => item.id === id));
  if (unknown.length > 0) {
    const waiting = file.candidates.map((item) => item.id).join(', ') || 'none';
    throw new Error(`no pending candidate ${unknown.join(', ')} (pending: ${waiting})`);
  }

  const memoryPath = staticPath(deps.scope);
  const memory = await readMemory(deps);
  const inMemory = new Set(memory.split('\n').map((line) => noteKey(noteBody(line))));
  const outcome: ReviewOutcome = { approved: [], rejected: [], refused: [], rebased: false };
  const toAppend: string[] = [];
  for (const id of approve) {
    const candidate = file.candidates.find((item) => item.id === id)!;
    if (candidate.baseHash !== contentHash(memory)) outcome.rebased = true;
    if (inMemory.has(noteKey(candidate.text))) {
      outcome.refused.push({ id, reason: `already in ${memoryPath}; nothing written` });
      continue;
    }
    const source = await readFile(join(deps.workspaceDir, candidate.path), 'utf8').catch(() => undefined);
    if (!source?.split('\n').some((line) => noteKey(noteBody(line)) === noteKey(candidate.text))) {
      outcome.refused.push({ id, reason: `no longer in ${candidate.path}; nothing written` });
      continue;
    }
    toAppend.push(candidate.text);
    outcome.approved.push({ id, text: candidate.text });
  }
  for (const id of reject) {
    const candidate = file.candidates.find((item) => item.id === id)!;
    file.rejected.push(noteKey(candidate.text));
    outcome.rejected.push({ id, text: candidate.text });
  }

  if (toAppend.length > 0) {
    const absolute = join(deps.workspaceDir, memoryPath);
    await mkdir(dirname(absolute), { recursive: true });
    // Appended to the bytes read above: what the person wrote stays exactly as it is.
    await appendFile(absolute, promotionAppend(memory, toAppend, deps.day()), { mode: 0o600 });
  }
  const decided = new Set([...approve, ...reject]);
  file.candidates = file.candidates.filter((item) => !decided.has(item.id));
  if (decided.size > 0) await writePending(deps.workspaceDir, deps.scope, file);
  return outcome;
}

async function readMemory(deps: ReviewDeps): Promise<string> {
  return readFile(join(deps.workspaceDir, staticPath(deps.scope)), 'utf8').catch(() => '');
}
