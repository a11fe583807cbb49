import { useEffect, useState } from 'react';
import type { McpServerStatus, McpToolInfo } from '../../../src-main/protocol/methods/mcp.js';
import { useDomain, useStores, useT } from '../../app/stores-context.js';
import type { MessageKey } from '../../i18n/en.js';
import type { McpTestRun } from '../../stores/mcp-store.js';
import { TabList } from '../../ui/tab-list.js';
import { formatTime } from '../../ui/use-now.js';
import { type AddTab, buildImport, type CommandForm, type UrlForm } from './mcp-import-json.js';
import './mcp.css';

const stateBadge: Record<McpServerStatus['state'], string> = {
  ready: 'ok',
  idle: 'plain',
  starting: 'accent',
  restarting: 'warn',
  needs_auth: 'warn',
  failed: 'danger',
  stopped: 'plain',
};

const accessKey: Record<McpToolInfo['access'], MessageKey> = {
  read: 'mcp.tool.read',
  write: 'mcp.tool.write',
  dangerous: 'mcp.tool.dangerous',
};

/** The tools a test found, with what Hearth makes of their hints (read runs unasked, the rest ask). */
function ToolList({ tools }: { tools: McpToolInfo[] }) {
  const t = useT();
  if (tools.length === 0) return <p className="faint">{t('mcp.test.noTools')}</p>;
  return (
    <ul className="mcp-tools" aria-label={t('mcp.test.tools')}>
      {tools.map((tool) => (
        <li key={tool.name} data-testid="mcp-tool">
          <div className="row">
            <code>{tool.tool}</code>
            <span className={`badge ${tool.access === 'read' ? 'ok' : tool.access === 'write' ? 'warn' : 'danger'}`}>
              {t(accessKey[tool.access])}
            </span>
          </div>
          {tool.description && <p className="faint">{tool.description}</p>}
        </li>
      ))}
    </ul>
  );
}

function TestOutcome({ run }: { run: McpTestRun }) {
  const t = useT();
  if (run.running) return <p className="muted">{t('mcp.test.running')}</p>;
  if (run.error)
    return (
      <p className="error-text" data-testid="mcp-test-result">
        {run.error}
      </p>
    );
  const result = run.result;
  if (!result) return null;
  if (!result.ok)
    return (
      <p className="error-text" data-testid="mcp-test-result">
        {t('mcp.test.failed', { error: result.error ?? result.server.lastError ?? result.server.state })}
      </p>
    );
  return (
    <div className="stack">
      <p className="muted" data-testid="mcp-test-result">
        {t('mcp.test.ok', { n: result.tools.length })}
      </p>
      <ToolList tools={result.tools} />
    </div>
  );
}

function ServerCard({ server }: { server: McpServerStatus }) {
  const t = useT();
  const { mcp } = useStores();
  const busy = useDomain('mcp', (s) => s.busy.includes(server.name));
  const run = useDomain('mcp', (s) => s.tests[server.name]);
  const authUrl = useDomain('mcp', (s) => s.authUrls[server.name]);
  const { test, authorize, clearAuth } = mcp.getState();
  // The hub keeps the last error after a reconnect; one from before the connection is history, not news.
  const errorBeforeConnect =
    server.state === 'ready' &&
    server.connectedAt !== undefined &&
    server.lastErrorAt !== undefined &&
    server.lastErrorAt <= server.connectedAt;
  const counts = [
    t('mcp.server.tools', { n: server.toolCount }),
    ...(server.resourceCount !== undefined ? [t('mcp.server.resources', { n: server.resourceCount })] : []),
    ...(server.promptCount !== undefined ? [t('mcp.server.prompts', { n: server.promptCount })] : []),
  ];
  return (
    <li className="card stack mcp-card" aria-label={server.name} data-testid="mcp-server">
      <div className="spread">
        <div className="row">
          <strong>{server.name}</strong>
          <span className={`badge ${stateBadge[server.state]}`} data-testid="mcp-state">
            {t(`mcp.state.${server.state}` as MessageKey)}
          </span>
          <span className="faint">{t(`mcp.transport.${server.transport}` as MessageKey)}</span>
          {!server.enabled && <span className="badge plain">{t('mcp.server.disabled')}</span>}
        </div>
        <div className="row">
          {server.state === 'needs_auth' && (
            <button
              type="button"
              className="button primary"
              disabled={busy}
              onClick={async () => {
                const url = await authorize(server.name);
                // The desktop app sends this to the system browser; a browser tab opens it beside the UI.
                if (url) window.open(url, '_blank', 'noopener');
              }}
            >
              {t('mcp.server.authorize')}
            </button>
          )}
          {server.oauth?.authorized && (
            <button type="button" className="button" disabled={busy} onClick={() => void clearAuth(server.name)}>
              {t('mcp.server.forget')}
            </button>
          )}
          <button type="button" className="button" disabled={busy} onClick={() => void test(server.name)}>
            {t('mcp.test.button')}
          </button>
        </div>
      </div>
      <p className="faint">
        {counts.join(' · ')}
        {server.restarts > 0 && <> · {t('mcp.server.restarts', { n: server.restarts })}</>}
        {server.connectedAt !== undefined && (
          <> · {t('mcp.server.connectedAt', { when: formatTime(server.connectedAt) })}</>
        )}
      </p>
      {server.lastError && !errorBeforeConnect && (
        <p className={server.state === 'ready' ? 'muted' : 'error-text'} data-testid="mcp-error">
          {server.lastErrorAt !== undefined
            ? t('mcp.server.lastErrorAt', { error: server.lastError, when: formatTime(server.lastErrorAt) })
            : server.lastError}
        </p>
      )}
      {authUrl && server.state === 'needs_auth' && (
        <p className="muted">
          {t('mcp.server.authLink')}{' '}
          <a href={authUrl} target="_blank" rel="noopener noreferrer">
            {t('mcp.server.authLinkText')}
          </a>
        </p>
      )}
      {run && <TestOutcome run={run} />}
    </li>
  );
}

