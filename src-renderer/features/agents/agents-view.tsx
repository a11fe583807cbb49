import { type ChangeEvent, type FormEvent, useEffect, useState } from 'react';
import type {
  AgentBindingParams,
  AgentDetails,
  PersonaFileName,
} from '../../../src-main/protocol/methods/agents-admin.js';
import { type MessageKey, useDomain, useStores, useT } from '../../app/stores-context.js';
import type { AgentEdits } from '../../stores/agents-store.js';
import './agents.css';

const toolProfiles = ['minimal', 'coding', 'full', 'custom'] as const;
const engines = ['hearth', 'claude-code', 'codex'] as const;
const engineLabels: Record<string, MessageKey> = {
  hearth: 'agentsView.engine.hearth',
  'claude-code': 'agentsView.engine.claude-code',
  codex: 'agentsView.engine.codex',
};
const personaFiles: PersonaFileName[] = ['SOUL.md', 'IDENTITY.md', 'USER.md'];
/** A picked avatar image travels as a data: URL in hearth.json: kept small. */
const MAX_AVATAR_BYTES = 300_000;

interface Draft {
  name: string;
  emoji: string;
  avatar: string;
  model: string;
  fallbacks: string[];
  toolProfile: '' | (typeof toolProfiles)[number];
  engine: (typeof engines)[number] | string;
  engineAccess: '' | 'read-only' | 'workspace-write';
  memoryScope: '' | 'per-agent' | 'per-user';
  execSecurity: '' | 'deny' | 'allowlist' | 'full';
  execAsk: '' | 'off' | 'on-miss' | 'always';
  bindings: AgentBindingParams[];
}

const emptyDraft: Draft = {
  name: '',
  emoji: '',
  avatar: '',
  model: '',
  fallbacks: [],
  toolProfile: '',
  engine: 'hearth',
  engineAccess: '',
  memoryScope: '',
  execSecurity: '',
  execAsk: '',
  bindings: [],
};

function draftOf(agent: AgentDetails): Draft {
  const engine = agent.engine === 'hearth' ? undefined : agent.engine;
  return {
    name: agent.name,
    emoji: agent.emoji ?? '',
    avatar: agent.avatar ?? '',
    model: agent.model ?? '',
    fallbacks: agent.fallbacks,
    toolProfile: agent.toolProfile ?? '',
    engine: engine?.cli ?? 'hearth',
    engineAccess: engine?.access ?? '',
    memoryScope: agent.memoryScope ?? '',
    execSecurity: agent.exec?.security ?? '',
    execAsk: agent.exec?.ask ?? '',
    bindings: agent.bindings,
  };
}

/** The draft as agents.create / agents.update settings: every field said, so a cleared one clears. */
function editsOf(draft: Draft, creating: boolean): AgentEdits {
  const exec =
    draft.execSecurity || draft.execAsk
      ? {
          ...(draft.execSecurity ? { security: draft.execSecurity } : {}),
          ...(draft.execAsk ? { ask: draft.execAsk } : {}),
        }
      : null;
  const fallbacks = draft.fallbacks.filter(Boolean);
  return {
    name: draft.name.trim(),
    emoji: draft.emoji,
    ...(draft.avatar || !creating ? { avatar: draft.avatar } : {}),
    model: draft.model || null,
    ...(draft.model ? { fallbacks } : {}),
    ...(draft.toolProfile ? { toolProfile: draft.toolProfile } : {}),
    engine:
      draft.engine === 'hearth'
        ? 'hearth'
        : { cli: draft.engine, ...(draft.engineAccess ? { access: draft.engineAccess } : {}) },
    memoryScope: draft.memoryScope || null,
    exec,
    bindings: draft.bindings
      .filter((binding) => binding.channel.trim())
      .map((binding) => ({
        channel: binding.channel.trim(),
        ...(binding.accountId?.trim() ? { accountId: binding.accountId.trim() } : {}),
        ...(binding.peer?.id.trim() ? { peer: { kind: binding.peer.kind, id: binding.peer.id.trim() } } : {}),
        ...(binding.guildId?.trim() ? { guildId: binding.guildId.trim() } : {}),
      })),
  };
}

/**
 * Only what the person changed: a setting the form cannot show whole (an engine's command, an exec
 * allowlist written by hand) is never rewritten by a save that did not touch it.
 */
