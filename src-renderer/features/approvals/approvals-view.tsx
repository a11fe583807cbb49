import { useEffect, useState } from 'react';
import { useDomain, useStores, useT } from '../../app/stores-context.js';
import type { AlwaysScope, Answer, PendingApproval } from '../../stores/approvals-store.js';
import { describeDecider } from '../../stores/decider.js';
import { formatDuration, formatTime, useNow } from '../../ui/use-now.js';
import { answerPlan, keyAction } from './approval-answers.js';
import { reasonLines, scopeText } from './approval-words.js';
import './approvals.css';

const riskTone = { safe: 'ok', caution: 'warn', destructive: 'danger' } as const;

const decisionLabel = {
  'allow-once': 'approvals.allowOnce',
  'allow-always': 'approvals.allowAlways',
  'allow-session': 'approvals.decision.allowSession',
  deny: 'approvals.deny',
} as const;

/** What A allows: "for this session" where that is the suggestion (read-only requests), else once. */
function primaryAnswer(entry: PendingApproval): Answer {
  return entry.suggested === 'session' && entry.allowSession ? 'allow-session' : 'allow-once';
}

/** The card's "Always allow:" select, which S focuses when several scopes are on offer. */
const alwaysScopeId = (approvalId: string) => `always-scope-${approvalId}`;

function ApprovalCard({ entry, selected, now }: { entry: PendingApproval; selected: boolean; now: number }) {
  const t = useT();
  const { approvals } = useStores();
  const secondsLeft = Math.ceil((entry.expiresAtMs - now) / 1000);
  const isTool = entry.kind !== undefined;
  // The same "always" rules the inline card offers (approval-answers.ts): for a command the binary,
  // these exact arguments, or these exact arguments in this folder; a destructive one never the binary.
  const plan = answerPlan(entry);
  const [picked, setPicked] = useState<AlwaysScope | undefined>();
  const scope = picked && plan.alwaysScopes.includes(picked) ? picked : plan.alwaysScopes[0];
  const [until, setUntil] = useState('');
  const decide = (decision: Answer) => {
    void approvals.getState().resolve(entry.id, decision, {
      ...(scope ? { scope } : {}),
      ...(until ? { until } : {}),
    });
  };
  const why = reasonLines(t, entry.risk && entry.risk.because.length > 0 ? entry.risk.because : entry.reasons);
  const canAlways = plan.alwaysScopes.length > 0;
  const kbd = (key: string) => (plan.destructive ? null : <kbd>{key}</kbd>);
  const sessionFirst = primaryAnswer(entry) === 'allow-session';
  return (
    <article
      className={selected ? 'approval card selected' : 'approval card'}
      aria-current={selected ? 'true' : undefined}
      aria-labelledby={`cmd-${entry.id}`}
      data-testid="approval-card"
      data-risk={entry.risk?.level}
    >
      <div className="spread">
        <h3>{isTool ? t('approvals.toolCall', { tool: entry.tool ?? '' }) : t('approvals.command')}</h3>
        <span className="row">
          {entry.risk && (
            <span className={`badge ${riskTone[entry.risk.level]}`}>{t(`approvals.risk.${entry.risk.level}`)}</span>
          )}
          {entry.waiting > 1 && <span className="badge">{t('approvals.waiting', { n: entry.waiting })}</span>}
          <span className={secondsLeft > 0 ? (secondsLeft < 30 ? 'badge warn' : 'badge') : 'badge danger'}>
            {secondsLeft <= 0
              ? t('approvals.expired')
              : secondsLeft < 60
                ? t('approvals.timeLeft', { s: secondsLeft })
                : t('approvals.timeLeftLong', { time: formatDuration(secondsLeft) })}
          </span>
        </span>
      </div>
      {plan.destructive && (
        <p className="inline-approval-warning" role="note">
          {t('approvals.destructiveHint')}
        </p>
      )}
      <pre className="approval-command" id={`cmd-${entry.id}`}>
        {entry.command}
      </pre>
      {why.length > 0 && (
        <div>
          <h3>{t('approvals.why')}</h3>
          <ul className="approval-reasons">
            {why.map((reason) => (
              <li key={reason.text} title={reason.details}>
                {reason.text}
              </li>
            ))}
          </ul>
        </div>
      )}
      <dl className="approval-meta">
        {entry.cwd && (
          <>
            <dt>{t('approvals.cwd')}</dt>
            <dd>
              <code>{entry.cwd}</code>
            </dd>
          </>
        )}
        {(entry.agentId || entry.sessionKey) && (
          <>
            <dt>{t('approvals.agent')}</dt>
            <dd>{entry.agentId ?? entry.sessionKey}</dd>
          </>
        )}
      </dl>
      <div className="row approval-actions">
        {sessionFirst ? (
          <button type="button" className="button primary" onClick={() => decide('allow-session')}>
            {t('approvals.allowSession')} {kbd('A')}
          </button>
        ) : (
          entry.allowedDecisions.includes('allow-once') && (
            <button
              type="button"
              className={plan.destructive ? 'button' : 'button primary'}
              onClick={() => decide('allow-once')}
            >
              {t('approvals.allowOnce')} {kbd('A')}
            </button>
          )
        )}
        {entry.allowSession && !sessionFirst && (
          <button type="button" className="button" onClick={() => decide('allow-session')}>
            {t('approvals.allowSession')} {kbd('F')}
          </button>
        )}
        {canAlways && (
          <button type="button" className="button" onClick={() => decide('allow-always')}>
            {t('approvals.allowAlways')} {kbd('S')}
          </button>
        )}
        {entry.allowedDecisions.includes('deny') && (
          <button type="button" className="button danger" onClick={() => decide('deny')}>
            {t('approvals.deny')} <kbd>D</kbd>
          </button>
        )}
      </div>
      {canAlways && !isTool && (
        <p className="faint">
          {t('approvals.willAdd', {
            entry:
              (scope === 'binary' ? entry.allowAlwaysEntry : entry.allowAlwaysExactEntry) ??
              entry.allowAlwaysEntry ??
              entry.command,
          })}
        </p>
      )}
      {canAlways && plan.alwaysScopes.length > 1 && (
        <label className="faint approval-exact">
          {t('approvals.alwaysFor')}{' '}
          <select
            id={alwaysScopeId(entry.id)}
            value={scope}
            onChange={(event) => setPicked(event.target.value as AlwaysScope)}
          >
            {plan.alwaysScopes.map((option) => (
              <option key={option} value={option}>
                {scopeText(t, entry, option)}
              </option>
            ))}
          </select>
        </label>
      )}
      {canAlways && (
        <label className="faint approval-exact">
          {t('approvals.until')} <input type="date" value={until} onChange={(event) => setUntil(event.target.value)} />
        </label>
      )}
    </article>
  );
}

