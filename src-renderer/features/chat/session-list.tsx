import { useMemo, useState } from 'react';
import { useDomain, useStores, useT } from '../../app/stores-context.js';
import { chatTitle } from '../../stores/chat-title.js';
import { groupSessions, type SessionRow } from '../../stores/sessions-store.js';
import { Icon } from '../../ui/icons.js';
import { AgentSwitcher } from '../agents/agent-switcher.js';

/** Sessions grouped by agent and channel, searchable; a new chat, and per chat rename, pin, archive, delete. */
export function SessionList({ onSelect }: { onSelect?: () => void }) {
  const t = useT();
  const { sessions: store } = useStores();
  const sessions = useDomain('sessions', (s) => s.sessions);
  const search = useDomain('sessions', (s) => s.search);
  const activeKey = useDomain('sessions', (s) => s.activeKey);
  const showArchived = useDomain('sessions', (s) => s.showArchived);
  const error = useDomain('sessions', (s) => s.error);
  const matches = useDomain('sessions', (s) => s.matches);
  const agent = useDomain('agents', (s) => s.selected);
  // The list follows the agent the switcher shows: its chats only, whatever channel they are on.
  const groups = useMemo(
    () =>
      groupSessions(
        sessions.filter((row) => row.agentId === agent),
        search,
        { showArchived, matches },
      ),
    [sessions, agent, search, showArchived, matches],
  );
  /** Switching agents opens that agent's most recent chat (its main one when it has none yet). */
  const openAgent = (agentId: string) => {
    const recent = store
      .getState()
      .sessions.filter((row) => row.agentId === agentId && !row.archived)
      .sort((a, b) => (b.updatedAt ?? 0) - (a.updatedAt ?? 0))[0];
    store.getState().select(recent?.key ?? `agent:${agentId}:main`);
  };
  return (
    <aside className="session-list" aria-label={t('chat.sessions')}>
      <AgentSwitcher onSwitch={openAgent} />
      <div className="session-search">
        <button
          type="button"
          className="button small new-chat"
          onClick={() => {
            void store.getState().create(agent);
            onSelect?.();
          }}
        >
          <Icon name="plus" size={16} />
          {t('chat.newChat')}
        </button>
        <input
          className="input"
          type="search"
          placeholder={t('chat.searchSessions')}
          aria-label={t('chat.searchSessions')}
          value={search}
          onChange={(e) => store.getState().setSearch(e.target.value)}
        />
        <label className="faint show-archived">
          <input
            type="checkbox"
            checked={showArchived}
            onChange={(e) => store.getState().setShowArchived(e.target.checked)}
          />{' '}
          {t('chat.showArchived')}
        </label>
      </div>
      {error && (
        <p className="notice" role="alert" style={{ margin: '0 12px' }}>
          {t('common.error', { message: error })}
        </p>
      )}
      <div className="session-groups">
        {groups.length === 0 && (
          <p className="faint" style={{ padding: 12 }}>
            {t('chat.noSessions')}
          </p>
        )}
        {groups.map((group) => (
          <section key={`${group.agentId}/${group.channel}`} className="session-group">
            <h3>
              {group.agentId} · {group.channel}
            </h3>
            <ul>
              {group.rows.map((row) => (
                <SessionItem
                  key={row.key}
                  row={row}
                  snippet={search.trim() ? matches[row.key] : undefined}
                  active={row.key === activeKey}
                  onSelect={() => {
                    store.getState().select(row.key);
                    onSelect?.();
                  }}
                />
              ))}
            </ul>
          </section>
        ))}
      </div>
    </aside>
  );
}

type Mode = 'idle' | 'menu' | 'rename' | 'confirm-delete';

function SessionItem({
  row,
  active,
  snippet,
  onSelect,
}: {
  row: SessionRow;
  active: boolean;
  /** What was said that matched the search, when it did. */
  snippet?: string;
  onSelect(): void;
}) {
  const t = useT();
  const { sessions: store } = useStores();
  const [mode, setMode] = useState<Mode>('idle');
  const [draft, setDraft] = useState('');
  const title = chatTitle(row.key, row, t);
  const isMain = row.key.endsWith(':main') && row.key.split(':').length === 3;

  if (mode === 'rename') {
    return (
      <li className="session-row">
        <form
          className="session-rename"
          onSubmit={(e) => {
            e.preventDefault();
            void store.getState().rename(row.key, draft);
            setMode('idle');
          }}
        >
          <input
            className="input"
            aria-label={t('chat.renameLabel', { title })}
            value={draft}
            maxLength={200}
            // biome-ignore lint/a11y/noAutofocus: the field appears because the person asked to rename
            autoFocus
            onChange={(e) => setDraft(e.target.value)}
            onKeyDown={(e) => {
              if (e.key === 'Escape') setMode('idle');
            }}
          />
          <button type="submit" className="button small">
            {t('chat.save')}
          </button>
          <button type="button" className="button small ghost" onClick={() => setMode('idle')}>
            {t('chat.cancel')}
          </button>
        </form>
      </li>
    );
  }

  return (
    <li className="session-row">
      <div className="session-line">
        <button type="button" className="session-item" aria-current={active ? 'true' : undefined} onClick={onSelect}>
          {row.pinned && <span className="badge plain">{t('chat.pinned')}</span>} {title}
          {row.archived && <span className="badge plain">{t('chat.archived')}</span>}
          {snippet && <span className="session-snippet faint">{snippet}</span>}
        </button>
        <button
          type="button"
          className="button small ghost icon session-menu-toggle"
          aria-label={t('chat.chatActions', { title })}
          aria-expanded={mode === 'menu'}
          onClick={() => setMode(mode === 'menu' ? 'idle' : 'menu')}
        >
          ⋯
        </button>
      </div>
      {mode === 'menu' && (
        <div className="session-menu" role="menu" aria-label={t('chat.chatActions', { title })}>
          <button
            type="button"
            role="menuitem"
            className="button small ghost"
            onClick={() => {
              setDraft(row.customTitle ?? '');
              setMode('rename');
            }}
          >
            {t('chat.rename')}
          </button>
          <button
            type="button"
            role="menuitem"
            className="button small ghost"
            onClick={() => {
              void store.getState().setPinned(row.key, !row.pinned);
              setMode('idle');
            }}
          >
            {row.pinned ? t('chat.unpin') : t('chat.pin')}
          </button>
          {!isMain && (
            <button
              type="button"
              role="menuitem"
              className="button small ghost"
              onClick={() => {
                void store.getState().setArchived(row.key, !row.archived);
                setMode('idle');
              }}
            >
              {row.archived ? t('chat.unarchive') : t('chat.archive')}
            </button>
          )}
          <button
            type="button"
            role="menuitem"
            className="button small ghost"
            onClick={() => setMode('confirm-delete')}
          >
            {t('chat.delete')}
          </button>
        </div>
      )}
      {mode === 'confirm-delete' && (
        <div className="session-confirm" role="alertdialog" aria-label={t('chat.deleteConfirm', { title })}>
          <p>{t('chat.deleteConfirm', { title })}</p>
          <button
            type="button"
            className="button small danger"
            onClick={() => {
              void store.getState().remove(row.key);
              setMode('idle');
            }}
          >
            {t('chat.deleteConfirmYes')}
          </button>
          <button type="button" className="button small ghost" onClick={() => setMode('idle')}>
            {t('chat.cancel')}
          </button>
        </div>
      )}
    </li>
  );
}