function changedEdits(initial: Draft, draft: Draft): AgentEdits {
  const before = editsOf(initial, false) as Record<string, unknown>;
  const after = editsOf(draft, false) as Record<string, unknown>;
  const changed = Object.entries(after).filter(([key, value]) => JSON.stringify(value) !== JSON.stringify(before[key]));
  // Fallbacks ride with the model: a changed model keeps the list the form shows.
  const edits = Object.fromEntries(changed) as AgentEdits;
  if ('fallbacks' in edits && after.model && !('model' in edits)) edits.model = after.model as string;
  return edits;
}

function Avatar({ emoji, avatar, name }: { emoji?: string; avatar?: string; name: string }) {
  if (avatar) return <img className="agent-avatar" src={avatar} alt="" />;
  return (
    <span className="agent-avatar" aria-hidden="true">
      {emoji || name.slice(0, 1).toUpperCase()}
    </span>
  );
}

function BindingRows({
  bindings,
  onChange,
}: {
  bindings: AgentBindingParams[];
  onChange(next: AgentBindingParams[]): void;
}) {
  const t = useT();
  const change = (index: number, binding: AgentBindingParams) =>
    onChange(bindings.map((current, at) => (at === index ? binding : current)));
  return (
    <fieldset className="stack agent-bindings">
      <legend>{t('agentsView.bindings')}</legend>
      <p className="faint">{t('agentsView.bindingsHint')}</p>
      {bindings.map((binding, index) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: rows have no id of their own; edits keep their place
        <div className="row wrap" key={index} data-testid="agent-binding">
          <label className="field">
            <span>{t('agentsView.channel')}</span>
            <input
              className="input"
              value={binding.channel}
              placeholder="telegram"
              onChange={(e) => change(index, { ...binding, channel: e.target.value })}
            />
          </label>
          <label className="field">
            <span>{t('agentsView.account')}</span>
            <input
              className="input"
              value={binding.accountId ?? ''}
              onChange={(e) => change(index, { ...binding, accountId: e.target.value })}
            />
          </label>
          <label className="field">
            <span>{t('agentsView.peerKind')}</span>
            <select
              className="input"
              value={binding.peer?.kind ?? 'direct'}
              onChange={(e) =>
                change(index, {
                  ...binding,
                  peer: { kind: e.target.value as 'direct' | 'group' | 'channel', id: binding.peer?.id ?? '' },
                })
              }
            >
              <option value="direct">{t('agentsView.peer.direct')}</option>
              <option value="group">{t('agentsView.peer.group')}</option>
              <option value="channel">{t('agentsView.peer.channel')}</option>
            </select>
          </label>
          <label className="field">
            <span>{t('agentsView.peerId')}</span>
            <input
              className="input"
              value={binding.peer?.id ?? ''}
              placeholder={t('agentsView.peerIdHint')}
              onChange={(e) =>
                change(index, { ...binding, peer: { kind: binding.peer?.kind ?? 'direct', id: e.target.value } })
              }
            />
          </label>
          <button
            type="button"
            className="button small ghost"
            onClick={() => onChange(bindings.filter((_, at) => at !== index))}
          >
            {t('agentsView.removeBinding')}
          </button>
        </div>
      ))}
      <div>
        <button type="button" className="button small" onClick={() => onChange([...bindings, { channel: '' }])}>
          {t('agentsView.addBinding')}
        </button>
      </div>
    </fieldset>
  );
}

