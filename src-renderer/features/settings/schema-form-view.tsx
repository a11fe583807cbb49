import { createContext, type ReactNode, useContext, useEffect, useState } from 'react';
import { useDomain, useStores, useT } from '../../app/stores-context.js';
import { en, type MessageKey } from '../../i18n/en.js';
import type { Translate } from '../../i18n/translate.js';
import {
  checkField,
  cleanEntry,
  type FieldPath,
  type FieldProblem,
  type FormField,
  fieldAt,
  fieldFor,
  type JsonSchema,
  mergePatch,
  parseList,
  parseNumber,
  pathText,
  shownValue,
  valueAt,
} from './schema-form.js';

/** Edits not saved yet, by path: a list entry's or a number's value as typed (text), normalised on check and save. */
type Drafts = Map<string, { path: FieldPath; value: unknown }>;
type Entry = Record<string, unknown>;

/** A problem shown next to its field: the form's own check (translated) or the server's refusal (its words). */
interface Shown {
  path: string;
  text: string;
}

// List entries share one label whatever their index: `tools.exec.allowlist.2.pattern` → `tools.exec.allowlist.pattern`.
const labelPath = (path: FieldPath) => path.filter((key) => !/^\d+$/.test(key)).join('.');
const has = (key: string): key is MessageKey => key in en;
const inputId = (at: FieldPath) => `setting-${at.join('-')}`;

