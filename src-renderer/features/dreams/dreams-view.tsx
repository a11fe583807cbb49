import { useEffect, useState } from 'react';
import { useDomain, useStores, useT } from '../../app/stores-context.js';
import { TabList } from '../../ui/tab-list.js';
import { formatTime } from '../../ui/use-now.js';
import { Markdown } from '../chat/markdown.js';
import { PromotionReview } from './promotion-review.js';
import './dreams.css';

type Tab = 'diary' | 'review' | 'phases' | 'candidates';

/** Preview / Apply / Run now in plain words, next to the buttons that do it. */
function HowItWorks() {
  const t = useT();
  return (
    <details className="card dreams-how" open>
      <summary>{t('dreams.howTitle')}</summary>
      <ul>
        <li>{t('dreams.how.preview')}</li>
        <li>{t('dreams.how.apply')}</li>
        <li>{t('dreams.how.run')}</li>
      </ul>
    </details>
  );
}

type RunView = NonNullable<ReturnType<ReturnType<typeof useStores>['dreams']['getState']>['currentRun']>;
type PhaseView = RunView['phases'][number];

/** One phase of the run: its name, where it is, how far (done of total) and, failed, why. */
function PhaseRow({ phase, stalled }: { phase: PhaseView; stalled: boolean }) {
  const t = useT();
  const counted = phase.total !== undefined && phase.state !== 'waiting' && phase.state !== 'skipped';
  // In a stalled run, the phase it was in is where it stopped moving.
  const state = stalled && phase.state === 'running' ? 'stalled' : phase.state;
  return (
    <li className={`dreams-phase is-${state}`} data-phase={phase.name} data-state={state}>
      <span className="dreams-phase-mark" aria-hidden="true" />
      <div className="dreams-phase-body">
        <div className="dreams-phase-head">
          <strong>{t(`dreams.phase.${phase.name}`)}</strong>
          <span className="dreams-phase-state">{t(`dreams.phaseState.${state}`)}</span>
        </div>
        {counted && (
          <div className="dreams-phase-count">
            <progress
              value={phase.done ?? 0}
              max={Math.max(phase.total ?? 0, 1)}
              aria-label={t(`dreams.phase.${phase.name}`)}
            />
            <span>
              {t(`dreams.phaseCount.${phase.name}`, { done: String(phase.done ?? 0), total: String(phase.total) })}
            </span>
          </div>
        )}
        {phase.error && (
          <p className="dreams-phase-error" role="alert">
            {phase.error}
          </p>
        )}
      </div>
    </li>
  );
}

/**
 * The run going now, phase by phase, whoever started it (this view, the schedule or `hearth memory
 * promote`), then what it did: how much it read, scored, and promoted or left for review.
 */
function RunProgress({ onReview }: { onReview(): void }) {
  const t = useT();
  const asked = useDomain('dreams', (s) => s.running);
  const startedAt = useDomain('dreams', (s) => s.runStartedAt);
  const run = useDomain('dreams', (s) => s.currentRun);
  const result = useDomain('dreams', (s) => s.result);
  // Between the click and the run's first step (recent conversations are filed first).
  if (asked && run?.state !== 'running')
    return (
      <div className="card dreams-progress" role="status" data-testid="dreams-progress">
        <progress aria-label={t('dreams.run')} />
        <span>{t('dreams.starting', { when: formatTime(startedAt) })}</span>
      </div>
    );
  if (!run && !result) return null;
  return (
    <section
      className="card dreams-run"
      data-testid="dreams-run"
      data-state={run?.state}
      aria-label={t('dreams.result')}
    >
      {run && (
        <>
          <p className="dreams-run-head" role="status">
            <strong>
              {t(`dreams.runState.${run.state}`, {
                when: formatTime(
                  run.state === 'running'
                    ? run.startedAt
                    : run.state === 'stalled'
                      ? (run.updatedAt ?? run.startedAt)
                      : run.endedAt,
                ),
              })}
            </strong>{' '}
            <span className="muted">
              {t(`dreams.mode.${run.mode}`)} · {t(`dreams.origin.${run.origin}`)}
            </span>
          </p>
          <ol className="dreams-phase-list" aria-label={t('dreams.phaseList')}>
            {run.phases.map((phase) => (
              <PhaseRow key={phase.name} phase={phase} stalled={run.state === 'stalled'} />
            ))}
          </ol>
          {run.state === 'stalled' && <StalledRun run={run} />}
          {run.state === 'failed' && !run.phases.some((phase) => phase.state === 'failed') && run.error && (
            <p className="dreams-phase-error" role="alert">
              {run.error}
            </p>
          )}
        </>
      )}
      <RunResult run={run} result={result} onReview={onReview} />
    </section>
  );
}

