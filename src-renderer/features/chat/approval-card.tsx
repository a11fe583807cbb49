import { type KeyboardEvent, useEffect, useRef, useState } from 'react';
import { useStores, useT } from '../../app/stores-context.js';
import type { MessageKey } from '../../i18n/en.js';
import type { AlwaysScope, Answer, PendingApproval } from '../../stores/approvals-store.js';
import { formatDuration, useNow } from '../../ui/use-now.js';
import { answerPlan, keyAction } from '../approvals/approval-answers.js';
import { reasonLines, scopeText } from '../approvals/approval-words.js';
import '../approvals/approvals.css';
import './approval-card.css';

const riskLabel: Record<'safe' | 'caution' | 'destructive', MessageKey> = {
  safe: 'approvals.risk.safe',
  caution: 'approvals.risk.caution',
  destructive: 'approvals.risk.destructive',
};
const riskTone = { safe: 'ok', caution: 'warn', destructive: 'danger' } as const;

/** Whether the person is typing (a field with text in it): the card does not take the focus from them then. */
function typing(): boolean {
  const active = document.activeElement;
  if (active instanceof HTMLTextAreaElement) return active.value !== '';
  if (active instanceof HTMLInputElement) return active.value !== '' && active.type !== 'checkbox';
  return active instanceof HTMLSelectElement || (active instanceof HTMLElement && active.isContentEditable);
}

/**
 * A pending approval, inline in the conversation where the run waits on it: the command, what it
 * will touch (folder, files it writes, network), the risk, and Allow once / Allow for this chat /
 * Always… / Deny, with A / F / S / D while the card has the focus. A destructive command is marked,
 * has Deny focused, takes no single-key approve and offers "always" only for these exact arguments
 * (anywhere or in this folder). Every surface answers through the approvals store; the
 * `exec.approval.resolved` event then settles the card everywhere at once.
 */
export function ApprovalCard({ entry }: { entry: PendingApproval }) {
  const t = useT();
  const { approvals } = useStores();
  const plan = answerPlan(entry);
  const [choosing, setChoosing] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string>();
  const allowRef = useRef<HTMLButtonElement>(null);
  const denyRef = useRef<HTMLButtonElement>(null);
  const now = useNow(true);
  const secondsLeft = Math.ceil((entry.expiresAtMs - now) / 1000);
  const level = entry.risk?.level;

  // The default answer has the focus when the card appears (Deny for a destructive command), so
  // Enter means the safe thing; not while the person is typing a message.
  useEffect(() => {
    if (typing()) return;
    (plan.focus === 'deny' ? denyRef : allowRef).current?.focus({ preventScroll: true });
  }, [plan.focus]);

  const answer = async (decision: Answer, scope?: AlwaysScope) => {
    setBusy(true);
    const refused = await approvals.getState().resolve(entry.id, decision, scope ? { scope } : undefined);
    setBusy(false);
    setError(refused);
  };

  const onKeyDown = (event: KeyboardEvent<HTMLElement>) => {
    if (event.metaKey || event.ctrlKey || event.altKey) return;
    const action = keyAction(entry, event.key);
    if (!action) return;
    event.preventDefault();
    if ('openAlways' in action) setChoosing(true);
    else void answer(action.answer, action.scope);
  };

  const kbd = (key: string) => (plan.destructive ? null : <kbd>{key}</kbd>);
  const because = reasonLines(t, entry.risk && entry.risk.because.length > 0 ? entry.risk.because : entry.reasons);

  return (
    <article
      className="inline-approval"
      data-risk={level ?? 'unknown'}
      data-testid="inline-approval"
      aria-label={t('approvals.inline.label', { command: entry.command })}
      aria-busy={busy || undefined}
      onKeyDown={onKeyDown}
    >
      <header className="inline-approval-head">
        {level && (
          <span className={`badge ${riskTone[level]}`} data-testid="approval-risk">
            {t(riskLabel[level])}
          </span>
        )}
        {entry.waiting > 1 && <span className="badge">{t('approvals.waiting', { n: entry.waiting })}</span>}
        <span className="faint inline-approval-time">
          {secondsLeft <= 0
            ? t('approvals.expired')
            : secondsLeft < 60
              ? t('approvals.timeLeft', { s: secondsLeft })
              : t('approvals.timeLeftLong', { time: formatDuration(secondsLeft) })}
        </span>
      </header>
      {plan.destructive && (
        <p className="inline-approval-warning" role="note">
          {t('approvals.destructiveHint')}
        </p>
      )}
      <pre className="approval-command">{entry.command}</pre>
      <dl className="approval-meta" aria-label={t('approvals.touches')}>
        {entry.cwd && (
          <>
            <dt>{t('approvals.cwd')}</dt>
            <dd>
              <code>{entry.cwd}</code>
            </dd>
          </>
        )}
        {entry.risk && (
          <>
            <dt>{t('approvals.writes')}</dt>
            <dd data-testid="approval-writes">
              {entry.risk.writes.length > 0 ? (
                entry.risk.writes.map((path) => <code key={path}>{path}</code>)
              ) : (
                <span className="muted">{t('approvals.writes.none')}</span>
              )}
            </dd>
            <dt>{t('approvals.network')}</dt>
            <dd>{entry.risk.network ? t('approvals.network.yes') : t('approvals.network.no')}</dd>
          </>
        )}
      </dl>
      {because.length > 0 && (
        <ul className="approval-reasons" aria-label={t('approvals.why')}>
          {because.map((reason) => (
            <li key={reason.text} title={reason.details}>
              {reason.text}
            </li>
          ))}
        </ul>
      )}
      <div className="row approval-actions">
        {plan.primary && (
          <button
            ref={allowRef}
            type="button"
            className={plan.destructive ? 'button' : 'button primary'}
            disabled={busy}
            onClick={() => void answer(plan.primary!)}
          >
            {plan.primary === 'allow-session' ? t('approvals.allowChat') : t('approvals.allowOnce')} {kbd('A')}
          </button>
        )}
        {plan.session && (
          <button type="button" className="button" disabled={busy} onClick={() => void answer('allow-session')}>
            {t('approvals.allowChat')} {kbd('F')}
          </button>
        )}
        {plan.alwaysScopes.length > 0 && (
          <button
            type="button"
            className="button"
            aria-expanded={choosing}
            disabled={busy}
            onClick={() => setChoosing((open) => !open)}
          >
            {t('approvals.alwaysMenu')} {kbd('S')}
          </button>
        )}
        {plan.deny && (
          <button
            ref={denyRef}
            type="button"
            className={plan.destructive ? 'button danger primary-deny' : 'button danger'}
            disabled={busy}
            onClick={() => void answer('deny')}
          >
            {t('approvals.deny')} <kbd>D</kbd>
          </button>
        )}
      </div>
      {choosing && (
        <fieldset className="inline-approval-always">
          <legend>{t('approvals.alwaysPick')}</legend>
          {plan.alwaysScopes.map((scope) => (
            <button
              key={scope}
              type="button"
              className="button"
              disabled={busy}
              onClick={() => void answer('allow-always', scope)}
            >
              {scopeText(t, entry, scope)}
            </button>
          ))}
          <button type="button" className="button ghost" onClick={() => setChoosing(false)}>
            {t('approvals.cancel')}
          </button>
        </fieldset>
      )}
      {error && (
        <p className="notice" role="alert">
          {error}
        </p>
      )}
      <p className="faint inline-approval-keys">
        {plan.destructive ? t('approvals.inline.keysDestructive') : t('approvals.inline.keys')}
      </p>
    </article>
  );
}