const emptyCommand: CommandForm = { name: '', command: '', args: '', env: '' };
const emptyUrl: UrlForm = { name: '', url: '' };

/**
 * Paste JSON, a command or a URL; test it once (nothing written), then add it to hearth.json.
 * Textareas carry their label as aria-label too: a label wrapping one would name it with its text.
 */
function AddServer() {
  const t = useT();
  const { mcp } = useStores();
  const [tab, setTab] = useState<AddTab>('json');
  const [pasted, setPasted] = useState('');
  const [pastedName, setPastedName] = useState('');
  const [command, setCommand] = useState(emptyCommand);
  const [url, setUrl] = useState(emptyUrl);
  const built = buildImport(tab, { pasted, pastedName, command, url });
  const draft = useDomain('mcp', (s) => (built.ok && s.draft?.json === built.json ? s.draft : undefined));
  // A refusal for what is still in the form stays; a new edit hides the old answers.
  const [shownError, setShownError] = useState(false);
  const problem = !built.ok && shownError ? built : undefined;
  const busy = Boolean(draft?.checking || draft?.adding);
  const submit = (action: 'check' | 'add') => {
    setShownError(true);
    if (!built.ok) return;
    void (action === 'check' ? mcp.getState().check(built.json) : mcp.getState().add(built.json));
  };
  const edited = () => setShownError(false);
  const items = [
    { id: 'json' as const, label: t('mcp.add.tab.json') },
    { id: 'command' as const, label: t('mcp.add.tab.command') },
    { id: 'url' as const, label: t('mcp.add.tab.url') },
  ];
  return (
    <section className="card stack mcp-add" aria-label={t('mcp.add.title')}>
      <h2>{t('mcp.add.title')}</h2>
      <TabList
        idPrefix="mcp-add"
        items={items}
        selected={tab}
        onSelect={(id) => {
          setTab(id);
          edited();
        }}
      />
      <form
        id="mcp-add-panel"
        role="tabpanel"
        aria-labelledby={`mcp-add-tab-${tab}`}
        className="stack"
        onSubmit={(event) => {
          event.preventDefault();
          submit('check');
        }}
      >
        {tab === 'json' && (
          <>
            <p className="muted">{t('mcp.add.json.explain')}</p>
            <label className="field">
              <span>{t('mcp.add.json.label')}</span>
              <textarea
                aria-label={t('mcp.add.json.label')}
                className="input mcp-json"
                rows={8}
                spellCheck={false}
                value={pasted}
                placeholder={'{ "mcpServers": { "files": { "command": "npx", "args": ["-y", "…"] } } }'}
                aria-invalid={problem?.field === 'json' || undefined}
                onChange={(event) => {
                  setPasted(event.target.value);
                  edited();
                }}
              />
            </label>
            {built.single && (
              <label className="field">
                <span>{t('mcp.add.name')}</span>
                <input
                  className="input"
                  value={pastedName}
                  placeholder={built.suggestedName}
                  onChange={(event) => {
                    setPastedName(event.target.value);
                    edited();
                  }}
                />
              </label>
            )}
            {built.ok && built.names.length > 0 && (
              <p className="faint" data-testid="mcp-found">
                {t('mcp.add.json.found', { names: built.names.join(', ') })}
              </p>
            )}
          </>
        )}
        {tab === 'command' && (
          <>
            <p className="muted">{t('mcp.add.command.explain')}</p>
            <label className="field">
              <span>{t('mcp.add.name')}</span>
              <input
                className="input"
                value={command.name}
                aria-invalid={problem?.field === 'name' || undefined}
                onChange={(event) => {
                  setCommand({ ...command, name: event.target.value });
                  edited();
                }}
              />
            </label>
            <label className="field">
              <span>{t('mcp.add.command.command')}</span>
              <input
                className="input"
                value={command.command}
                placeholder="npx"
                spellCheck={false}
                aria-invalid={problem?.field === 'command' || undefined}
                onChange={(event) => {
                  setCommand({ ...command, command: event.target.value });
                  edited();
                }}
              />
            </label>
            <label className="field">
              <span>{t('mcp.add.command.args')}</span>
              <textarea
                aria-label={t('mcp.add.command.args')}
                className="input"
                rows={3}
                spellCheck={false}
                value={command.args}
                placeholder={'-y\n@modelcontextprotocol/server-filesystem\n/home/me/notes'}
                onChange={(event) => {
                  setCommand({ ...command, args: event.target.value });
                  edited();
                }}
              />
            </label>
            <label className="field">
              <span>{t('mcp.add.command.env')}</span>
              <textarea
                aria-label={t('mcp.add.command.env')}
                className="input"
                rows={2}
                spellCheck={false}
                value={command.env}
                placeholder="API_KEY=…"
                aria-invalid={problem?.field === 'env' || undefined}
                onChange={(event) => {
                  setCommand({ ...command, env: event.target.value });
                  edited();
                }}
              />
            </label>
          </>
        )}
        {tab === 'url' && (
          <>
            <p className="muted">{t('mcp.add.url.explain')}</p>
            <label className="field">
              <span>{t('mcp.add.name')}</span>
              <input
                className="input"
                value={url.name}
                aria-invalid={problem?.field === 'name' || undefined}
                onChange={(event) => {
                  setUrl({ ...url, name: event.target.value });
                  edited();
                }}
              />
            </label>
            <label className="field">
              <span>{t('mcp.add.url.url')}</span>
              <input
                className="input"
                type="url"
                value={url.url}
                placeholder="https://mcp.example.com/mcp"
                spellCheck={false}
                aria-invalid={problem?.field === 'url' || undefined}
                onChange={(event) => {
                  setUrl({ ...url, url: event.target.value });
                  edited();
                }}
              />
            </label>
          </>
        )}
        {problem && (
          <p className="error-text" role="alert">
            {t(problem.message, problem.values)}
          </p>
        )}
        <div className="row">
          <button type="submit" className="button" disabled={busy}>
            {draft?.checking ? t('mcp.test.running') : t('mcp.add.test')}
          </button>
          <button type="button" className="button primary" disabled={busy} onClick={() => submit('add')}>
            {draft?.adding ? t('mcp.add.adding') : t('mcp.add.add')}
          </button>
        </div>
      </form>
      {draft && <DraftOutcome />}
    </section>
  );
}

