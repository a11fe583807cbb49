import type { FormEvent } from 'react';
import type { ProviderProblem } from '../../../src-main/protocol/methods/providers.js';
import { type MessageKey, useDomain, useStores, useT } from '../../app/stores-context.js';
import { compatiblePresets, type SetupKind } from '../../stores/provider-setup-store.js';
import {
  AzureCredentialFields,
  BedrockCredentialFields,
  type CredentialBinding,
} from '../provider-credentials/credential-fields.js';

const kinds: readonly { kind: SetupKind; label: MessageKey }[] = [
  { kind: 'openai-compatible', label: 'setup.kind.compatible' },
  { kind: 'openai', label: 'setup.kind.openai' },
  { kind: 'openai-responses', label: 'setup.kind.responses' },
  { kind: 'anthropic', label: 'setup.kind.anthropic' },
  { kind: 'google', label: 'setup.kind.google' },
  { kind: 'azure', label: 'setup.kind.azure' },
  { kind: 'bedrock', label: 'setup.kind.bedrock' },
  { kind: 'ollama', label: 'setup.kind.ollama' },
];

/** The credential fields bound to the setup draft, marked invalid where the server named a field. */
function useDraftBinding(): CredentialBinding {
  const { setup } = useStores();
  const draft = useDomain('setup', (s) => s.draft);
  const invalidField = useDomain('setup', (s) => s.invalidField);
  return {
    value: (field) => draft[field],
    edit: (field, value) => setup.getState().edit({ [field]: value }),
    invalidField,
  };
}

function AzureFields() {
  return <AzureCredentialFields binding={useDraftBinding()} deployment />;
}

function BedrockFields() {
  return <BedrockCredentialFields binding={useDraftBinding()} />;
}

// What to try next, by why the test failed.
const hints: Record<ProviderProblem, MessageKey> = {
  auth: 'setup.hint.auth',
  down: 'setup.hint.down',
  timeout: 'setup.hint.timeout',
  http: 'setup.hint.http',
  format: 'setup.hint.format',
  unsupported: 'setup.hint.unsupported',
  bad_input: 'setup.hint.badInput',
};

/** What to try for a kind whose failures mean something else than a wrong /v1 URL or API key. */
function hintFor(kind: SetupKind, problem: ProviderProblem): MessageKey {
  if (kind === 'azure' && problem === 'http') return 'setup.hint.azureHttp';
  if (kind === 'bedrock' && problem === 'auth') return 'setup.hint.bedrockAuth';
  return hints[problem];
}

/** Model servers found on this computer (Ollama, LM Studio), each one click from tested. */
function LocalServers() {
  const t = useT();
  const { setup } = useStores();
  const local = useDomain('setup', (s) => s.local);
  const detecting = useDomain('setup', (s) => s.detecting);
  const found = local.filter((row) => row.available);
  return (
    <div className="setup-local" aria-live="polite">
      {found.length > 0 ? (
        <div className="row setup-chips">
          <span className="muted">{t('setup.localFound')}</span>
          {found.map((row) => (
            <button key={row.id} type="button" className="button small" onClick={() => setup.getState().pickLocal(row)}>
              {t('setup.useLocal', { name: row.name, n: row.models.length })}
            </button>
          ))}
        </div>
      ) : (
        <p className="faint">
          {detecting ? t('setup.localLooking') : t('setup.localNone')}{' '}
          <button
            type="button"
            className="link-button"
            disabled={detecting}
            onClick={() => void setup.getState().detect()}
          >
            {t('setup.localAgain')}
          </button>
        </p>
      )}
    </div>
  );
}

/** Test connection's answer: the models to pick from, or the provider's refusal and what to try. */
function TestResult() {
  const t = useT();
  const { setup } = useStores();
  const result = useDomain('setup', (s) => s.result);
  const id = useDomain('setup', (s) => s.draft.id);
  const kind = useDomain('setup', (s) => s.draft.kind);
  const primary = useDomain('setup', (s) => s.primary);
  const fallbacks = useDomain('setup', (s) => s.fallbacks);
  if (!result) return null;
  if (!result.ok) {
    return (
      <div className="setup-refusal notice" role="alert">
        <strong>{t('setup.failed')}</strong> {result.message}
        <p className="muted">{t(hintFor(kind, result.problem))}</p>
      </div>
    );
  }
  if (result.models.length === 0) {
    return (
      <p className="notice" role="alert">
        {t('setup.noModels')}
      </p>
    );
  }
  const refs = result.models.map((model) => ({ model, ref: `${id}/${model}` }));
  return (
    <div className="setup-models stack">
      <p className="badge ok plain" role="status">
        {t('setup.connected', { n: result.models.length })}
      </p>
      <label className="field">
        <span>{t('setup.primary')}</span>
        <select
          className="select"
          value={primary ?? ''}
          onChange={(event) => setup.getState().pickPrimary(event.target.value)}
        >
          {refs.map(({ model, ref }) => (
            <option key={ref} value={ref}>
              {model}
            </option>
          ))}
        </select>
      </label>
      {refs.length > 1 && (
        <fieldset className="setup-fallbacks">
          <legend>{t('setup.fallbacks')}</legend>
          <ul>
            {refs
              .filter(({ ref }) => ref !== primary)
              .map(({ model, ref }) => (
                <li key={ref}>
                  <label>
                    <input
                      type="checkbox"
                      checked={fallbacks.includes(ref)}
                      onChange={() => setup.getState().toggleFallback(ref)}
                    />{' '}
                    {model}
                    {fallbacks.includes(ref) && (
                      <span className="faint"> · {t('setup.fallbackN', { n: fallbacks.indexOf(ref) + 1 })}</span>
                    )}
                  </label>
                </li>
              ))}
          </ul>
        </fieldset>
      )}
    </div>
  );
}