function AgentForm({
  initial,
  creating,
  busy,
  onSubmit,
  onCancel,
}: {
  initial: Draft;
  creating: boolean;
  busy: boolean;
  onSubmit(draft: Draft): void;
  onCancel?(): void;
}) {
  const t = useT();
  const models = useDomain('agents', (s) => s.models);
  const [draft, setDraft] = useState(initial);
  const [avatarError, setAvatarError] = useState<string>();
  useEffect(() => setDraft(initial), [initial]);
  const set = <K extends keyof Draft>(key: K, value: Draft[K]) => setDraft((current) => ({ ...current, [key]: value }));
  const modelOptions = (current: string) => (models.includes(current) || !current ? models : [current, ...models]);

  const pickAvatar = (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    if (!file) return;
    if (file.size > MAX_AVATAR_BYTES) {
      setAvatarError(t('agentsView.avatarTooLarge'));
      return;
    }
    setAvatarError(undefined);
    const reader = new FileReader();
    reader.onload = () => set('avatar', String(reader.result));
    reader.readAsDataURL(file);
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    onSubmit(draft);
  };

  return (
    <form
      className="stack agent-form"
      aria-label={creating ? t('agents.new') : t('agentsView.edit', { name: initial.name })}
      onSubmit={submit}
    >
      <div className="row wrap">
        <label className="field">
          <span>{t('agents.name')}</span>
          <input
            className="input"
            required
            maxLength={80}
            value={draft.name}
            onChange={(e) => set('name', e.target.value)}
          />
        </label>
        <label className="field">
          <span>{t('agentsView.emoji')}</span>
          <input className="input" maxLength={16} value={draft.emoji} onChange={(e) => set('emoji', e.target.value)} />
        </label>
        <label className="field">
          <span>{t('agentsView.avatar')}</span>
          <input type="file" accept="image/png,image/jpeg,image/gif,image/webp" onChange={pickAvatar} />
        </label>
        {draft.avatar && (
          <div className="row">
            <Avatar avatar={draft.avatar} name={draft.name} />
            <button type="button" className="button small ghost" onClick={() => set('avatar', '')}>
              {t('agentsView.avatarClear')}
            </button>
          </div>
        )}
      </div>
      {avatarError && <p className="error-text">{avatarError}</p>}
      <div className="row wrap">
        <label className="field">
          <span>{t('agentsView.model')}</span>
          <select className="input" value={draft.model} onChange={(e) => set('model', e.target.value)}>
            <option value="">{t('agentsView.modelDefault')}</option>
            {modelOptions(draft.model).map((model) => (
              <option key={model} value={model}>
                {model}
              </option>
            ))}
          </select>
        </label>
        <label className="field">
          <span>{t('agentsView.toolProfile')}</span>
          <select
            className="input"
            value={draft.toolProfile}
            onChange={(e) => set('toolProfile', e.target.value as Draft['toolProfile'])}
          >
            <option value="">{t('agentsView.inherit')}</option>
            {toolProfiles.map((profile) => (
              <option key={profile} value={profile}>
                {profile}
              </option>
            ))}
          </select>
        </label>
      </div>
      {draft.model && (
        <fieldset className="stack">
          <legend>{t('agentsView.fallbacks')}</legend>
          {draft.fallbacks.map((fallback, index) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: a fallback's place is its identity (the same model may be picked twice while editing)
            <div className="row" key={index}>
              <label className="field">
                <span className="sr-only">{t('agentsView.fallbackN', { n: index + 1 })}</span>
                <select
                  className="input"
                  aria-label={t('agentsView.fallbackN', { n: index + 1 })}
                  value={fallback}
                  onChange={(e) =>
                    set(
                      'fallbacks',
                      draft.fallbacks.map((current, at) => (at === index ? e.target.value : current)),
                    )
                  }
                >
                  {modelOptions(fallback).map((model) => (
                    <option key={model} value={model}>
                      {model}
                    </option>
                  ))}
                </select>
              </label>
              <button
                type="button"
                className="button small ghost"
                onClick={() =>
                  set(
                    'fallbacks',
                    draft.fallbacks.filter((_, at) => at !== index),
                  )
                }
              >
                {t('agentsView.removeFallback')}
              </button>
            </div>
          ))}
          <div>
            <button
              type="button"
              className="button small"
              disabled={models.length === 0 || draft.fallbacks.length >= 8}
              onClick={() =>
                set('fallbacks', [...draft.fallbacks, models.find((m) => m !== draft.model) ?? models[0]!])
              }
            >
              {t('agentsView.addFallback')}
            </button>
          </div>
        </fieldset>
      )}
      <div className="row wrap">
        <label className="field">
          <span>{t('agentsView.engine')}</span>
          <select className="input" value={draft.engine} onChange={(e) => set('engine', e.target.value)}>
            {[...engines, ...(engines.includes(draft.engine as never) ? [] : [draft.engine])].map((engine) => (
              <option key={engine} value={engine}>
                {engineLabels[engine] ? t(engineLabels[engine]) : engine}
              </option>
            ))}
          </select>
        </label>
        {draft.engine !== 'hearth' && (
          <label className="field">
            <span>{t('agentsView.engineAccess')}</span>
            <select
              className="input"
              value={draft.engineAccess}
              onChange={(e) => set('engineAccess', e.target.value as Draft['engineAccess'])}
            >
              <option value="">{t('agentsView.access.read-only')}</option>
              <option value="workspace-write">{t('agentsView.access.workspace-write')}</option>
            </select>
          </label>
        )}
        <label className="field">
          <span>{t('agentsView.memoryScope')}</span>
          <select
            className="input"
            value={draft.memoryScope}
            onChange={(e) => set('memoryScope', e.target.value as Draft['memoryScope'])}
          >
            <option value="">{t('agentsView.inherit')}</option>
            <option value="per-agent">{t('agentsView.scope.per-agent')}</option>
            <option value="per-user">{t('agentsView.scope.per-user')}</option>
          </select>
        </label>
      </div>
      <div className="row wrap">
        <label className="field">
          <span>{t('agentsView.execSecurity')}</span>
          <select
            className="input"
            value={draft.execSecurity}
            onChange={(e) => set('execSecurity', e.target.value as Draft['execSecurity'])}
          >
            <option value="">{t('agentsView.inherit')}</option>
            <option value="deny">deny</option>
            <option value="allowlist">allowlist</option>
            <option value="full">full</option>
          </select>
        </label>
        <label className="field">
          <span>{t('agentsView.execAsk')}</span>
          <select
            className="input"
            value={draft.execAsk}
            onChange={(e) => set('execAsk', e.target.value as Draft['execAsk'])}
          >
            <option value="">{t('agentsView.inherit')}</option>
            <option value="off">off</option>
            <option value="on-miss">on-miss</option>
            <option value="always">always</option>
          </select>
        </label>
      </div>
      <BindingRows bindings={draft.bindings} onChange={(next) => set('bindings', next)} />
      <div className="row">
        <button type="submit" className="button primary" disabled={busy}>
          {creating ? t('agentsView.createButton') : t('agentsView.save')}
        </button>
        {onCancel && (
          <button type="button" className="button ghost" onClick={onCancel}>
            {t('chat.cancel')}
          </button>
        )}
      </div>
    </form>
  );
}

