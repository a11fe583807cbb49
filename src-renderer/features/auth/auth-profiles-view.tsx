import { type FormEvent, useEffect, useState } from 'react';
import { useDomain, useStores, useT } from '../../app/stores-context.js';
import type { AuthProfile } from '../../stores/auth-store.js';
import { formatDuration, formatTime, useNow } from '../../ui/use-now.js';
import './auth.css';
import { ModelChain } from './model-chain.js';

const providers = ['openai', 'anthropic', 'google', 'openrouter', 'ollama', 'azure', 'bedrock'];

function ProfileRow({ profile, now }: { profile: AuthProfile; now: number }) {
  const t = useT();
  const { auth } = useStores();
  const probing = useDomain('auth', (s) => s.probing.includes(profile.id));
  const coolingFor = profile.cooldownUntil ? (profile.cooldownUntil - now) / 1000 : 0;
  const cooled = profile.verified ? 'ready' : 'unverified';
  const status = profile.status === 'cooldown' && coolingFor <= 0 ? cooled : profile.status;
  const tone = status === 'ready' ? 'ok' : status === 'cooldown' || status === 'unverified' ? 'warn' : 'danger';
  const probe = profile.lastProbe;
  return (
    <li className="profile card" data-testid="auth-profile" data-status={status}>
      <div className="profile-main">
        <div className="row">
          <strong>{profile.label}</strong>
          <span className="faint">{profile.provider}</span>
          <span className={`badge ${tone}`}>{t(`auth.${status}`)}</span>
          {status === 'cooldown' && (
            <span className="badge warn plain" role="timer">
              {t('auth.cooldownFor', { time: formatDuration(coolingFor) })}
            </span>
          )}
        </div>
        {profile.reason && status !== 'ready' && <p className="profile-reason">{profile.reason}</p>}
        {profile.fix && status === 'disabled' && <p className="muted">{t('auth.fix', { fix: profile.fix })}</p>}
        <p className="faint" data-testid="auth-probe">
          {probing
            ? t('auth.probing')
            : !probe
              ? t('auth.neverChecked')
              : probe.ok
                ? t('auth.probeOk', { when: formatTime(probe.at), n: probe.models ?? 0 })
                : t('auth.probeFailed', { when: formatTime(probe.at), message: probe.message ?? probe.problem ?? '' })}
        </p>
        <p className="faint">
          {t('auth.lastUsed', { when: formatTime(profile.lastUsedAt) })} ·{' '}
          {profile.failureCount === 1 ? t('auth.failureOne') : t('auth.failures', { n: profile.failureCount })}
        </p>
      </div>
      <div className="profile-actions">
        <button
          type="button"
          className="button small"
          disabled={probing}
          onClick={() => void auth.getState().probe(profile.id, true)}
        >
          {t('auth.probe')}
        </button>
        <button
          type="button"
          className="button ghost danger small"
          onClick={() => void auth.getState().remove(profile.id)}
        >
          {t('common.remove')}
        </button>
      </div>
    </li>
  );
}

function AddProfileForm() {
  const t = useT();
  const { auth } = useStores();
  const [provider, setProvider] = useState('openai');
  const [label, setLabel] = useState('');
  const [apiKey, setApiKey] = useState('');
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (await auth.getState().add({ provider, label, apiKey })) {
      setLabel('');
      setApiKey('');
    }
  };
  return (
    <form className="card add-profile" onSubmit={submit} aria-labelledby="add-profile-title">
      <h2 id="add-profile-title">{t('auth.add')}</h2>
      <div className="add-profile-fields">
        <label className="field">
          <span>{t('auth.provider')}</span>
          <select className="select" value={provider} onChange={(e) => setProvider(e.target.value)}>
            {providers.map((p) => (
              <option key={p} value={p}>
                {p}
              </option>
            ))}
          </select>
        </label>
        <label className="field">
          <span>{t('auth.label')}</span>
          <input className="input" value={label} onChange={(e) => setLabel(e.target.value)} />
        </label>
        <label className="field">
          <span>{t('auth.apiKey')}</span>
          <input
            className="input"
            type="password"
            autoComplete="off"
            value={apiKey}
            onChange={(e) => setApiKey(e.target.value)}
          />
        </label>
      </div>
      <div className="spread">
        <span className="faint">{t('auth.keyNote')}</span>
        <button type="submit" className="button primary">
          {t('common.add')}
        </button>
      </div>
    </form>
  );
}

export function AuthProfilesView() {
  const t = useT();
  const { auth } = useStores();
  // Cooldowns and failures are recorded by runs, which send no auth.profiles.changed: re-read on
  // show, then probe the keys (the server answers from its last probe within the cooldown).
  useEffect(() => {
    void auth
      .getState()
      .refresh()
      .then(() => auth.getState().probe());
  }, [auth]);
  const profiles = useDomain('auth', (s) => s.profiles);
  const error = useDomain('auth', (s) => s.error);
  const secretWarning = useDomain('auth', (s) => s.secretWarning);
  const now = useNow(profiles.some((p) => p.status === 'cooldown'));
  return (
    <div className="view-narrow stack">
      <header className="view-header">
        <h1>{t('auth.title')}</h1>
      </header>
      {error && (
        <p className="notice" role="alert">
          {error}
        </p>
      )}
      {secretWarning && <p className="badge warn plain secret-warning">{secretWarning}</p>}
      {profiles.length === 0 ? (
        <p className="empty card">{t('auth.none')}</p>
      ) : (
        <ol className="profiles" aria-label={t('auth.title')}>
          {profiles.map((profile) => (
            <ProfileRow key={profile.id} profile={profile} now={now} />
          ))}
        </ol>
      )}
      <AddProfileForm />
      <ModelChain />
    </div>
  );
}