/** `timeoutMs` → "Timeout ms": a readable name for a field no one has written a label for. */
function humanize(key: string): string {
  const words = key.replace(/([a-z0-9])([A-Z])/g, '$1 $2').toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

function labelOf(t: Translate, path: FieldPath): string {
  const key = `settings.field.${labelPath(path)}`;
  return has(key) ? t(key) : humanize(path[path.length - 1] ?? '');
}

function hintOf(t: Translate, field: FormField): string | undefined {
  const key = `settings.hint.${labelPath(field.path)}`;
  return has(key) ? t(key) : field.description;
}

function optionLabel(t: Translate, path: FieldPath, option: string): string {
  const key = `settings.option.${labelPath(path)}.${option}`;
  return has(key) ? `${t(key)} (${option})` : option;
}

export function problemText(t: Translate, problem: FieldProblem): string {
  return t(`settings.check.${problem.code}`, { limit: problem.limit ?? '' });
}

/** A draft as the file would hold it: numbers and lists parsed from what was typed, empty optional entry fields dropped. */
export function normalise(field: FormField, value: unknown): unknown {
  if (field.kind === 'number' && typeof value === 'string') return parseNumber(value);
  if (field.kind === 'stringList' && typeof value === 'string') return parseList(value);
  if (field.kind === 'string' && value === '' && !field.required) return undefined;
  if (field.kind === 'objectList' && Array.isArray(value))
    return value.map((entry: Entry) => {
      const typed: Entry = {};
      for (const inner of field.fields) typed[pathText(inner.path)] = normalise(inner, entry[pathText(inner.path)]);
      return cleanEntry(typed, field.fields);
    });
  return value;
}

interface FieldProps {
  field: FormField;
  /** Where the field sits in the document (differs from field.path inside a list entry). */
  at: FieldPath;
  value: unknown;
  problems: Shown[];
  onChange(value: unknown): void;
}

function Problems({ id, problems }: { id: string; problems: Shown[] }) {
  if (problems.length === 0) return null;
  return (
    <span id={id} className="field-errors">
      {problems.map((p) => (
        <small key={`${p.path}:${p.text}`} className="field-error" role="alert">
          <code>{p.path}</code> {p.text}
        </small>
      ))}
    </span>
  );
}

const within = (problems: Shown[], at: FieldPath) => {
  const key = pathText(at);
  return problems.filter((p) => p.path === key || p.path.startsWith(`${key}.`));
};

function Row({
  field,
  at,
  problems,
  children,
}: {
  field: FormField;
  at: FieldPath;
  problems: Shown[];
  children: ReactNode;
}) {
  const t = useT();
  const id = inputId(at);
  const hint = hintOf(t, field);
  return (
    <div className={field.kind === 'boolean' ? 'setting-row setting-check' : 'setting-row'}>
      <label htmlFor={id}>
        {labelOf(t, field.path)} <code className="faint setting-path">{labelPath(at)}</code>
      </label>
      {children}
      {hint && (
        <small id={`${id}-hint`} className="faint">
          {hint}
        </small>
      )}
      <Problems id={`${id}-problems`} problems={problems} />
    </div>
  );
}

function LeafInput({ field, at, value, problems, onChange }: FieldProps) {
  const t = useT();
  const id = inputId(at);
  const common = {
    id,
    'aria-invalid': problems.length > 0,
    'aria-describedby': [hintOf(t, field) ? `${id}-hint` : '', problems.length > 0 ? `${id}-problems` : '']
      .filter(Boolean)
      .join(' '),
  };
  switch (field.kind) {
    case 'boolean':
      return (
        <input type="checkbox" {...common} checked={value === true} onChange={(e) => onChange(e.target.checked)} />
      );
    case 'enum':
      return (
        <select
          className="select"
          {...common}
          value={typeof value === 'string' ? value : ''}
          onChange={(e) => onChange(e.target.value === '' ? undefined : e.target.value)}
        >
          {(typeof value !== 'string' || !field.required) && <option value="">{t('settings.form.unset')}</option>}
          {field.options.map((option) => (
            <option key={option} value={option}>
              {optionLabel(t, field.path, option)}
            </option>
          ))}
        </select>
      );
    case 'number':
      return (
        <input
          className="input"
          inputMode={field.bounds.integer ? 'numeric' : 'decimal'}
          {...common}
          value={value === undefined ? '' : String(value)}
          min={field.bounds.exclusiveMin ? undefined : field.bounds.min}
          max={field.bounds.exclusiveMax ? undefined : field.bounds.max}
          onChange={(e) => onChange(e.target.value)}
        />
      );
    case 'stringList':
      return (
        <textarea
          className="textarea"
          rows={2}
          {...common}
          value={Array.isArray(value) ? value.join('\n') : String(value ?? '')}
          onChange={(e) => onChange(e.target.value)}
        />
      );
    default:
      return (
        <input
          className="input"
          {...common}
          value={typeof value === 'string' ? value : value === undefined ? '' : String(value)}
          onChange={(e) => onChange(e.target.value)}
        />
      );
  }
}

/** A list of objects (the exec allowlist): one card per entry, each with its fields, Add and Remove. */
function ObjectList({
  field,
  at,
  value,
  problems,
  onChange,
}: FieldProps & { field: FormField & { kind: 'objectList' } }) {
  const t = useT();
  const entries: Entry[] = Array.isArray(value) ? (value as Entry[]) : [];
  const update = (index: number, next: Entry | undefined) =>
    onChange(
      next === undefined ? entries.filter((_, i) => i !== index) : entries.map((e, i) => (i === index ? next : e)),
    );
  const own = problems.filter((p) => p.path === pathText(at));
  return (
    <fieldset className="setting-list" aria-describedby={own.length > 0 ? `${inputId(at)}-problems` : undefined}>
      <legend>
        {labelOf(t, field.path)} <code className="faint setting-path">{labelPath(at)}</code>
      </legend>
      {hintOf(t, field) && <small className="faint">{hintOf(t, field)}</small>}
      {entries.length === 0 && <p className="faint">{t('settings.form.noEntries')}</p>}
      <ol className="setting-entries">
        {entries.map((entry, index) => {
          const entryAt = [...at, String(index)];
          return (
            // biome-ignore lint/suspicious/noArrayIndexKey: entries are positional, like the file's array
            <li key={index} className="setting-entry" data-testid="setting-entry">
              {field.fields.map((inner) => {
                const innerAt = [...entryAt, ...inner.path];
                return (
                  <FieldView
                    key={pathText(inner.path)}
                    field={{ ...inner, path: [...field.path, ...inner.path] }}
                    at={innerAt}
                    value={entry[pathText(inner.path)]}
                    problems={within(problems, innerAt)}
                    onChange={(next) => update(index, { ...entry, [pathText(inner.path)]: next })}
                  />
                );
              })}
              <Problems
                id={`${inputId(entryAt)}-problems`}
                problems={problems.filter((p) => p.path === pathText(entryAt))}
              />
              <button type="button" className="button small ghost" onClick={() => update(index, undefined)}>
                {t('settings.form.remove', { n: index + 1 })}
              </button>
            </li>
          );
        })}
      </ol>
      <Problems id={`${inputId(at)}-problems`} problems={own} />
      <button type="button" className="button small" onClick={() => onChange([...entries, {}])}>
        {t('settings.form.add', { what: labelOf(t, field.path) })}
      </button>
    </fieldset>
  );
}

/** One field of any kind; sections and named entries draw their own fields through it again. */
function FieldView(props: FieldProps) {
  const t = useT();
  const { field, at, problems } = props;
  switch (field.kind) {
    case 'section':
      return <NestedSection field={field} at={at} problems={problems} />;
    case 'record':
      return <RecordEntries field={field} at={at} problems={problems} />;
    case 'objectList':
      return <ObjectList {...props} field={field} />;
    case 'unsupported':
      return (
        <div className="setting-row">
          <span>
            {labelOf(t, field.path)} <code className="faint setting-path">{labelPath(at)}</code>
          </span>
          <small className="faint">{t('settings.form.advancedOnly')}</small>
          <Problems id={`${inputId(at)}-problems`} problems={problems} />
        </div>
      );
    default:
      return (
        <Row field={field} at={at} problems={problems}>
          <LeafInput {...props} />
        </Row>
      );
  }
}

/** The form's state, read by every field however deep it sits. */
interface FormModel {
  document: unknown;
  drafts: Drafts;
  problems: Shown[];
  set(path: FieldPath, field: FormField, value: unknown): void;
}

const FormContext = createContext<FormModel | null>(null);

function useFormModel(): FormModel {
  const model = useContext(FormContext);
  if (!model) throw new Error('a settings field is drawn outside <SchemaForm>');
  return model;
}

/** A field bound to the form's state: its draft if edited, else what the file (or the default) says. */
function BoundField({ field }: { field: FormField }) {
  const model = useFormModel();
  const key = pathText(field.path);
  const draft = model.drafts.get(key);
  const value = draft ? draft.value : shownValue(model.document, field);
  return (
    <FieldView
      field={field}
      at={field.path}
      value={value}
      problems={within(model.problems, field.path)}
      onChange={(next) => model.set(field.path, field, next)}
    />
  );
}

function NestedSection({
  field,
  at,
  problems,
}: {
  field: FormField & { kind: 'section' };
  at: FieldPath;
  problems: Shown[];
}) {
  const t = useT();
  const own = problems.filter((p) => p.path === pathText(at));
  return (
    <details className="setting-section" open={problems.length > 0 || undefined}>
      <summary>
        {labelOf(t, field.path)} <code className="faint setting-path">{labelPath(at)}</code>
      </summary>
      {hintOf(t, field) && <small className="faint">{hintOf(t, field)}</small>}
      <Problems id={`${inputId(at)}-problems`} problems={own} />
      {field.fields.map((inner) => (
        <BoundField key={pathText(inner.path)} field={inner} />
      ))}
    </details>
  );
}

function RecordEntries({
  field,
  at,
  problems,
}: {
  field: FormField & { kind: 'record' };
  at: FieldPath;
  problems: Shown[];
}) {
  const t = useT();
  const model = useFormModel();
  const names = Object.keys((valueAt(model.document, field.path) as Record<string, unknown> | undefined) ?? {});
  return (
    <div className="setting-record">
      <strong>
        {labelOf(t, field.path)} <code className="faint setting-path">{labelPath(at)}</code>
      </strong>
      {names.length === 0 && <p className="faint">{t('settings.form.noEntries')}</p>}
      <Problems id={`${inputId(at)}-problems`} problems={problems.filter((p) => p.path === pathText(at))} />
      {names.map((name) => {
        const entry = fieldFor(field.entry, [...field.path, name]);
        return entry.kind === 'section' ? (
          <details key={name} className="setting-section" open={within(problems, entry.path).length > 0 || undefined}>
            <summary>
              <code>{name}</code>
            </summary>
            {entry.fields.map((inner) => (
              <BoundField key={pathText(inner.path)} field={inner} />
            ))}
          </details>
        ) : (
          <BoundField key={name} field={entry} />
        );
      })}
    </div>
  );
}

/** Every edit's problems by the form's own checks, as text next to the field. */
function draftProblems(t: Translate, drafts: Drafts, fields: Map<string, FormField>): Shown[] {
  const shown: Shown[] = [];
  for (const [key, { path, value }] of drafts) {
    const field = fields.get(key);
    if (!field) continue;
    for (const problem of checkField(field, normalise(field, value), path))
      shown.push({ path: problem.path, text: problemText(t, problem) });
  }
  return shown;
}

/**
 * Settings drawn from hearth.json's schema: one card per section path (`tools.exec`), every field
 * in it by kind. Save sends only what changed, as a merge patch against the hash the form read.
 */
export function SchemaForm({ sections }: { sections: FieldPath[] }) {
  const t = useT();
  const { config } = useStores();
  const schema = useDomain('config', (s) => s.schema) as JsonSchema | undefined;
  const parsed = useDomain('config', (s) => s.parsed);
  const issues = useDomain('config', (s) => s.issues);
  const saving = useDomain('config', (s) => s.saving);
  const savedAt = useDomain('config', (s) => s.savedAt);
  const error = useDomain('config', (s) => s.error);
  const conflict = useDomain('config', (s) => s.conflict);
  const [drafts, setDrafts] = useState<Drafts>(new Map());
  // Fields by the path a draft is kept under: the form's checks need the field of each edit.
  const [fields] = useState(() => new Map<string, FormField>());
  const [tried, setTried] = useState(false);
  useEffect(() => {
    void config.getState().loadSchema();
  }, [config]);

  if (!schema) return <p className="empty card">{error ?? t('common.loading')}</p>;

  const own = draftProblems(t, drafts, fields);
  const serverProblems: Shown[] = issues.map((issue) => ({ path: issue.path, text: issue.message }));
  const problems = [...own, ...serverProblems];
  const prefixes = sections.map(pathText);
  const elsewhere = serverProblems.filter(
    (p) => !prefixes.some((key) => p.path === key || p.path.startsWith(`${key}.`)),
  );

  const model: FormModel = {
    document: parsed,
    drafts,
    problems,
    set(path, field, value) {
      fields.set(pathText(path), field);
      setDrafts((current) => new Map(current).set(pathText(path), { path, value }));
    },
  };

  const save = async () => {
    setTried(true);
    if (own.length > 0) return;
    const edits = new Map(
      [...drafts].map(([key, draft]) => [key, { path: draft.path, value: normalise(fields.get(key)!, draft.value) }]),
    );
    if (await config.getState().patch(mergePatch(edits))) {
      setDrafts(new Map());
      setTried(false);
    }
  };

  return (
    <FormContext.Provider value={model}>
      <form
        className="stack settings-form"
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          void save();
        }}
      >
        {sections.map((path) => {
          const field = fieldAt(schema, path);
          if (!field) return null;
          const heading = labelOf(t, path);
          return (
            <section key={pathText(path)} className="card stack" aria-label={heading}>
              <h2>
                {heading} <code className="faint setting-path">{pathText(path)}</code>
              </h2>
              {hintOf(t, field) && <p className="muted">{hintOf(t, field)}</p>}
              {field.kind === 'section' ? (
                field.fields.map((inner) => <BoundField key={pathText(inner.path)} field={inner} />)
              ) : (
                <BoundField field={field} />
              )}
            </section>
          );
        })}
        {elsewhere.length > 0 && (
          <ul className="notice issues" role="alert">
            {elsewhere.map((p) => (
              <li key={`${p.path}:${p.text}`}>
                <code>{p.path}</code> {p.text}
              </li>
            ))}
          </ul>
        )}
        {conflict && (
          <p className="notice" role="alert">
            {t('settings.form.conflict')}
          </p>
        )}
        {error && !conflict && (
          <p className="notice" role="alert">
            {error}
          </p>
        )}
        {tried && own.length > 0 && (
          <p className="notice" role="alert">
            {t('settings.form.fix', { count: own.length })}
          </p>
        )}
        <div className="spread settings-save">
          <span className="faint" role="status">
            {drafts.size > 0
              ? t('settings.form.unsaved')
              : savedAt && issues.length === 0 && !error
                ? t('settings.saved')
                : ''}
          </span>
          <button type="submit" className="button primary" disabled={saving || drafts.size === 0}>
            {t('common.save')}
          </button>
        </div>
      </form>
    </FormContext.Provider>
  );
}
