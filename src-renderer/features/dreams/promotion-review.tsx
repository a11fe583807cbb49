import type { DreamPendingInfo } from '../../../src-main/protocol/methods/dreams.js';
import { useDomain, useStores, useT } from '../../app/stores-context.js';

/** A unified diff, one line per row: added lines marked, the file's own lines as context. */
export function DiffView({ diff }: { diff: string }) {
  return (
    <pre className="diff" data-testid="dream-diff">
      {diff.split('\n').map((line, index) => {
        const kind = line.startsWith('+++') || line.startsWith('---') || line.startsWith('@@') ? 'meta' : line[0];
        const className = kind === '+' ? 'diff-add' : kind === '-' ? 'diff-remove' : kind === 'meta' ? 'diff-meta' : '';
        return (
          // biome-ignore lint/suspicious/noArrayIndexKey: diff lines are positional
          <span key={index} className={className}>
            {line}
            {'\n'}
          </span>
        );
      })}
    </pre>
  );
}

function PendingCandidate({ candidate }: { candidate: DreamPendingInfo }) {
  const t = useT();
  const { dreams } = useStores();
  const deciding = useDomain('dreams', (s) => s.deciding.includes(candidate.id));
  return (
    <li className="card candidate" data-testid="dream-pending" data-id={candidate.id}>
      <div className="spread">
        <strong className="candidate-text">{candidate.text}</strong>
        <code className="faint">{candidate.id}</code>
      </div>
      <p className="muted">
        {t('dreams.from', { path: candidate.path, line: String(candidate.line), score: candidate.score.toFixed(2) })}
      </p>
      {candidate.rebased && <p className="muted">{t('dreams.rebased')}</p>}
      <DiffView diff={candidate.diff} />
      <div className="row">
        <button
          type="button"
          className="button primary small"
          disabled={deciding}
          onClick={() => void dreams.getState().decide(candidate.id, 'approve')}
        >
          {t('dreams.approve')}
        </button>
        <button
          type="button"
          className="button small"
          disabled={deciding}
          onClick={() => void dreams.getState().decide(candidate.id, 'reject')}
        >
          {t('dreams.reject')}
        </button>
      </div>
    </li>
  );
}

/** What Dreaming would promote, waiting for the person: each as a diff of MEMORY.md, approve or reject. */
export function PromotionReview() {
  const t = useT();
  const pending = useDomain('dreams', (s) => s.pending);
  const review = useDomain('dreams', (s) => s.status?.review ?? false);
  return (
    <div className="stack">
      <p className="muted" data-testid="dreams-review-mode">
        {review ? t('dreams.reviewOn') : t('dreams.reviewOff')}
      </p>
      <ul className="candidates">
        {pending.length === 0 && <li className="empty card">{t('dreams.noPending')}</li>}
        {pending.map((candidate) => (
          <PendingCandidate key={candidate.id} candidate={candidate} />
        ))}
      </ul>
    </div>
  );
}
