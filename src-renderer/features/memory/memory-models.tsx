import { useDomain, useStores, useT } from '../../app/stores-context.js';

/** Megabytes with one decimal: model files are tens to hundreds of MB. */
export function megabytes(bytes: number | undefined): string {
  return bytes === undefined ? '—' : `${(bytes / 1_000_000).toFixed(1)} MB`;
}

/**
 * "Search by meaning": the local embedding models a person can install. While one downloads
 * the card shows its progress; when it is in, memory re-embeds the notes in the background,
 * with its own bar. A failed install says why and that memory keeps searching by words.
 */
export function MemoryModels() {
  const t = useT();
  const { memory } = useStores();
  const models = useDomain('memory', (s) => s.models);
  const status = useDomain('memory', (s) => s.modelStatus);
  const embedderId = useDomain('memory', (s) => s.embedderId);
  const reindex = useDomain('memory', (s) => s.reindex);
  const busy = status?.state === 'downloading' || status?.state === 'verifying';
  const semantic = embedderId !== undefined && !embedderId.startsWith('hashed');
  return (
    <section className="card memory-models" aria-labelledby="memory-models" data-testid="memory-models">
      <h2 id="memory-models">{t('memory.models.title')}</h2>
      <p className="muted">
        {semantic ? t('memory.models.semantic', { embedder: embedderId ?? '' }) : t('memory.models.offline')}
      </p>
      <ul className="model-list">
        {models.map((model) => (
          <li key={model.name} className="model-row" data-testid="memory-model">
            <div>
              <strong>{model.name}</strong> <span className="faint">{megabytes(model.size)}</span>
              <p className="faint model-description">{model.description}</p>
            </div>
            {model.active ? (
              <span className="badge ok plain">{t('memory.models.inUse')}</span>
            ) : (
              <button
                type="button"
                className="button small"
                disabled={busy}
                onClick={() => void memory.getState().installModel(model.name)}
              >
                {model.installed
                  ? t('memory.models.use')
                  : model.partialBytes
                    ? t('memory.models.resume', { size: megabytes(model.partialBytes) })
                    : t('memory.models.install')}
              </button>
            )}
          </li>
        ))}
      </ul>
      {busy && status && (
        <div className="model-progress" data-testid="memory-model-progress">
          <progress
            value={status.received ?? 0}
            max={status.total ?? undefined}
            aria-label={t('memory.models.progress')}
          />
          <p className="faint">
            {status.state === 'verifying'
              ? t('memory.models.verifying', { name: status.name ?? '', file: status.file ?? '' })
              : t('memory.models.downloading', {
                  name: status.name ?? '',
                  file: status.file ?? '',
                  received: megabytes(status.received),
                  total: megabytes(status.total),
                })}
          </p>
        </div>
      )}
      {status?.state === 'installed' && status.activated && (
        <p className="muted" data-testid="memory-model-done">
          {t('memory.models.done', { name: status.name ?? '' })}
        </p>
      )}
      {status?.state === 'failed' && (
        <p className="notice" role="alert" data-testid="memory-model-error">
          {status.error}
        </p>
      )}
      {reindex?.phase === 'reembed' && (
        <div className="model-progress" data-testid="memory-reembed-progress">
          <progress value={reindex.done} max={reindex.total} aria-label={t('memory.models.reembedProgress')} />
          <p className="faint">
            {t('memory.models.reembed', { done: String(reindex.done), total: String(reindex.total) })}
          </p>
        </div>
      )}
    </section>
  );
}
