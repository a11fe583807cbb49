import { useState } from 'react';
import { useDomain, useStores, useT } from '../../app/stores-context.js';
import type { MessageKey } from '../../i18n/en.js';
import { type FieldSpec, formFields, parseList, pathText, readField, withField } from './settings-form.js';

type Draft = Record<string, unknown>;

const labelKey = (field: FieldSpec) => `settings.field.${pathText(field.path)}` as MessageKey;
const hintKey = (field: FieldSpec) => `settings.hint.${pathText(field.path)}` as MessageKey;
const inputId = (field: FieldSpec) => `setting-${pathText(field.path).replaceAll('.', '-')}`;

function FieldInput({
  field,
  value,
  invalid,
  onChange,
}: {
  field: FieldSpec;
  value: unknown;
  invalid: boolean;
  onChange(value: unknown): void;
}) {
  const common = {
    id: inputId(field),
    'aria-invalid': invalid,
    'aria-describedby': `${inputId(field)}-hint`,
  };
  switch (field.kind) {
    case 'enum':
      return (
        <select className="select" {...common} value={String(value)} onChange={(e) => onChange(e.target.value)}>
          {field.options.map((option) => (
            <option key={option} value={option}>
              {option}
            </option>
          ))}
        </select>
      );
    case 'boolean':
      return (
        <input type="checkbox" {...common} checked={value === true} onChange={(e) => onChange(e.target.checked)} />
      );
    case 'list':
      return (
        <input
          className="input"
          {...common}
          value={Array.isArray(value) ? value.join(', ') : String(value)}
          onChange={(e) => onChange(e.target.value)}
        />
      );
    default:
      return <input className="input" {...common} value={String(value)} onChange={(e) => onChange(e.target.value)} />;
  }
}

/** The commonly changed settings as a form; a save goes through config.set like the raw editor. */
export function SettingsForm({ fields = formFields }: { fields?: FieldSpec[] }) {
  const t = useT();
  const { config } = useStores();
  const raw = useDomain('config', (s) => s.raw);
  const parsed = useDomain('config', (s) => s.parsed);
  const issues = useDomain('config', (s) => s.issues);
  const saving = useDomain('config', (s) => s.saving);
  const savedAt = useDomain('config', (s) => s.savedAt);
  const error = useDomain('config', (s) => s.error);
  const [draft, setDraft] = useState<Draft>({});
  const [unreadable, setUnreadable] = useState<string>();
  // A new file (saved here or elsewhere) starts a fresh draft; a refused save keeps the draft.
  const [base, setBase] = useState(raw);
  if (base !== raw) {
    setBase(raw);
    setDraft({});
  }
  const dirty = Object.keys(draft).length > 0;

  const save = () => {
    let next = raw;
    try {
      for (const field of fields) {
        const key = pathText(field.path);
        if (!(key in draft)) continue;
        const value = field.kind === 'list' && typeof draft[key] === 'string' ? parseList(draft[key]) : draft[key];
        next = withField(next, field.path, value);
      }
    } catch (cause) {
      setUnreadable(cause instanceof Error ? cause.message : String(cause));
      return;
    }
    setUnreadable(undefined);
    void config.getState().save(next);
  };

  return (
    <form
      className="card stack settings-form"
      onSubmit={(e) => {
        e.preventDefault();
        save();
      }}
    >
      <p className="muted" style={{ margin: 0 }}>
        {t('settings.form.intro')}
      </p>
      {fields.map((field) => {
        const key = pathText(field.path);
        const value = key in draft ? draft[key] : readField(parsed, field);
        const fieldIssues = issues.filter((issue) => issue.path === key || issue.path.startsWith(`${key}.`));
        return (
          <div key={key} className={field.kind === 'boolean' ? 'setting-row setting-check' : 'setting-row'}>
            <label htmlFor={inputId(field)}>
              {t(labelKey(field))} <code className="faint">{key}</code>
            </label>
            <FieldInput
              field={field}
              value={value}
              invalid={fieldIssues.length > 0}
              onChange={(v) => setDraft((d) => ({ ...d, [key]: v }))}
            />
            <small id={`${inputId(field)}-hint`} className="faint">
              {t(hintKey(field))}
            </small>
            {fieldIssues.map((issue) => (
              <small key={issue.message} className="field-error" role="alert">
                <code>{issue.path}</code> {issue.message}
              </small>
            ))}
          </div>
        );
      })}
      {issues.some((issue) => !fields.some((f) => issue.path.startsWith(pathText(f.path)))) && (
        <ul className="notice issues" role="alert">
          {issues.map((issue) => (
            <li key={`${issue.path}:${issue.message}`}>
              <code>{issue.path}</code> {issue.message}
            </li>
          ))}
        </ul>
      )}
      {(unreadable || error) && (
        <p className="notice" role="alert">
          {unreadable ? t('settings.form.unreadable', { error: unreadable }) : error}
        </p>
      )}
      <div className="spread">
        <span className="faint" role="status">
          {dirty ? t('settings.form.unsaved') : savedAt && issues.length === 0 && !error ? t('settings.saved') : ''}
        </span>
        <button type="submit" className="button primary" disabled={saving || !dirty}>
          {t('common.save')}
        </button>
      </div>
    </form>
  );
}
