import { type FormEvent, useEffect, useRef, useState } from 'react';
import { useDomain, useStores, useT } from '../../app/stores-context.js';
import type { AuthProfile } from '../../stores/auth-store.js';
import { defaultAzureApiVersion } from '../../stores/provider-setup-store.js';
import { formatDuration, formatTime, useNow } from '../../ui/use-now.js';
import {
  AzureCredentialFields,
  BedrockCredentialFields,
  type CredentialBinding,
  CredentialInput,
} from '../provider-credentials/credential-fields.js';
import {
  type CredentialForm,
  type CredentialProblem,
  type CredentialValues,
  credentialFormOf,
  credentialFromEntry,
  credentialProblem,
  savedCredential,
} from '../provider-credentials/credential-rules.js';
import './auth.css';
import { ModelChain } from './model-chain.js';

function ProfileRow({ profile, now, onReplace }: { profile: AuthProfile; now: number; onReplace(): void }) {
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
        <button type="button" className="button small" onClick={onReplace}>
          {t('auth.replace')}
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

/** The provider ids a key can be added for without configuring them first: a built-in kind of that name. */
const builtinProviders = ['openai', 'openai-responses', 'anthropic', 'google', 'azure', 'bedrock'];

function entryOf(providers: unknown, id: string): Record<string, unknown> | undefined {
  const entry = providers && typeof providers === 'object' ? (providers as Record<string, unknown>)[id] : undefined;
  return entry && typeof entry === 'object' ? (entry as Record<string, unknown>) : undefined;
}

/** What the form starts from: the provider's settings in hearth.json (an Azure one new: the dated api-version). */
function prefillOf(form: CredentialForm, entry: Record<string, unknown> | undefined): CredentialValues {
  const values = credentialFromEntry(entry);
  return form === 'azure' && !entry ? { ...values, apiVersion: defaultAzureApiVersion } : values;
}

/**
 * Adds a credential, or replaces the one of `replacing`. What is asked for follows the provider's
 * kind: a key, Azure's resource and key, or Bedrock's region and key pair; it is checked here,
 * naming the field, before anything is sent.
 */
/**
 * Where a saved secret goes, said truthfully: "the system keychain" only when the gateway keeps
 * secrets there. The fallbacks are worded here from the backend, so a Chinese view does not show
 * the gateway's English sentence; a backend this build does not know keeps that sentence.
 */
function useSecretHome(): { banner?: string; keyNote: string } {
  const t = useT();
  const backend = useDomain('auth', (s) => s.secretBackend);
  const warning = useDomain('auth', (s) => s.secretWarning);
  const reason = useDomain('auth', (s) => s.secretFallbackReason);
  if (backend === 'encrypted-file') {
    return {
      banner: reason ? t('auth.secretFile.because', { reason }) : t('auth.secretFile'),
      keyNote: t('auth.keyNote.file'),
    };
  }
  if (backend === 'electron-safe-storage')
    return { banner: t('auth.secretSafeStorage'), keyNote: t('auth.keyNote.safeStorage') };
  return { ...(warning ? { banner: warning } : {}), keyNote: t('auth.keyNote') };
}

function AddProfileForm({ replacing, onDone }: { replacing?: AuthProfile; onDone(): void }) {
  const t = useT();
  const { keyNote } = useSecretHome();
  const { auth } = useStores();
  const configured = useDomain('config', (s) => s.parsed.providers);
  const [chosen, setChosen] = useState('openai');
  const [label, setLabel] = useState('');
  const [edited, setEdited] = useState<Partial<CredentialValues>>({});
  const [problem, setProblem] = useState<CredentialProblem>();
  const formRef = useRef<HTMLFormElement>(null);
  const provider = replacing?.provider ?? chosen;
  const entry = entryOf(configured, provider);
  const form = credentialFormOf(typeof entry?.kind === 'string' ? entry.kind : provider);
  const values: CredentialValues = { ...prefillOf(form, entry), ...edited };
  const providers = [...new Set([...builtinProviders, ...Object.keys(configured ?? {})])];
  const clear = () => {
    setLabel('');
    setEdited({});
    setProblem(undefined);
  };
  // A Replace click brings the form to the person, ready for the new secret.
  useEffect(() => {
    if (!replacing) return;
    setEdited({});
    setProblem(undefined);
    formRef.current?.querySelector<HTMLInputElement>('input:not([disabled])')?.focus();
  }, [replacing]);
  const binding: CredentialBinding = {
    value: (field) => values[field],
    edit: (field, value) => {
      setEdited((before) => ({ ...before, [field]: value }));
      setProblem(undefined);
    },
    invalidField: problem?.field,
  };
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const wrong = credentialProblem(form, values);
    if (wrong) {
      setProblem(wrong);
      return;
    }
    const saved = savedCredential(form, values);
    const name = replacing ? (replacing.label === replacing.id ? '' : replacing.label) : label;
    const ok = await auth.getState().add({
      provider,
      label: name,
      ...(replacing ? { id: replacing.id } : {}),
      ...(form === 'key' ? { apiKey: saved.secret } : { credential: saved }),
    });
    if (ok) {
      clear();
      onDone();
    }
  };
  return (
    <form ref={formRef} className="card add-profile" onSubmit={submit} aria-labelledby="add-profile-title">
      <h2 id="add-profile-title">{replacing ? t('auth.replaceTitle', { label: replacing.label }) : t('auth.add')}</h2>
      <div className={form === 'key' ? 'add-profile-fields' : 'add-profile-fields no-key'}>
        <label className="field">
          <span>{t('auth.provider')}</span>
          <select
            className="select"
            value={provider}
            disabled={Boolean(replacing)}
            onChange={(event) => {
              setChosen(event.target.value);
              setEdited({});
              setProblem(undefined);
            }}
          >
            {(providers.includes(provider) ? providers : [provider, ...providers]).map((p) => (
              <option key={p} value={p}>
                {p}
              </option>
            ))}
          </select>
        </label>
        <label className="field">
          <span>{t('auth.label')}</span>
          <input
            className="input"
            value={replacing ? replacing.label : label}
            disabled={Boolean(replacing)}
            onChange={(e) => setLabel(e.target.value)}
          />
        </label>
        {form === 'key' && <CredentialInput binding={binding} field="apiKey" label="auth.apiKey" secret />}
      </div>
      {form === 'azure' && <AzureCredentialFields binding={binding} deployment={false} />}
      {form === 'bedrock' && <BedrockCredentialFields binding={binding} />}
      {problem && (
        <p className="notice" role="alert">
          {t(problem.message, problem.params)}
        </p>
      )}
      <div className="spread">
        <span className="faint">{keyNote}</span>
        <div className="row">
          {replacing && (
            <button
              type="button"
              className="button ghost"
              onClick={() => {
                clear();
                onDone();
              }}
            >
              {t('common.cancel')}
            </button>
          )}
          <button type="submit" className="button primary">
            {replacing ? t('auth.replace') : t('common.add')}
          </button>
        </div>
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
  const { banner: secretBanner } = useSecretHome();
  const now = useNow(profiles.some((p) => p.status === 'cooldown'));
  const [replacing, setReplacing] = useState<AuthProfile>();
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
      {secretBanner && <p className="badge warn plain secret-warning">{secretBanner}</p>}
      {profiles.length === 0 ? (
        <p className="empty card">{t('auth.none')}</p>
      ) : (
        <ol className="profiles" aria-label={t('auth.title')}>
          {profiles.map((profile) => (
            <ProfileRow key={profile.id} profile={profile} now={now} onReplace={() => setReplacing(profile)} />
          ))}
        </ol>
      )}
      <AddProfileForm replacing={replacing} onDone={() => setReplacing(undefined)} />
      <ModelChain />
    </div>
  );
}
