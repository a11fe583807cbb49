import { useMemo } from 'react';
import { useDomain, useStores, useT } from '../../app/stores-context.js';
import { groupSessions } from '../../stores/sessions-store.js';

/** Sessions grouped by agent and channel, searchable; selecting one loads its transcript. */
export function SessionList({ onSelect }: { onSelect?: () => void }) {
  const t = useT();
  const { sessions: store } = useStores();
  const sessions = useDomain('sessions', (s) => s.sessions);
  const search = useDomain('sessions', (s) => s.search);
  const activeKey = useDomain('sessions', (s) => s.activeKey);
  const groups = useMemo(() => groupSessions(sessions, search), [sessions, search]);
  return (
    <aside className="session-list" aria-label={t('chat.sessions')}>
      <div className="session-search">
        <input
          className="input"
          type="search"
          placeholder={t('chat.searchSessions')}
          aria-label={t('chat.searchSessions')}
          value={search}
          onChange={(e) => store.getState().setSearch(e.target.value)}
        />
      </div>
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
                <li key={row.key}>
                  <button
                    type="button"
                    className="session-item"
                    aria-current={row.key === activeKey ? 'true' : undefined}
                    onClick={() => {
                      store.getState().select(row.key);
                      onSelect?.();
                    }}
                  >
                    {row.title}
                  </button>
                </li>
              ))}
            </ul>
          </section>
        ))}
      </div>
    </aside>
  );
}
