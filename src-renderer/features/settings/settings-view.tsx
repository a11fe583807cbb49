import { useEffect, useState } from 'react';
import { useDomain, useStores, useT } from '../../app/stores-context.js';
import type { MessageKey } from '../../i18n/en.js';
import { record } from '../../stores/gateway-port.js';
import { TabList } from '../../ui/tab-list.js';
import { AboutPanel } from './about-panel.js';
import type { ThemeChoice } from './appearance.js';
import { useAppearanceStore } from './appearance-store.js';
import { SchemaForm } from './schema-form-view.js';
import './settings.css';

type Section = 'general' | 'agents' | 'providers' | 'exec' | 'memory' | 'connections' | 'about' | 'advanced';

const sections: { id: Section; label: MessageKey; keys?: string[]; form?: string[][] }[] = [
  { id: 'general', label: 'settings.general' },
  // Read views of these top-level sections of hearth.json (config/config-schema.ts).
  { id: 'agents', label: 'settings.agents', keys: ['agents', 'bindings', 'session', 'channels'] },
  { id: 'providers', label: 'settings.providers', keys: ['providers', 'models', 'auth'] },
  // Forms drawn from the config schema (config.schema): the settings people change.
  { id: 'exec', label: 'settings.tab.exec', form: [['tools', 'exec']] },
  {
    id: 'memory',
    label: 'settings.tab.memory',
    form: [
      ['memory', 'recall'],
      ['memory', 'dreaming'],
    ],
  },
  { id: 'connections', label: 'settings.tab.connections', form: [['mcp']] },
  { id: 'about', label: 'settings.tab.about' },
  { id: 'advanced', label: 'settings.tab.advanced' },
];

/** A config value as nested key/value rows; scalars as code, lists as chips. */
function ConfigValue({ value, depth = 0 }: { value: unknown; depth?: number }) {
  if (Array.isArray(value) && value.every((v) => typeof v !== 'object' || v === null)) {
    return (
      <span className="chips">
        {value.map((v) => (
          <code key={String(v)}>{String(v)}</code>
        ))}
      </span>
    );
  }
  if (value && typeof value === 'object' && depth < 3) {
    return (
      <dl className="config-tree nested">
        {Object.entries(value as Record<string, unknown>).map(([name, inner]) => (
          <div key={name}>
            <dt>{name}</dt>
            <dd>
              <ConfigValue value={inner} depth={depth + 1} />
            </dd>
          </div>
        ))}
      </dl>
    );
  }
  return <code>{typeof value === 'string' ? value : JSON.stringify(value)}</code>;
}

/** What models.list says is usable right now (a credential exists, or none is needed). */
function ModelsTable() {
  const t = useT();
  const models = useDomain('chat', (s) => s.models);
  const primary = useDomain('chat', (s) => s.model);
  if (models.length === 0) return null;
  return (
    <section className="card">
      <h2>{t('settings.models')}</h2>
      <ul className="model-list">
        {models.map((m) => (
          <li key={m.id}>
            <code>{m.id}</code>
            {m.id === primary && <span className="badge accent plain">{t('settings.primary')}</span>}
            <span className={m.available ? 'badge ok' : 'badge'}>
              {m.available ? t('settings.available') : t('settings.unavailable')}
            </span>
          </li>
        ))}
      </ul>
    </section>
  );
}

/** A read view of one part of the config; edits go through the editor so validation stays in one place. */
function ConfigSection({ keys }: { keys: string[] }) {
  const t = useT();
  const parsed = useDomain('config', (s) => s.parsed);
  const present = keys.filter((key) => parsed[key] !== undefined);
  if (present.length === 0) return <p className="empty card">{t('settings.notSet')}</p>;
  return (
    <div className="stack">
      {present.map((key) => (
        <section key={key} className="card">
          <h2>{key}</h2>
          <ConfigValue value={record(parsed[key])} />
        </section>
      ))}
    </div>
  );
}