/** A run whose process lives but stopped moving: who holds it, since when, and a safe way to end it. */
function StalledRun({ run }: { run: RunView }) {
  const t = useT();
  const { dreams } = useStores();
  const clearing = useDomain('dreams', (s) => s.clearing);
  return (
    <div className="dreams-stalled" data-testid="dreams-stalled" role="alert">
      <p className="dreams-stalled-detail">
        {t('dreams.stalled.detail', {
          pid: String(run.pid ?? '?'),
          when: formatTime(run.updatedAt ?? run.startedAt),
        })}
      </p>
      <button
        type="button"
        className="button small danger"
        disabled={clearing}
        onClick={() => void dreams.getState().clearStalled()}
      >
        {t('dreams.stalled.clear')}
      </button>
    </div>
  );
}

/** What a finished run did: this view's own answer when it started it, else the counts the run reported. */
function RunResult({
  run,
  result,
  onReview,
}: {
  run?: RunView;
  result?: ReturnType<ReturnType<typeof useStores>['dreams']['getState']>['result'];
  onReview(): void;
}) {
  const t = useT();
  if (run && run.state !== 'done') return null;
  // An older gateway's answer has no `mode` or `queued` (review mode came later).
  const mode = result?.mode ?? run?.mode ?? (result?.applied ? 'apply' : 'preview');
  const counts = result
    ? {
        day: result.day,
        candidates: String(result.candidates.length),
        promoted: String(result.promoted.length),
        queued: String((result.queued ?? []).length),
        notes: String(result.notesSeen),
        recalls: String(result.recalls),
      }
    : run?.result
      ? {
          day: run.result.day,
          candidates: String(run.result.candidates),
          promoted: String(run.result.promoted),
          queued: String(run.result.queued),
          notes: String(run.result.notesSeen),
          recalls: String(run.result.recalls),
        }
      : undefined;
  if (!counts) return null;
  const promoted = result?.promoted ?? [];
  return (
    <div className="dreams-result" data-testid="dreams-result">
      <p className="dreams-result-line">
        <strong>{t(`dreams.result.${mode}`, counts)}</strong> {t('dreams.result.seen', counts)}
      </p>
      {mode === 'apply' && promoted.length > 0 && (
        <ul className="dreams-promoted">
          {promoted.map((text) => (
            <li key={text}>{text}</li>
          ))}
        </ul>
      )}
      {mode === 'review' && counts.queued !== '0' && (
        <button type="button" className="button small primary" onClick={onReview}>
          {t('dreams.result.openReview')}
        </button>
      )}
    </div>
  );
}

