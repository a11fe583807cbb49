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

/** A run going now, then what it did: how much it read, scored, and promoted or left for review. */
function RunProgress({ onReview }: { onReview(): void }) {
  const t = useT();
  const running = useDomain('dreams', (s) => s.running);
  const startedAt = useDomain('dreams', (s) => s.runStartedAt);
  const result = useDomain('dreams', (s) => s.result);
  if (running)
    return (
      <div className="card dreams-progress" role="status" data-testid="dreams-progress">
        <progress aria-label={t('dreams.run')} />
        <span>{t('dreams.running', { when: formatTime(startedAt) })}</span>
      </div>
    );
  if (!result) return null;
  // An older gateway's answer has no `mode` or `queued` (review mode came later).
  const queued = result.queued ?? [];
  const mode = result.mode ?? (result.applied ? 'apply' : 'preview');
  const counts = {
    day: result.day,
    candidates: String(result.candidates.length),
    promoted: String(result.promoted.length),
    queued: String(queued.length),
  };
  return (
    <section className="card dreams-result" role="status" data-testid="dreams-result" aria-label={t('dreams.result')}>
      <p className="dreams-result-line">
        <strong>{t(`dreams.result.${mode}`, counts)}</strong>{' '}
        {t('dreams.result.seen', { notes: String(result.notesSeen), recalls: String(result.recalls) })}
      </p>
      {mode === 'apply' && result.promoted.length > 0 && (
        <ul className="dreams-promoted">
          {result.promoted.map((text) => (
            <li key={text}>{text}</li>
          ))}
        </ul>
      )}
      {mode === 'review' && queued.length > 0 && (
        <button type="button" className="button small primary" onClick={onReview}>
          {t('dreams.result.openReview')}
        </button>
      )}
    </section>
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
  const running = useDomain('dreams', (s) => s.running);
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