export function ApprovalsView() {
  const t = useT();
  const deciderText = (resolvedBy: string) => {
    const { key, name } = describeDecider(resolvedBy);
    return t(key, { name: name ?? '' });
  };
  const { approvals } = useStores();
  const pending = useDomain('approvals', (s) => s.pending);
  const history = useDomain('approvals', (s) => s.history);
  const selectedId = useDomain('approvals', (s) => s.selectedId ?? s.pending[0]?.id);
  const error = useDomain('approvals', (s) => s.error);
  const now = useNow(pending.length > 0);

  // A / F / S / D decide the selected request; J / K move. Ignored while typing in a field. A
  // destructive request takes only D (approving it takes a click): approval-answers.ts.
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      const target = event.target as HTMLElement | null;
      if (target && /^(INPUT|TEXTAREA|SELECT)$/.test(target.tagName)) return;
      if (event.metaKey || event.ctrlKey || event.altKey) return;
      const state = approvals.getState();
      const id = state.selectedId ?? state.pending[0]?.id;
      const key = event.key.toLowerCase();
      const entry = state.pending.find((p) => p.id === id);
      const action = entry ? keyAction(entry, key) : undefined;
      if (action && id) {
        event.preventDefault();
        // S with several rules on offer: never a silent default. It takes the person to the card's
        // "Always allow:" choice; the Always button then sends the scope they pick.
        if ('openAlways' in action) document.getElementById(alwaysScopeId(id))?.focus();
        else void state.resolve(id, action.answer, action.scope);
      } else if (key === 'j') state.moveSelection(1);
      else if (key === 'k') state.moveSelection(-1);
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [approvals]);

  return (
    <div className="view-narrow">
      <header className="view-header">
        <h1>{t('approvals.title')}</h1>
        <span className="faint approvals-keys">{t('approvals.shortcuts')}</span>
      </header>
      {error && (
        <p className="notice" role="alert">
          {error}
        </p>
      )}
      <section aria-label={t('approvals.pending')} className="stack">
        {pending.length === 0 && <p className="empty card">{t('approvals.none')}</p>}
        {pending.map((entry) => (
          <ApprovalCard key={entry.id} entry={entry} selected={entry.id === selectedId} now={now} />
        ))}
      </section>
      {history.length > 0 && (
        <section aria-labelledby="approvals-history" style={{ marginTop: 28 }}>
          <h2 id="approvals-history" style={{ marginBottom: 8 }}>
            {t('approvals.history')}
          </h2>
          <ul className="history-list">
            {history.map((item) => (
              <li key={`${item.id}-${item.ts}`}>
                <code>{item.command}</code>
                <span
                  className={
                    item.decision === 'deny' ? 'badge danger' : item.decision === 'expired' ? 'badge' : 'badge ok'
                  }
                >
                  {t('approvals.decidedBy', {
                    decision:
                      item.decision in decisionLabel ? t(decisionLabel[item.decision as Answer]) : item.decision,
                    who: deciderText(item.resolvedBy),
                  })}
                </span>
                {item.reason && <span className="muted history-reason">{item.reason}</span>}
                <span className="faint">{formatTime(item.ts)}</span>
              </li>
            ))}
          </ul>
        </section>
      )}
    </div>
  );
}