function PersonaFiles({ agentId }: { agentId: string }) {
  const t = useT();
  const { agents: store } = useStores();
  const [name, setName] = useState<PersonaFileName>('SOUL.md');
  const [content, setContent] = useState<string>();
  const [saved, setSaved] = useState(false);
  useEffect(() => {
    let live = true;
    setContent(undefined);
    setSaved(false);
    void store
      .getState()
      .readPersona(agentId, name)
      .then((text) => {
        if (live) setContent(text ?? '');
      });
    return () => {
      live = false;
    };
  }, [agentId, name, store]);
  const save = async () => {
    setSaved(await store.getState().writePersona(agentId, name, content ?? ''));
  };
  return (
    <section className="stack" aria-label={t('agentsView.persona')}>
      <h3>{t('agentsView.persona')}</h3>
      <p className="faint">{t('agentsView.personaHint')}</p>
      <div className="row" role="tablist">
        {personaFiles.map((file) => (
          <button
            key={file}
            type="button"
            role="tab"
            aria-selected={file === name}
            className={`button small ${file === name ? 'primary' : 'ghost'}`}
            onClick={() => setName(file)}
          >
            {file}
          </button>
        ))}
      </div>
      <textarea
        className="input agent-persona"
        aria-label={name}
        rows={12}
        value={content ?? ''}
        disabled={content === undefined}
        onChange={(e) => {
          setContent(e.target.value);
          setSaved(false);
        }}
      />
      <div className="row">
        <button type="button" className="button small primary" disabled={content === undefined} onClick={save}>
          {t('agentsView.saveFile', { name })}
        </button>
        {saved && <span className="muted">{t('agentsView.saved')}</span>}
      </div>
    </section>
  );
}

function DeleteAgent({ agent, onDone }: { agent: AgentDetails; onDone(message: string): void }) {
  const t = useT();
  const { agents: store } = useStores();
  const [asking, setAsking] = useState(false);
  const [deleteFiles, setDeleteFiles] = useState(false);
  if (agent.agentId === 'main') return <p className="faint">{t('agentsView.mainStays')}</p>;
  if (!asking)
    return (
      <button type="button" className="button danger" onClick={() => setAsking(true)}>
        {t('agentsView.delete')}
      </button>
    );
  const confirm = async () => {
    const removed = await store.getState().remove(agent.agentId, deleteFiles);
    if (!removed) return;
    onDone(
      removed.keptWorkspace || !deleteFiles
        ? t('agentsView.deletedKept', { name: agent.name, workspace: removed.keptWorkspace ?? agent.workspace })
        : t('agentsView.deletedAll', { name: agent.name }),
    );
  };
  return (
    <div className="stack notice" role="alertdialog" aria-label={t('agentsView.confirmTitle', { name: agent.name })}>
      <strong>{t('agentsView.confirmTitle', { name: agent.name })}</strong>
      <p>{t('agentsView.confirmBody', { workspace: agent.workspace })}</p>
      <label className="row">
        <input type="checkbox" checked={deleteFiles} onChange={(e) => setDeleteFiles(e.target.checked)} />
        <span>{t('agentsView.deleteFiles')}</span>
      </label>
      <div className="row">
        <button type="button" className="button danger" onClick={confirm}>
          {t('agentsView.confirmDelete')}
        </button>
        <button type="button" className="button ghost" onClick={() => setAsking(false)}>
          {t('chat.cancel')}
        </button>
      </div>
    </div>
  );
}