function ConfigEditor() {
  const t = useT();
  const path = useDomain('config', (s) => s.path);
  const { config } = useStores();
  const raw = useDomain('config', (s) => s.raw);
  const issues = useDomain('config', (s) => s.issues);
  const saving = useDomain('config', (s) => s.saving);
  const savedAt = useDomain('config', (s) => s.savedAt);
  const error = useDomain('config', (s) => s.error);
  const [draft, setDraft] = useState(raw);
  useEffect(() => setDraft(raw), [raw]);
  return (
    <div className="stack">
      <p className="muted" style={{ margin: 0 }}>
        {t('settings.advanced.intro')} {path && <code>{path}</code>}
      </p>
      <textarea
        className="textarea config-editor"
        spellCheck={false}
        rows={24}
        value={draft}
        aria-label={t('settings.editor')}
        aria-invalid={issues.length > 0}
        aria-describedby={issues.length > 0 ? 'config-issues' : undefined}
        onChange={(e) => setDraft(e.target.value)}
      />
      {issues.length > 0 && (
        <div id="config-issues" className="notice" role="alert">
          <p style={{ margin: '0 0 4px' }}>{t('settings.invalid')}</p>
          <ul className="issues">
            {issues.map((issue) => (
              <li key={`${issue.path}:${issue.message}`}>
                <code>{issue.path}</code> {issue.message}
              </li>
            ))}
          </ul>
        </div>
      )}
      {error && (
        <p className="notice" role="alert">
          {error}
        </p>
      )}
      <div className="spread">
        <span className="faint" role="status">
          {savedAt && issues.length === 0 && !error ? t('settings.saved') : ''}
        </span>
        <button
          type="button"
          className="button primary"
          disabled={saving || draft === raw}
          onClick={() => void config.getState().save(draft)}
        >
          {t('common.save')}
        </button>
      </div>
    </div>
  );
}

const themes: ThemeChoice[] = ['system', 'light', 'dark'];

/** This device's look: remembered in the browser, not in hearth.json (a phone may differ from the desktop). */
function Appearance() {
  const t = useT();
  const { ui, config } = useStores();
  const language = useDomain('ui', (s) => s.language);
  const appearance = useAppearanceStore();
  const [theme, setTheme] = useState<ThemeChoice>(() => appearance?.getState().theme ?? 'system');
  return (
    <section className="card stack settings-form">
      <div className="setting-row">
        <label htmlFor="setting-theme">{t('settings.theme')}</label>
        <select
          id="setting-theme"
          className="select"
          value={theme}
          disabled={!appearance}
          onChange={(e) => {
            const next = e.target.value as ThemeChoice;
            appearance?.getState().setTheme(next);
            setTheme(next);
          }}
        >
          {themes.map((choice) => (
            <option key={choice} value={choice}>
              {t(`settings.theme.${choice}`)}
            </option>
          ))}
        </select>
      </div>
      <div className="setting-row">
        <label htmlFor="setting-language">{t('settings.language')}</label>
        <select
          id="setting-language"
          className="select"
          value={language}
          onChange={(e) => {
            const next = e.target.value === 'zh' ? 'zh' : 'en';
            ui.getState().setLanguage(next);
            // Hearth's own messages outside the app (channel approval prompts) follow it: ui.language.
            void config.getState().patch({ ui: { language: next } });
          }}
        >
          <option value="en">English</option>
          <option value="zh">中文</option>
        </select>
      </div>
    </section>
  );
}

function Elsewhere({ only }: { only?: 'channels' }) {
  const t = useT();
  const { ui } = useStores();
  return (
    <p className="muted row">
      {only ? t('settings.channelsElsewhere') : t('settings.elsewhere')}
      <button type="button" className="button" onClick={() => ui.getState().navigate('channels')}>
        {t('nav.channels')}
      </button>
      {!only && (
        <button type="button" className="button" onClick={() => ui.getState().navigate('mcp')}>
          {t('nav.mcp')}
        </button>
      )}
    </p>
  );
}

export function SettingsView() {
  const t = useT();
  const [section, setSection] = useState<Section>('general');
  const [opened, setOpened] = useState<Section[]>([]);
  if (!opened.includes(section)) setOpened([...opened, section]);
  const current = sections.find((s) => s.id === section)!;
  return (
    <div className="view-narrow">
      <header className="view-header">
        <h1>{t('settings.title')}</h1>
      </header>
      <TabList<Section>
        idPrefix="settings"
        items={sections.map((item) => ({ id: item.id, label: t(item.label) }))}
        selected={section}
        onSelect={setSection}
      />
      <div id="settings-panel" role="tabpanel" aria-labelledby={`settings-tab-${section}`}>
        {section === 'advanced' ? (
          <ConfigEditor />
        ) : section === 'general' ? (
          <div className="stack">
            <Appearance />
            <Elsewhere />
          </div>
        ) : section === 'about' ? (
          <AboutPanel />
        ) : current.form ? (
          <p className="muted" style={{ margin: 0 }}>
            {t('settings.form.intro')}
          </p>
        ) : (
          <div className="stack">
            {section === 'providers' && <ModelsTable />}
            <ConfigSection keys={current.keys ?? []} />
          </div>
        )}
        {/* A form tab, once opened, stays mounted (hidden) so switching tabs keeps edits not saved yet. */}
        {sections
          .filter((item) => item.form && opened.includes(item.id))
          .map((item) => (
            <div key={item.id} className="stack settings-form-tab" hidden={item.id !== section}>
              <SchemaForm sections={item.form ?? []} />
              {item.id === 'connections' && <Elsewhere only="channels" />}
            </div>
          ))}
      </div>
    </div>
  );
}
