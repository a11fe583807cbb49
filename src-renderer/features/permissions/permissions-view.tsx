import { useEffect } from 'react';
import type { PermissionRuleView, SessionGrantView } from '../../../src-main/protocol/methods/permissions.js';
import { useDomain, useStores, useT } from '../../app/stores-context.js';
import { describeDecider } from '../../stores/decider.js';
import { formatTime } from '../../ui/use-now.js';
import { ChatTitle } from '../chat/chat-title.js';
import './permissions.css';

/**
 * What a rule allows, in one line: the program (and its pinned arguments, and the folder a
 * `folder` rule is limited to), the tool, the server.
 */
function ruleWhat(rule: PermissionRuleView): string {
  if (rule.kind === 'exec') {
    const command = rule.argPattern ? `${rule.pattern} ${rule.argPattern}` : (rule.pattern ?? '');
    return rule.cwdWithin ? `${command} · ${rule.cwdWithin}` : command;
  }
  if (rule.scope === 'server') return rule.server ?? '';
  return rule.scope === 'exact' && rule.args ? `${rule.tool} ${rule.args}` : (rule.tool ?? '');
}

function RevokeButton({ id, label }: { id: string; label: string }) {
  const t = useT();
  const { permissions } = useStores();
  const busy = useDomain('permissions', (s) => s.busy.includes(id));
  return (
    <button
      type="button"
      className="button danger"
      disabled={busy}
      aria-label={`${t('permissions.revoke')} ${label}`}
      onClick={() => void permissions.getState().revoke(id)}
    >
      {t('permissions.revoke')}
    </button>
  );
}

function RuleRow({ rule }: { rule: PermissionRuleView }) {
  const t = useT();
  const what = ruleWhat(rule);
  const who = describeDecider(rule.origin);
  return (
    <li className="card permission-row" data-testid="permission-rule" aria-label={what}>
      <div className="spread">
        <strong>{t(`permissions.kind.${rule.kind}`)}</strong>
        <RevokeButton id={rule.id} label={what} />
      </div>
      <code className="permission-what">{what}</code>
      <dl className="faint">
        <dt>{t('permissions.scope')}</dt>
        <dd>{t(`permissions.scope.${rule.scope}`)}</dd>
        <dt>{t('permissions.agent')}</dt>
        <dd>{rule.agentId ?? t('permissions.everyAgent')}</dd>
        <dt>{t('permissions.origin')}</dt>
        <dd>
          {rule.origin.startsWith('imported:') ? rule.origin : t(who.key, { name: who.name ?? '' })} ·{' '}
          {formatTime(rule.addedAtMs)}
        </dd>
        <dt>{t('permissions.expires')}</dt>
        <dd>{rule.expiresAtMs === undefined ? t('permissions.never') : formatTime(rule.expiresAtMs)}</dd>
      </dl>
      {rule.example && rule.example !== what && <span className="muted permission-what">{rule.example}</span>}
    </li>
  );
}

function GrantRow({ grant }: { grant: SessionGrantView }) {
  const t = useT();
  const what = grant.args ? (grant.kind === 'exec' ? grant.args : `${grant.tool} ${grant.args}`) : grant.tool;
  const who = describeDecider(grant.origin);
  return (
    <li className="card permission-row" data-testid="permission-grant" aria-label={what}>
      <div className="spread">
        <strong>{t(`permissions.kind.${grant.kind}`)}</strong>
        <RevokeButton id={grant.id} label={what} />
      </div>
      <code className="permission-what">{what}</code>
      <dl className="faint">
        <dt>{t('permissions.sessionKey')}</dt>
        <dd>
          <ChatTitle sessionKey={grant.sessionKey} />
        </dd>
        <dt>{t('permissions.origin')}</dt>
        <dd>
          {t(who.key, { name: who.name ?? '' })} · {formatTime(grant.grantedAtMs)}
        </dd>
      </dl>
    </li>
  );
}

/** Permissions: every "always" rule of every tool and every "for this session" answer, each revocable. */
export function PermissionsView() {
  const t = useT();
  const { permissions } = useStores();
  const { rules, session, error, revoked } = useDomain('permissions', (s) => s);
  useEffect(() => {
    void permissions.getState().refresh();
  }, [permissions]);
  return (
    <div className="view-narrow stack">
      <header className="view-header">
        <h1>{t('permissions.title')}</h1>
        <button type="button" className="button" onClick={() => void permissions.getState().refresh()}>
          {t('permissions.refresh')}
        </button>
      </header>
      <p className="muted">{t('permissions.intro')}</p>
      {error && (
        <p className="notice" role="alert">
          {error}
        </p>
      )}
      {!error && revoked && (
        <p className="faint" role="status">
          {t('permissions.revoked', { id: revoked })}
        </p>
      )}
      <section aria-labelledby="permissions-always" className="stack">
        <h2 id="permissions-always">{t('permissions.always')}</h2>
        {rules.length === 0 ? (
          <p className="empty card">{t('permissions.none')}</p>
        ) : (
          <ul className="permissions-list">
            {rules.map((rule) => (
              <RuleRow key={rule.id} rule={rule} />
            ))}
          </ul>
        )}
      </section>
      <section aria-labelledby="permissions-session" className="stack">
        <h2 id="permissions-session">{t('permissions.session')}</h2>
        {session.length === 0 ? (
          <p className="empty card">{t('permissions.noneSession')}</p>
        ) : (
          <ul className="permissions-list">
            {session.map((grant) => (
              <GrantRow key={grant.id} grant={grant} />
            ))}
          </ul>
        )}
      </section>
    </div>
  );
}