/** What the gateway would import, each entry's trial connection, and what Add wrote. */
function DraftOutcome() {
  const t = useT();
  const draft = useDomain('mcp', (s) => s.draft);
  if (!draft) return null;
  const preview = draft.preview;
  return (
    <div className="stack" data-testid="mcp-draft">
      {draft.error && (
        <p className="error-text" role="alert">
          {draft.error}
        </p>
      )}
      {draft.added &&
        (draft.added.length > 0 ? (
          <p className="notice ok" role="status">
            {t('mcp.add.added', { names: draft.added.join(', ') })}
          </p>
        ) : (
          <p className="notice" role="status">
            {t('mcp.add.nothingAdded')}
          </p>
        ))}
      {preview && (
        <>
          {preview.errors.map((error) => (
            <p key={error} className="error-text" data-testid="mcp-import-error">
              {error}
            </p>
          ))}
          {preview.notes.map((note) => (
            <p key={note} className="muted" data-testid="mcp-import-note">
              {note}
            </p>
          ))}
          {!draft.added && (
            <ul className="mcp-list">
              {Object.entries(preview.servers).map(([name, entry]) => (
                <li key={name} className="card stack" aria-label={t('mcp.add.entry', { name })}>
                  <strong>{name}</strong>
                  <pre className="mcp-entry">{JSON.stringify(entry, null, 2)}</pre>
                  {draft.tests[name] && <TestOutcome run={draft.tests[name]} />}
                </li>
              ))}
            </ul>
          )}
        </>
      )}
    </div>
  );
}

/** MCP: each configured server's health and tools, OAuth for remote ones, and adding servers (docs/MCP.md). */
export function McpView() {
  const t = useT();
  const { mcp: store } = useStores();
  const servers = useDomain('mcp', (s) => s.servers);
  const loaded = useDomain('mcp', (s) => s.loaded);
  const error = useDomain('mcp', (s) => s.error);
  useEffect(() => {
    void store.getState().refresh();
  }, [store]);
  return (
    <div className="view-narrow stack mcp-view">
      <header className="view-header">
        <h1>{t('mcp.title')}</h1>
      </header>
      <p className="muted">{t('mcp.explain')}</p>
      {error && (
        <p className="notice" role="alert">
          {error}
        </p>
      )}
      <section className="stack" aria-label={t('mcp.list')}>
        <h2>{t('mcp.list')}</h2>
        {loaded && servers.length === 0 && <p className="empty card">{t('mcp.none')}</p>}
        <ul className="mcp-list">
          {[...servers]
            .sort((a, b) => a.name.localeCompare(b.name))
            .map((server) => (
              <ServerCard key={server.name} server={server} />
            ))}
        </ul>
      </section>
      <AddServer />
    </div>
  );
}
