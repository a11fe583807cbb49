import type { FormEvent } from 'react';
import type { ProviderProblem } from '../../../src-main/protocol/methods/providers.js';
import { type MessageKey, useDomain, useStores, useT } from '../../app/stores-context.js';
import { compatiblePresets, type SetupField, type SetupKind } from '../../stores/provider-setup-store.js';

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

/** One text field of the draft; marked invalid when the server named it. */
function DraftField(props: {
  field: SetupField;
  label: MessageKey;
  placeholder?: string;
  secret?: boolean;
  wide?: boolean;
  url?: boolean;
}) {
  const t = useT();
  const { setup } = useStores();
  const value = useDomain('setup', (s) => s.draft[props.field]);
  const invalid = useDomain('setup', (s) => s.invalidField === props.field);
  return (
    <label className={props.wide ? 'field setup-wide' : 'field'}>
      <span>{t(props.label)}</span>
      <input
        className="input"
        type={props.secret ? 'password' : 'text'}
        inputMode={props.url ? 'url' : undefined}
        autoComplete="off"
        spellCheck={false}
        placeholder={props.placeholder}
        aria-invalid={invalid || undefined}
        value={value}
        onChange={(event) => setup.getState().edit({ [props.field]: event.target.value })}
      />
    </label>
  );
}

/** Azure OpenAI: where the resource is, which deployment, which api-version, and its key. */
function AzureFields() {
  const t = useT();
  return (
    <>
      <div className="setup-fields">
        <DraftField field="resourceName" label="setup.resourceName" placeholder="my-resource" />
        <DraftField field="deployment" label="setup.deployment" placeholder="gpt-4o" />
        <DraftField field="apiVersion" label="setup.apiVersion" placeholder="2024-10-21" />
        <DraftField field="apiKey" label="setup.apiKey" secret />
        <DraftField
          field="baseURL"
          label="setup.azureBaseURL"
          placeholder="https://my-resource.openai.azure.com/openai"
          wide
          url
        />
      </div>
      <p className="faint">{t('setup.azureNote')}</p>
    </>
  );
}

/** Amazon Bedrock: the region and an IAM access key pair (plus a session token for temporary keys). */
function BedrockFields() {
  const t = useT();
  return (
    <>
      <div className="setup-fields">
        <DraftField field="region" label="setup.region" placeholder="us-east-1" />
        <DraftField field="accessKeyId" label="setup.accessKeyId" placeholder="AKIA…" />
        <DraftField field="secretAccessKey" label="setup.secretAccessKey" secret />
        <DraftField field="sessionToken" label="setup.sessionToken" secret />
        <DraftField
          field="baseURL"
          label="setup.endpointOptional"
          placeholder="https://bedrock.us-east-1.amazonaws.com"
          wide
          url
        />
      </div>
      <p className="faint">{t('setup.bedrockNote')}</p>
    </>
  );
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