/**
 * Agents: the list, a form to make one, and each one's settings (name, avatar, model and
 * fallbacks, engine, tools, memory scope, exec policy, bindings) and persona files.
 */
export function AgentsView() {
  const t = useT();
  const { agents: store } = useStores();
  const agents = useDomain('agents', (s) => s.agents);
  const selected = useDomain('agents', (s) => s.selected);
  const error = useDomain('agents', (s) => s.error);
  const [creating, setCreating] = useState(false);
  const [details, setDetails] = useState<AgentDetails>();
  const [initial, setInitial] = useState<Draft>(emptyDraft);
  const [busy, setBusy] = useState(false);
  const [saved, setSaved] = useState(false);
  const [notice, setNotice] = useState<string>();

  useEffect(() => {
    void store.getState().loadModels();
  }, [store]);
  useEffect(() => {
    if (creating) return;
    let live = true;
    void store
      .getState()
      .details(selected)
      .then((agent) => {
        if (!live || !agent) return;
        setDetails(agent);
        setInitial(draftOf(agent));
      });
    return () => {
      live = false;
    };
  }, [selected, creating, store]);

  const create = async (draft: Draft) => {
    setBusy(true);
    const agentId = await store.getState().create({ ...editsOf(draft, true), name: draft.name, model: draft.model });
    setBusy(false);
    if (agentId) setCreating(false);
  };
  const save = async (draft: Draft) => {
    setBusy(true);
    setSaved(false);
    const ok = await store.getState().update(selected, changedEdits(initial, draft));
    setBusy(false);
    if (!ok) return;
    setSaved(true);
    const agent = await store.getState().details(selected);
    if (agent) {
      setDetails(agent);
      setInitial(draftOf(agent));
    }
  };

  return (
    <div className="agents-view">
      <aside className="stack agents-list" aria-label={t('agentsView.list')}>
        <h2>{t('nav.agents')}</h2>
        <ul className="stack">
          {agents.map((agent) => (
            <li key={agent.id}>
              <button
                type="button"
                className={`button ghost agent-row ${agent.id === selected && !creating ? 'active' : ''}`}
                aria-current={agent.id === selected && !creating}
                onClick={() => {
                  setCreating(false);
                  setSaved(false);
                  setNotice(undefined);
                  store.getState().select(agent.id);
                }}
              >
                {agent.name === agent.id ? agent.id : `${agent.name} (${agent.id})`}
              </button>
            </li>
          ))}
        </ul>
        <button
          type="button"
          className="button primary"
          onClick={() => {
            store.getState().clearError();
            setNotice(undefined);
            setCreating(true);
          }}
        >
          {t('agents.new')}
        </button>
      </aside>
      <section className="stack agents-editor">
        {error && (
          <p className="notice" role="alert">
            {error}
          </p>
        )}
        {notice && (
          <p className="muted" role="status">
            {notice}
          </p>
        )}
        {creating ? (
          <>
            <h2>{t('agents.new')}</h2>
            <p className="faint">{t('agentsView.newHint')}</p>
            <AgentForm
              initial={emptyDraft}
              creating
              busy={busy}
              onSubmit={create}
              onCancel={() => setCreating(false)}
            />
          </>
        ) : details && details.agentId === selected ? (
          <>
            <div className="row">
              <Avatar emoji={details.emoji} avatar={details.avatar} name={details.name} />
              <h2>{details.name}</h2>
              <code className="faint">{details.agentId}</code>
            </div>
            <p className="faint">{t('agentsView.workspace', { workspace: details.workspace })}</p>
            {saved && (
              <p className="muted" role="status">
                {t('agentsView.savedAgent')}
              </p>
            )}
            <AgentForm initial={initial} creating={false} busy={busy} onSubmit={save} />
            <PersonaFiles agentId={details.agentId} />
            <DeleteAgent
              agent={details}
              onDone={(message) => {
                setDetails(undefined);
                setNotice(message);
              }}
            />
          </>
        ) : (
          <p className="muted">{t('agentsView.loading')}</p>
        )}
      </section>
    </div>
  );
}
