import { type FormEvent, useState } from 'react';
import { useDomain, useStores, useT } from '../../app/stores-context.js';
import type { MemoryDoc, MemoryHit } from '../../stores/memory-store.js';
import { Markdown } from '../chat/markdown.js';
import { MemoryModels } from './memory-models.js';
import { MemoryNote } from './memory-note-view.js';
import './memory.css';

const fmt = (n: number | undefined) => (n === undefined ? '—' : n.toFixed(2));

/** A search hit as a dated note; its score and the score's parts are in the tooltip. */
function Hit({ hit, query }: { hit: MemoryHit; query: string }) {
  const t = useT();
  const breakdown = t('memory.scoreBreakdown', {
    vector: fmt(hit.vector),
    text: fmt(hit.textScore),
    decay: fmt(hit.decay),
  });
  return (
    <li className="hit card" data-testid="memory-hit" data-path={hit.line ? `${hit.path}:${hit.line}` : hit.path}>
      <MemoryNote
        path={hit.path}
        snippet={hit.text}
        query={query}
        relevance={t('memory.note.relevance', { score: fmt(hit.score), breakdown })}
      />
    </li>
  );
}

function DocEditor({ doc }: { doc: MemoryDoc }) {
  const t = useT();
  const { memory } = useStores();
  const content = useDomain('memory', (s) => s.docs[doc]);
  const [draft, setDraft] = useState<string>();
  const editing = draft !== undefined;
  return (
    <section className="card doc" aria-labelledby={`doc-${doc}`}>
      <div className="spread">
        <h2 id={`doc-${doc}`}>{doc}</h2>
        {editing ? (
          <div className="row">
            <button type="button" className="button small" onClick={() => setDraft(undefined)}>
              {t('common.cancel')}
            </button>
            <button
              type="button"
              className="button primary small"
              onClick={async () => {
                if (await memory.getState().saveDoc(doc, draft)) setDraft(undefined);
              }}
            >
              {t('common.save')}
            </button>
          </div>
        ) : (
          <button type="button" className="button small" onClick={() => setDraft(content ?? '')}>
            {t('memory.edit')}
          </button>
        )}
      </div>
      {editing ? (
        <textarea
          className="textarea"
          rows={14}
          value={draft}
          aria-label={doc}
          onChange={(e) => setDraft(e.target.value)}
        />
      ) : content ? (
        <Markdown text={content} />
      ) : (
        <p className="faint">{t('common.empty')}</p>
      )}
    </section>
  );
}

export function MemoryView() {
  const t = useT();
  const { memory } = useStores();
  const query = useDomain('memory', (s) => s.query);
  const hits = useDomain('memory', (s) => s.hits);
  const searched = useDomain('memory', (s) => s.searched);
  const daily = useDomain('memory', (s) => s.daily);
  const today = useDomain('memory', (s) => s.today);
  const openFile = useDomain('memory', (s) => s.openFile);
  const error = useDomain('memory', (s) => s.error);
  const perUser = useDomain('memory', (s) => s.whose.perUser);
  const [lastQuery, setLastQuery] = useState('');
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setLastQuery(query);
    void memory.getState().search();
  };
  return (
    <div className="memory">
      <header className="view-header">
        <h1>{t('memory.title')}</h1>
      </header>
      {perUser && (
        <p className="muted" data-testid="memory-whose">
          {t('memory.perUser')}
        </p>
      )}
      <form className="memory-search" aria-label={t('memory.search')} onSubmit={submit}>
        <input
          className="input"
          type="search"
          value={query}
          placeholder={t('memory.search')}
          aria-label={t('memory.search')}
          onChange={(e) => memory.getState().setQuery(e.target.value)}
        />
        <button type="submit" className="button primary">
          {t('common.search')}
        </button>
      </form>
      {error && (
        <p className="notice" role="alert">
          {error}
        </p>
      )}
      {searched && (
        <ul className="hits" aria-label={t('common.search')}>
          {hits.length === 0 && <li className="faint">{t('memory.noHits')}</li>}
          {hits.map((hit, i) => (
            <Hit key={`${hit.path}-${hit.line ?? i}`} hit={hit} query={lastQuery} />
          ))}
        </ul>
      )}
      <div className="memory-grid">
        <div className="stack">
          <DocEditor doc="MEMORY.md" />
          <DocEditor doc="USER.md" />
        </div>
        <aside className="stack">
          <MemoryModels />
          <section className="card" aria-labelledby="memory-today">
            <h2 id="memory-today">{t('memory.today')}</h2>
            {today?.content ? <Markdown text={today.content} /> : <p className="faint">{t('common.empty')}</p>}
          </section>
          <section className="card" aria-labelledby="memory-daily">
            <h2 id="memory-daily">{t('memory.daily')}</h2>
            <ol className="timeline">
              {daily.length === 0 && <li className="faint">{t('common.empty')}</li>}
              {daily.map((day) => (
                <li key={day.path}>
                  <button
                    type="button"
                    className="timeline-item"
                    aria-current={openFile?.path === day.path ? 'true' : undefined}
                    onClick={() => void memory.getState().openDaily(day.path)}
                  >
                    <span>{day.date}</span>
                    {day.entries !== undefined && <span className="faint">{day.entries}</span>}
                  </button>
                </li>
              ))}
            </ol>
            {openFile && (
              <div className="daily-file">
                <Markdown text={openFile.content} />
              </div>
            )}
          </section>
        </aside>
      </div>
    </div>
  );
}
