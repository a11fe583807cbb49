import { type FormEvent, useState } from 'react';
import { useDomain, useStores, useT } from '../../app/stores-context.js';
import { Icon } from '../../ui/icons.js';

/**
 * Which agent the person is looking at: the chat list, new chats, Memory and Dreams follow it.
 * "New agent" makes one (its own workspace, seeded from the templates) and switches to it.
 */
export function AgentSwitcher({ onSwitch }: { onSwitch(agentId: string): void }) {
  const t = useT();
  const { agents: store, ui } = useStores();
  const agents = useDomain('agents', (s) => s.agents);
  const selected = useDomain('agents', (s) => s.selected);
  const error = useDomain('agents', (s) => s.error);
  const [adding, setAdding] = useState(false);
  const [name, setName] = useState('');
  const [model, setModel] = useState('');
  const [busy, setBusy] = useState(false);

  const switchTo = (agentId: string) => {
    store.getState().select(agentId);
    onSwitch(agentId);
  };
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    const created = await store.getState().create({ name, model });
    setBusy(false);
    if (!created) return;
    setAdding(false);
    setName('');
    setModel('');
    onSwitch(created);
  };

  return (
    <div className="agent-switcher">
      <div className="row">
        <label className="agent-select">
          <span className="sr-only">{t('agents.label')}</span>
          <select
            className="input"
            aria-label={t('agents.label')}
            value={selected}
            onChange={(e) => switchTo(e.target.value)}
          >
            {agents.length === 0 && <option value={selected}>{selected}</option>}
            {agents.map((agent) => (
              <option key={agent.id} value={agent.id}>
                {agent.name === agent.id ? agent.id : `${agent.name} (${agent.id})`}
              </option>
            ))}
          </select>
        </label>
        <button
          type="button"
          className="button small ghost"
          aria-expanded={adding}
          aria-label={t('agents.new')}
          title={t('agents.new')}
          onClick={() => setAdding(!adding)}
        >
          <Icon name="plus" size={16} />
        </button>
        <button
          type="button"
          className="button small ghost"
          aria-label={t('agents.manage')}
          title={t('agents.manage')}
          onClick={() => ui.getState().navigate('agents')}
        >
          <Icon name="settings" size={16} />
        </button>
      </div>
      {adding && (
        <form className="agent-new" aria-label={t('agents.new')} onSubmit={submit}>
          <label className="field">
            <span>{t('agents.name')}</span>
            <input
              className="input"
              required
              maxLength={64}
              value={name}
              // biome-ignore lint/a11y/noAutofocus: the form appears because the person asked for it
              autoFocus
              onChange={(e) => setName(e.target.value)}
            />
          </label>
          <label className="field">
            <span>{t('agents.model')}</span>
            <input
              className="input"
              placeholder={t('agents.modelHint')}
              value={model}
              onChange={(e) => setModel(e.target.value)}
            />
          </label>
          <div className="row">
            <button type="submit" className="button small primary" disabled={busy}>
              {t('agents.create')}
            </button>
            <button type="button" className="button small ghost" onClick={() => setAdding(false)}>
              {t('chat.cancel')}
            </button>
          </div>
        </form>
      )}
      {error && (
        <p className="notice" role="alert">
          {error}
        </p>
      )}
    </div>
  );
}
