import { appendFile, mkdir, readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { Clock } from '../../base/clock.js';
import { redactSecrets } from '../../base/secret-redaction.js';
import { writeFileAtomic } from '../../fs/atomic-write.js';
import { dot, type Embedder } from '../embedders/embedder.js';
import { listMemoryFiles, localDate, staticPath } from '../memory-files.js';
import type { MemoryScope } from '../memory-scope.js';
import { noteBody } from '../note-lines.js';
import { dreamsStateDir, pruneRecalls, readRecalls } from '../recall-log.js';
import { acquireDreamLock, type DreamLockDeps } from './dream-lock.js';
import { type DreamProgress, DreamRunClearedError, type DreamRunReporting, DreamRunTracker } from './dream-run.js';
import {
  conceptTags,
  type DeepSignals,
  type DreamCandidate,
  deepSignals,
  gateFailures,
  noteKey,
  REM_DEDUPE,
  REM_KEEP,
  REM_TOP,
  remConfidence,
} from './dream-signals.js';
import { promotionAppend } from './promotion-block.js';
import { type PendingCandidate, queueCandidates, readPending, wasRejected } from './promotion-review.js';

const DAY_MS = 86_400_000;

export interface DreamingDeps {
  workspaceDir: string;
  scope: MemoryScope;
  embedder: Embedder;
  now(): number;
  lock: DreamLockDeps;
  lookbackDays?: number;
  /** Writes the DREAMS.md entry in the model's voice; a plain factual summary is used without it. */
  writeDiary?(summary: DreamSummary): Promise<string>;
  /** Where the run tells its phases as it goes (kept in `memory/.dreams/run.json` too). */
  reporting?: DreamRunReporting;
  /** The heartbeat's timer while the run waits on the embedder or the diary's model (the injected clock). */
  timers?: Pick<Clock, 'setInterval'>;
  /**
   * The first phase of a run that may write: the scope's recent conversations filed into today's
   * daily note (host/recent-transcripts.ts), counting the conversations read. Without it, or in a
   * preview (which writes nothing), ingest is skipped.
   */
  ingest?(progress: DreamIngestProgress): Promise<void>;
}

/** What ingest tells: how many conversations it reads, and each one read. */
export interface DreamIngestProgress {
  start(total: number): void;
  step(done: number): void;
}

/** For `analyse` and the rest when nobody listens (a preview of candidates, `explain`). */
const quiet: DreamProgress = {
  start() {},
  step() {},
  end() {},
  skip() {},
  failPhase() {},
  waitFor: (work) => work,
};

export interface ScoredCandidate extends DreamCandidate {
  signals: DeepSignals;
  failures: string[];
  /** Set when the note was edited away from its daily file since it was recalled. */
  withdrawn?: string;
  alreadyPromoted?: boolean;
}

/**
 * `preview` writes reports only; `review` queues the passing candidates for the person
 * (promotion-review.ts); `apply` appends them to MEMORY.md and writes the diary.
 */
export type DreamMode = 'preview' | 'review' | 'apply';

export interface DreamSummary {
  day: string;
  mode: DreamMode;
  /** Review mode: the candidates this run left waiting for approval. */
  queued: PendingCandidate[];
  notesSeen: number;
  recalls: number;
  reflections: { tag: string; count: number }[];
  truths: { text: string; confidence: number }[];
  candidates: ScoredCandidate[];
  promoted: string[];
  applied: boolean;
}

/**
 * Ingest → Light → REM → Deep (→ write) over one scope. Only `apply` writes MEMORY.md (appending); `review` queues
 * for the person. A run that finds nothing to promote — no candidate passes the gates that is
 * not already in MEMORY.md, rejected or gone from its note — writes no memory file: no report,
 * no diary entry, no queue, no MEMORY.md.
 */
export async function runDreaming(
  deps: DreamingDeps,
  options: { apply?: boolean; mode?: DreamMode } = {},
): Promise<DreamSummary> {
  const mode: DreamMode = options.mode ?? (options.apply ? 'apply' : 'preview');
  const stateDir = dreamsStateDir(deps.workspaceDir, deps.scope);
  await mkdir(stateDir, { recursive: true });
  const lock = await acquireDreamLock(stateDir, deps.lock);
  // Tracked only once the lock is ours: a refused run never touches the running one's progress.
  const tracker = deps.reporting
    ? new DreamRunTracker({
        stateDir,
        pid: deps.lock.pid,
        now: deps.now,
        ...(deps.timers ? { timers: deps.timers } : {}),
        mode,
        reporting: deps.reporting,
      })
    : undefined;
  const progress = tracker ?? quiet;
  // A run cleared as stalled while it slept stops at the next phase instead of writing on.
  const stillOurs = async () => {
    if (tracker && !(await tracker.stillOurs())) throw new DreamRunClearedError();
  };
  try {
    await ingest(deps, mode, progress);
    await stillOurs();
    const summary = await analyse(deps, progress);
    summary.mode = mode;
    summary.applied = mode === 'apply';
    // Recalls older than the look-back window are never read again: a run that may write drops
    // them (Hearth's own log, rewritten only when there is something to drop).
    if (mode !== 'preview')
      await pruneRecalls(deps.workspaceDir, deps.scope, localDate(deps.now() - (deps.lookbackDays ?? 30) * DAY_MS));
    const promotable = await selectPromotable(deps, summary, mode, progress);
    progress.end('deep');
    await stillOurs();
    if (promotable.length > 0) await write(deps, summary, promotable, mode, progress, stillOurs);
    else progress.skip('write');
    tracker?.finish({
      day: summary.day,
      notesSeen: summary.notesSeen,
      recalls: summary.recalls,
      candidates: summary.candidates.length,
      promoted: summary.promoted.length,
      queued: summary.queued.length,
    });
    return summary;
  } catch (error) {
    tracker?.fail(error);
    throw error;
  } finally {
    await tracker?.flush();
    await lock.release();
  }
}

/**
 * Ingest: the scope's recent conversations into today's daily note, before Light reads the notes.
 * Conversations that cannot be read fail the phase, not the run: Dreaming goes on with what is filed.
 */
async function ingest(deps: DreamingDeps, mode: DreamMode, progress: DreamProgress): Promise<void> {
  if (!deps.ingest || mode === 'preview') return progress.skip('ingest');
  let total: number | undefined;
  try {
    await deps.ingest({
      start: (count) => {
        total = count;
        progress.start('ingest', count);
      },
      step: (done) => progress.step('ingest', done),
    });
    if (total === undefined) progress.start('ingest', 0);
    progress.end('ingest');
  } catch (error) {
    if (total === undefined) progress.start('ingest');
    progress.failPhase('ingest', error);
  }
}

/** The write phase: MEMORY.md or the review queue, the three reports, and the diary when applied. */
async function write(
  deps: DreamingDeps,
  summary: DreamSummary,
  promotable: ScoredCandidate[],
  mode: DreamMode,
  progress: DreamProgress,
  stillOurs: () => Promise<void>,
): Promise<void> {
  const files = mode === 'apply' ? 5 : mode === 'review' ? 4 : 3;
  progress.start('write', files);
  let done = 0;
  const wrote = () => progress.step('write', ++done);
  if (mode === 'apply') {
    await promote(deps, summary, promotable);
    wrote();
  }
  if (mode === 'review') {
    summary.queued = await queueCandidates(
      { workspaceDir: deps.workspaceDir, scope: deps.scope, now: deps.now, day: () => summary.day },
      promotable.map((candidate) => ({ ...candidate, score: candidate.signals.score })),
    );
    wrote();
  }
  await writeReports(deps, summary, wrote, progress, stillOurs);
  progress.end('write');
}

/** Everything up to the Deep decision, without writing anything (also what `explain` uses). */
export async function analyse(deps: DreamingDeps, progress: DreamProgress = quiet): Promise<DreamSummary> {
  const now = deps.now();
  const day = localDate(now);
  const since = localDate(now - (deps.lookbackDays ?? 30) * DAY_MS);

  // Light: recent daily notes and recalls; what was seen gets the light signal.
  const notes = await recentNotes(deps, since, progress);
  const seen = new Set(notes.map((note) => noteKey(note)));
  const recalls = (await readRecalls(deps.workspaceDir, deps.scope)).filter(
    (entry) => entry.day >= since && entry.text,
  );
  const grouped = new Map<
    string,
    { entry: (typeof recalls)[number]; scores: number[]; queries: Set<string>; days: Set<string>; last: string }
  >();
  for (const entry of recalls) {
    const key = noteKey(entry.text);
    const group = grouped.get(key) ?? { entry, scores: [], queries: new Set(), days: new Set(), last: entry.day };
    group.scores.push(entry.score);
    group.queries.add(entry.query.toLowerCase().trim());
    group.days.add(entry.day);
    if (entry.day > group.last) group.last = entry.day;
    grouped.set(key, group);
  }
  progress.end('light');

  // REM: concept tags shared across memories → reflections and candidate truths.
  progress.start('rem', grouped.size);
  const tagCounts = new Map<string, number>();
  for (const note of notes) for (const tag of conceptTags(note)) tagCounts.set(tag, (tagCounts.get(tag) ?? 0) + 1);
  const reflections = [...tagCounts.entries()]
    .filter(([, count]) => count >= 2)
    .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
    .slice(0, 8)
    .map(([tag, count]) => ({ tag, count }));
  const candidates: DreamCandidate[] = [...grouped.entries()].map(([key, group]) => ({
    key,
    text: group.entry.text,
    path: group.entry.path,
    line: group.entry.line,
    recalls: group.scores.length,
    uniqueQueries: group.queries.size,
    avgScore: group.scores.reduce((sum, score) => sum + score, 0) / group.scores.length,
    days: group.days.size,
    lastRecallDay: group.last,
    tags: conceptTags(group.entry.text).filter((tag) => (tagCounts.get(tag) ?? 0) >= 2),
    lightSeen: seen.has(key),
  }));
  const truths = await progress.waitFor(remTruths(deps.embedder, candidates));
  progress.end('rem');

  // Deep: score and gate each candidate (the run then checks the passing ones against the files).
  progress.start('deep', candidates.length);
  const scored = candidates
    .map((candidate) => {
      const signals = deepSignals(candidate, now);
      return { ...candidate, signals, failures: gateFailures(candidate, signals) };
    })
    .sort((a, b) => b.signals.score - a.signals.score);
  return {
    day,
    notesSeen: notes.length,
    recalls: recalls.length,
    reflections,
    truths,
    candidates: scored,
    promoted: [],
    applied: false,
    mode: 'preview',
    queued: [],
  };
}

async function remTruths(embedder: Embedder, candidates: DreamCandidate[]): Promise<DreamSummary['truths']> {
  const ranked = candidates
    .map((candidate) => ({ candidate, confidence: remConfidence(candidate) }))
    .filter((item) => item.confidence >= REM_KEEP)
    .sort((a, b) => b.confidence - a.confidence);
  const vectors = await embedder.embed(ranked.map((item) => item.candidate.text));
  const kept: { index: number; text: string; confidence: number }[] = [];
  ranked.forEach((item, index) => {
    if (kept.length >= REM_TOP) return;
    if (kept.some((other) => dot(vectors[other.index]!, vectors[index]!) >= REM_DEDUPE)) return;
    kept.push({ index, text: item.candidate.text, confidence: item.confidence });
    item.candidate.remConfidence = item.confidence;
  });
  return kept.map(({ text, confidence }) => ({ text, confidence }));
}

async function recentNotes(deps: DreamingDeps, since: string, progress: DreamProgress): Promise<string[]> {
  const prefix = deps.scope.root ? `${deps.scope.root}/memory/` : 'memory/';
  const notes: string[] = [];
  const files = (await listMemoryFiles(deps.workspaceDir)).filter(
    (file) =>
      file.date && file.date >= since && file.path.startsWith(prefix) && !file.path.slice(prefix.length).includes('/'),
  );
  progress.start('light', files.length);
  for (const [index, file] of files.entries()) {
    const text = await readFile(join(deps.workspaceDir, file.path), 'utf8').catch(() => '');
    progress.step('light', index + 1);
    for (const line of text.split('\n')) {
      const body = noteBody(line);
      if (body && !line.startsWith('#')) notes.push(body);
    }
  }
  return notes;
}

/**
 * The candidates a run would act on: passing the gates, not already a line of MEMORY.md, still
 * in their daily file (re-read: a note the person deleted since it was recalled is withdrawn)
 * and, for review, not rejected before.
 */
async function selectPromotable(
  deps: DreamingDeps,
  summary: DreamSummary,
  mode: DreamMode,
  progress: DreamProgress,
): Promise<ScoredCandidate[]> {
  const existing = await readFile(join(deps.workspaceDir, staticPath(deps.scope)), 'utf8').catch(() => '');
  const existingKeys = new Set(existing.split('\n').map((line) => noteKey(noteBody(line))));
  const review = mode === 'review' ? await readPending(deps.workspaceDir, deps.scope) : undefined;
  const promotable: ScoredCandidate[] = [];
  for (const [index, candidate] of summary.candidates.entries()) {
    progress.step('deep', index + 1);
    if (candidate.failures.length > 0) continue;
    if (existingKeys.has(candidate.key)) {
      candidate.alreadyPromoted = true;
      continue;
    }
    if (review && wasRejected(review, candidate.text)) continue;
    const source = await readFile(join(deps.workspaceDir, candidate.path), 'utf8').catch(() => undefined);
    const stillThere = source?.split('\n').some((line) => noteKey(noteBody(line)) === candidate.key);
    if (!stillThere) {
      candidate.withdrawn = `no longer in ${candidate.path}`;
      continue;
    }
    promotable.push(candidate);
  }
  return promotable;
}

/** Appends under Hearth's dated heading: what the person wrote above is never rewritten. */
async function promote(deps: DreamingDeps, summary: DreamSummary, promotable: ScoredCandidate[]): Promise<void> {
  const memoryPath = join(deps.workspaceDir, staticPath(deps.scope));
  const existing = await readFile(memoryPath, 'utf8').catch(() => '');
  const promoted = promotable.map((candidate) => candidate.text);
  await mkdir(dirname(memoryPath), { recursive: true });
  await appendFile(memoryPath, promotionAppend(existing, promoted, summary.day), { mode: 0o600 });
  summary.promoted = promoted;
}

async function writeReports(
  deps: DreamingDeps,
  summary: DreamSummary,
  wrote: () => void,
  progress: DreamProgress,
  stillOurs: () => Promise<void>,
): Promise<void> {
  const base = join(deps.workspaceDir, deps.scope.root, 'memory', 'dreaming');
  const pct = (value: number) => value.toFixed(3);
  const light = [
    `# Light — ${summary.day}`,
    '',
    `Daily notes seen: ${summary.notesSeen}`,
    `Recalls gathered: ${summary.recalls}`,
  ];
  const rem = [
    `# REM — ${summary.day}`,
    '',
    '## Reflections',
    ...summary.reflections.map((item) => `- ${item.tag} (${item.count})`),
    '',
    '## Candidate truths',
    ...summary.truths.map((truth) => `- ${truth.text} (confidence ${pct(truth.confidence)})`),
  ];
  const deep = [
    `# Deep — ${summary.day}${summary.mode === 'apply' ? '' : summary.mode === 'review' ? ' (waiting for review)' : ' (preview)'}`,
    '',
    ...summary.candidates.map(
      (candidate) =>
        `- ${candidate.text} — score ${pct(candidate.signals.score)}, recalls ${candidate.recalls}, queries ${candidate.uniqueQueries}` +
        (candidate.failures.length
          ? `; held: ${candidate.failures.join(', ')}`
          : candidate.withdrawn
            ? `; withdrawn: ${candidate.withdrawn}`
            : '; passes'),
    ),
  ];
  // Reports and the diary are derived from notes and recalls: they pass the secret catalogue too.
  await writeFileAtomic(join(base, 'light', `${summary.day}.md`), `${redactSecrets(light.join('\n'))}\n`);
  wrote();
  await writeFileAtomic(join(base, 'rem', `${summary.day}.md`), `${redactSecrets(rem.join('\n'))}\n`);
  wrote();
  await writeFileAtomic(join(base, 'deep', `${summary.day}.md`), `${redactSecrets(deep.join('\n'))}\n`);
  wrote();
  if (!summary.applied) return;
  // The diary's model call may take a while: the heartbeat goes on meanwhile.
  const diary = deps.writeDiary
    ? await progress.waitFor(deps.writeDiary(summary).catch(() => factualDiary(summary)))
    : factualDiary(summary);
  // Cleared as stalled while the model was slow: the next run writes tonight's entry, not this one.
  await stillOurs();
  // The diary is append-only, like the daily notes.
  await appendFile(
    join(deps.workspaceDir, deps.scope.root, 'DREAMS.md'),
    `\n## ${summary.day}\n\n${redactSecrets(diary.trim())}\n`,
    {
      mode: 0o600,
    },
  );
  wrote();
}

function factualDiary(summary: DreamSummary): string {
  const themes = summary.reflections.slice(0, 3).map((item) => item.tag);
  return [
    `Reviewed ${summary.notesSeen} recent notes and ${summary.recalls} recalls.`,
    themes.length ? `Recurring themes: ${themes.join(', ')}.` : 'No recurring themes yet.',
    summary.promoted.length
      ? `Promoted ${summary.promoted.length} to MEMORY.md: ${summary.promoted.join('; ')}.`
      : 'Nothing met the bar for MEMORY.md.',
  ].join(' ');
}