/**
 * Onboarding's provider form: every kind Hearth can set up from the app, an OpenAI-compatible
 * endpoint by base URL (with presets), a real Test connection, and Save through the server.
 */
export function ProviderSetup() {
  const t = useT();
  const { setup } = useStores();
  const draft = useDomain('setup', (s) => s.draft);
  const testing = useDomain('setup', (s) => s.testing);
  const saving = useDomain('setup', (s) => s.saving);
  const primary = useDomain('setup', (s) => s.primary);
  const error = useDomain('setup', (s) => s.error);
  const compatible = draft.kind === 'openai-compatible';
  const cloud = draft.kind === 'azure' || draft.kind === 'bedrock';
  // Azure and Bedrock are tested with what is there: the server names any field still missing.
  const needsKey = !compatible && !cloud && draft.kind !== 'ollama';
  const submit = (event: FormEvent) => {
    event.preventDefault();
    void setup.getState().test();
  };
  return (
    <form className="provider-setup stack" onSubmit={submit} aria-label={t('setup.title')}>
      <LocalServers />
      <fieldset className="setup-kinds">
        <legend>{t('setup.kind')}</legend>
        <div className="segmented">
          {kinds.map(({ kind, label }) => (
            <label key={kind} className={draft.kind === kind ? 'segment selected' : 'segment'}>
              <input
                type="radio"
                name="setup-kind"
                value={kind}
                checked={draft.kind === kind}
                onChange={() => setup.getState().choose(kind)}
              />
              {t(label)}
            </label>
          ))}
        </div>
      </fieldset>
      {compatible && (
        <div className="row setup-chips">
          <span className="faint">{t('setup.presets')}</span>
          {compatiblePresets.map((preset) => (
            <button
              key={preset.id}
              type="button"
              className={draft.baseURL === preset.baseURL ? 'button small chip selected' : 'button small chip'}
              aria-pressed={draft.baseURL === preset.baseURL}
              onClick={() => setup.getState().applyPreset(preset)}
            >
              {preset.name}
            </button>
          ))}
        </div>
      )}
      {draft.kind === 'azure' && <AzureFields />}
      {draft.kind === 'bedrock' && <BedrockFields />}
      <div className="setup-fields" hidden={cloud}>
        {(compatible || draft.kind === 'ollama') && (
          <label className="field setup-wide">
            <span>{t('setup.baseURL')}</span>
            <input
              className="input"
              inputMode="url"
              autoComplete="off"
              spellCheck={false}
              placeholder={compatible ? 'http://127.0.0.1:1234/v1' : 'http://127.0.0.1:11434/api'}
              value={draft.baseURL}
              onChange={(event) => setup.getState().edit({ baseURL: event.target.value })}
            />
          </label>
        )}
        {compatible && (
          <label className="field">
            <span>{t('setup.name')}</span>
            <input
              className="input"
              autoComplete="off"
              spellCheck={false}
              value={draft.id}
              onChange={(event) => setup.getState().edit({ id: event.target.value.trim() })}
            />
          </label>
        )}
        {draft.kind !== 'ollama' && !cloud && (
          <label className="field">
            <span>{needsKey ? t('setup.apiKey') : t('setup.apiKeyOptional')}</span>
            <input
              className="input"
              type="password"
              autoComplete="off"
              value={draft.apiKey}
              onChange={(event) => setup.getState().edit({ apiKey: event.target.value })}
            />
          </label>
        )}
      </div>
      <div className="row setup-actions">
        <button type="submit" className="button" disabled={testing || (needsKey && !draft.apiKey.trim())}>
          {testing ? t('setup.testing') : t('setup.test')}
        </button>
        <span className="faint">{t('setup.keyNote')}</span>
      </div>
      {error && (
        <p className="notice" role="alert">
          {error}
        </p>
      )}
      <TestResult />
      {primary && (
        <div className="row setup-actions">
          <button
            type="button"
            className="button primary"
            disabled={saving}
            onClick={() => void setup.getState().save()}
          >
            {saving ? t('setup.saving') : t('setup.save')}
          </button>
        </div>
      )}
    </form>
  );
}
