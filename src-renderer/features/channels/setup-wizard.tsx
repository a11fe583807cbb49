import { type ReactElement, useState } from 'react';
import type { ChannelSetupFieldView } from '../../../src-main/protocol/methods/channels.js';
import { useDomain, useStores, useT } from '../../app/stores-context.js';
import type { SetupValue } from '../../stores/channels-store.js';

type Draft = Record<string, string | boolean>;

/** The draft a field starts with: what hearth.json holds, else empty (the gateway uses the default). */
function initialDraft(fields: readonly ChannelSetupFieldView[]): Draft {
  const draft: Draft = {};
  for (const field of fields) {
    if (field.kind === 'secret') draft[field.key] = '';
    else if (field.kind === 'boolean') draft[field.key] = Boolean(field.value ?? field.default ?? false);
    else if (field.kind === 'select') draft[field.key] = String(field.value ?? field.default ?? '');
    else draft[field.key] = field.value === undefined ? '' : String(field.value);
  }
  return draft;
}

/** `when`: asked only while another field has a given value (e.g. the webhook URL in webhook mode). */
function shown(field: ChannelSetupFieldView, draft: Draft): boolean {
  if (!field.when) return true;
  return String(draft[field.when.key]) === String(field.when.equals);
}

function FieldInput({
  field,
  value,
  invalid,
  onChange,
}: {
  field: ChannelSetupFieldView;
  value: string | boolean;
  invalid: boolean;
  onChange(value: string | boolean): void;
}) {
  const t = useT();
  const id = `setup-${field.key}`;
  const describedBy = field.help ? `${id}-help` : undefined;
  const common = { id, 'aria-invalid': invalid || undefined, 'aria-describedby': describedBy };
  let input: ReactElement;
  if (field.kind === 'boolean') {
    input = (
      <input
        {...common}
        type="checkbox"
        checked={value === true}
        onChange={(event) => onChange(event.target.checked)}
      />
    );
  } else if (field.kind === 'select') {
    input = (
      <select {...common} className="select" value={String(value)} onChange={(event) => onChange(event.target.value)}>
        {(field.options ?? []).map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </select>
    );
  } else {
    const placeholder =
      field.kind === 'secret' && field.stored
        ? t('channels.setup.secretStored')
        : (field.placeholder ?? (field.default !== undefined ? String(field.default) : ''));
    input = (
      <input
        {...common}
        className="input"
        type={field.kind === 'secret' ? 'password' : field.kind === 'number' ? 'number' : 'text'}
        autoComplete={field.kind === 'secret' ? 'off' : undefined}
        placeholder={placeholder}
        value={String(value)}
        onChange={(event) => onChange(event.target.value)}
      />
    );
  }
  return (
    <div className={`field setup-field${invalid ? ' invalid' : ''}`} data-testid="setup-field">
      <label htmlFor={id}>
        {field.label}
        {field.required && <span className="faint"> {t('channels.setup.required')}</span>}
        {field.kind === 'secret' && field.stored && <span className="badge ok">{t('channels.setup.stored')}</span>}
      </label>
      {input}
      {field.help && (
        <span id={describedBy} className="faint">
          {field.help}
        </span>
      )}
    </div>
  );
}

/** A channel's setup wizard, rendered from the questions its plugin describes (channels.setup.describe). */
export function SetupWizard() {
  const t = useT();
  const { channels } = useStores();
  const wizard = useDomain('channels', (s) => s.wizard);
  const [draft, setDraft] = useState<Draft>(() => initialDraft(wizard?.description.fields ?? []));
  if (!wizard) return null;
  const { description, saving, error, field: badField, result } = wizard;
  const visible = description.fields.filter((field) => shown(field, draft));
  const basic = visible.filter((field) => !field.advanced);
  const advanced = visible.filter((field) => field.advanced);
  const values = (): Record<string, SetupValue> => {
    const out: Record<string, SetupValue> = {};
    for (const field of visible) {
      const value = draft[field.key];
      // An empty secret keeps the stored one; any other empty field falls back to its default.
      if (field.kind === 'secret') {
        if (typeof value === 'string' && value.trim() !== '') out[field.key] = value;
      } else out[field.key] = value === '' ? null : (value ?? null);
    }
    return out;
  };
  const save = (test: boolean) => {
    void channels.getState().applySetup(values(), test);
    // A secret typed once is not kept in the page after it was sent.
    setDraft((current) => {
      const next = { ...current };
      for (const field of description.fields) if (field.kind === 'secret') next[field.key] = '';
      return next;
    });
  };
  const render = (field: ChannelSetupFieldView) => (
    <FieldInput
      key={field.key}
      field={field}
      value={draft[field.key] ?? ''}
      invalid={badField === field.key}
      onChange={(value) => setDraft((current) => ({ ...current, [field.key]: value }))}
    />
  );
  const title = t('channels.setup.title', { name: description.name });
  return (
    <section className="card stack setup-wizard" aria-label={title}>
      <div className="spread">
        <h2>
          {description.icon ? `${description.icon} ` : ''}
          {title}
        </h2>
        <button type="button" className="button ghost" onClick={() => channels.getState().closeSetup()}>
          {t('channels.setup.close')}
        </button>
      </div>
      {description.description && <p className="muted">{description.description}</p>}
      {description.steps.length > 0 && (
        <ol className="setup-steps">
          {description.steps.map((step) => (
            <li key={step}>{step}</li>
          ))}
        </ol>
      )}
      <form
        className="stack"
        onSubmit={(event) => {
          event.preventDefault();
          save(true);
        }}
      >
        {basic.map(render)}
        {advanced.length > 0 && (
          <details>
            <summary>{t('channels.setup.advanced')}</summary>
            <div className="stack">{advanced.map(render)}</div>
          </details>
        )}
        {error && (
          <p role="alert" className="notice">
            {error}
          </p>
        )}
        {result?.test && (
          <p role="status" className={result.test.ok ? 'notice ok' : 'notice'} data-testid="setup-test">
            {result.test.ok
              ? t('channels.setup.testOk', { account: result.test.account ?? result.channel.name })
              : t('channels.setup.testFailed', { error: result.test.error ?? result.test.state })}
          </p>
        )}
        {result && !result.test && (
          <p role="status" className="notice ok" data-testid="setup-test">
            {t('channels.setup.saved')}
          </p>
        )}
        <div className="row">
          <button type="submit" className="button primary" disabled={saving}>
            {saving ? t('channels.setup.testing') : t('channels.setup.saveAndTest')}
          </button>
          <button type="button" className="button" disabled={saving} onClick={() => save(false)}>
            {t('channels.setup.save')}
          </button>
        </div>
      </form>
    </section>
  );
}