export function DreamsView() {
  const t = useT();
  const { dreams } = useStores();
  // `hearth memory promote --apply` and scheduled runs write DREAMS.md without telling this client: re-read on show.
  useEffect(() => {
    void dreams.getState().refresh();
  }, [dreams]);
  const diary = useDomain('dreams', (s) => s.diary);
  const phases = useDomain('dreams', (s) => s.phases);
  const candidates = useDomain('dreams', (s) => s.candidates);
  // A run going now, from here or elsewhere: one at a time per scope (the lock would refuse a second).
  // A stalled run still holds the lock: it is cleared first (its card says how).
  const running = useDomain(
    'dreams',
    (s) => s.running || s.currentRun?.state === 'running' || s.currentRun?.state === 'stalled',
  );
  const error = useDomain('dreams', (s) => s.error);
  const status = useDomain('dreams', (s) => s.status);
  const perUser = useDomain('dreams', (s) => s.whose.perUser);
  const pending = useDomain('dreams', (s) => s.pending.length);
  const [tab, setTab] = useState<Tab>('diary');
  const tabs: { id: Tab; label: string }[] = [
    { id: 'diary', label: t('dreams.diary') },
    { id: 'review', label: `${t('dreams.review')} (${pending})` },
    { id: 'phases', label: t('dreams.phases') },
    { id: 'candidates', label: `${t('dreams.candidates')} (${candidates.length})` },
  ];
  return (
    <div className="view-narrow">
      <header className="view-header">
        <h1>{t('dreams.title')}</h1>
        <div className="row">
          <button
            type="button"
            className="button"
            disabled={running}
            onClick={() => void dreams.getState().run('preview')}
          >
            {t('dreams.preview')}
          </button>
          <button
            type="button"
            className="button"
            disabled={running}
            onClick={() => void dreams.getState().run('apply')}
          >
            {t('dreams.apply')}
          </button>
          <button
            type="button"
            className="button primary"
            disabled={running}
            onClick={() => void dreams.getState().run('run')}
          >
            {t('dreams.run')}
          </button>
        </div>
      </header>
      {status && (
        <p className="dreams-schedule" data-testid="dreams-schedule">
          {status.enabled
            ? t('dreams.scheduleOn', { cron: status.cron, next: formatTime(status.nextAt) })
            : t('dreams.scheduleOff')}
          {perUser && ` ${t('dreams.perUser')}`}
          {status.lastAt !== undefined && (
            <>
              {' '}
              {status.lastQueued !== undefined
                ? t('dreams.lastReview', { when: formatTime(status.lastAt), count: String(status.lastQueued) })
                : status.lastApplied === false
                  ? t('dreams.lastPreview', { when: formatTime(status.lastAt) })
                  : t('dreams.lastRun', { when: formatTime(status.lastAt), count: String(status.lastPromoted ?? 0) })}
            </>
          )}
        </p>
      )}
      <HowItWorks />
      <RunProgress onReview={() => setTab('review')} />
      {error && (
        <p className="notice" role="alert">
          {error}
        </p>
      )}
      <TabList<Tab> idPrefix="dreams" items={tabs} selected={tab} onSelect={setTab} />
      <div id="dreams-panel" role="tabpanel" aria-labelledby={`dreams-tab-${tab}`}>
        {tab === 'diary' &&
          (diary ? (
            <article className="card diary" data-testid="dreams-diary">
              <Markdown text={diary} />
            </article>
          ) : (
            <p className="empty card">{t('dreams.noDiary')}</p>
          ))}
        {tab === 'review' && <PromotionReview />}
        {tab === 'phases' && (
          <ol className="phases">
            {phases.length === 0 && <li className="empty card">{t('dreams.noPhases')}</li>}
            {phases.map((phase) => (
              <li key={phase.name} className="card">
                <h2>{t(`dreams.phase.${phase.name}`)}</h2>
                <Markdown text={phase.summary} />
              </li>
            ))}
          </ol>
        )}
        {tab === 'candidates' && (
          <ul className="candidates">
            {candidates.length === 0 && <li className="empty card">{t('common.empty')}</li>}
            {candidates.map((c) => (
              <li key={c.id} className="card candidate" data-testid="dream-candidate">
                <div className="spread">
                  <div className="candidate-text">
                    <Markdown text={c.text} />
                  </div>
                  <span className={c.failures.length === 0 ? 'badge ok plain' : 'badge plain'}>
                    {c.score.toFixed(2)}
                  </span>
                </div>
                {Object.keys(c.signals).length > 0 && (
                  <dl className="signals" aria-label={t('dreams.signals')}>
                    {Object.entries(c.signals).map(([name, value]) => (
                      <div key={name}>
                        <dt>{name}</dt>
                        <dd>{Number.isInteger(value) ? value : value.toFixed(2)}</dd>
                      </div>
                    ))}
                  </dl>
                )}
                {c.failures.length > 0 && <p className="muted candidate-why">{c.failures.join(' · ')}</p>}
                {c.explanation ? (
                  <ul className="candidate-explain">
                    {c.explanation.map((line) => (
                      <li key={line}>{line}</li>
                    ))}
                  </ul>
                ) : (
                  <button
                    type="button"
                    className="button small ghost"
                    onClick={() => void dreams.getState().explain(c.id)}
                  >
                    {t('dreams.explain')}
                  </button>
                )}
              </li>
            ))}
          </ul>
        )}
      </div>
    </div>
  );
}
