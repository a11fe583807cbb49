import { useState } from 'react';
import type { ChannelHostSettingsView, ChannelView } from '../../../src-main/protocol/methods/channels.js';
import { useDomain, useStores, useT } from '../../app/stores-context.js';
import type { MessageKey } from '../../i18n/en.js';
import type { ChannelSettingsChange } from '../../stores/channels-store.js';

const POLICIES = ['pairing', 'allowlist', 'open', 'disabled'] as const;

/** What the panel edits: a copy of the channel's settings, so Cancel simply drops it. */
type Draft = ChannelHostSettingsView;

function draftOf(settings: ChannelHostSettingsView): Draft {
  return {
    dmPolicy: settings.dmPolicy,
    allowFrom: [...settings.allowFrom],
    groups: { ...settings.groups, allowlist: [...settings.groups.allowlist] },
    agentTools: Array.isArray(settings.agentTools) ? [...settings.agentTools] : settings.agentTools,
  };
}

const sameList = (a: readonly string[], b: readonly string[]) =>
  a.length === b.length && a.every((item, index) => item === b[index]);
const sameTools = (a: boolean | string[], b: boolean | string[]) =>
  Array.isArray(a) && Array.isArray(b) ? sameList(a, b) : a === b;

/** Only what the person changed: the gateway leaves every key it is not given as it is. */
export function changedSettings(saved: ChannelHostSettingsView, draft: Draft): ChannelSettingsChange {
  const change: ChannelSettingsChange = {};
  if (draft.dmPolicy !== saved.dmPolicy) change.dmPolicy = draft.dmPolicy;
  if (!sameList(draft.allowFrom, saved.allowFrom)) change.allowFrom = draft.allowFrom;
  const groups: NonNullable<ChannelSettingsChange['groups']> = {};
  if (draft.groups.enabled !== saved.groups.enabled) groups.enabled = draft.groups.enabled;
  if (draft.groups.requireMention !== saved.groups.requireMention) groups.requireMention = draft.groups.requireMention;
  if (!sameList(draft.groups.allowlist, saved.groups.allowlist)) groups.allowlist = draft.groups.allowlist;
  if (Object.keys(groups).length > 0) change.groups = groups;
  if (!sameTools(draft.agentTools, saved.agentTools)) change.agentTools = draft.agentTools;
  return change;
}

/**
 * A list of platform ids (allowFrom, a group allowlist): each entry with the name the channel
 * knows for it, Remove, and the gateway's refusal beside the entry it named (`allowFrom[1]`).
 */
function IdList({
  label,
  help,
  none,
  addLabel,
  ids,
  names,
  suggestions,
  errorIndex,
  error,
  testId,
  onChange,
}: {
  label: string;
  help: string;
  none: string;
  addLabel: string;
  ids: string[];
  names: ReadonlyMap<string, string>;
  suggestions: readonly string[];
  errorIndex?: number;
  error?: string;
  testId: string;
  onChange(ids: string[]): void;
}) {
  const t = useT();
  const [entry, setEntry] = useState('');
  const [duplicate, setDuplicate] = useState<string>();
  const inputId = `${testId}-new`;
  const add = () => {
    const id = entry.trim();
    if (!id) return;
    // The gateway keeps each id once; a second copy would only shift the index an error names.
    if (ids.includes(id)) {
      setDuplicate(id);
      return;
    }
    setDuplicate(undefined);
    onChange([...ids, id]);
    setEntry('');
  };
  const listId = `${testId}-suggestions`;
  const offered = suggestions.filter((id) => !ids.includes(id));
  return (
    <fieldset className="stack channel-settings-list" aria-label={label} data-testid={testId}>
      <legend>{label}</legend>
      <span className="faint">{help}</span>
      {ids.length === 0 ? (
        <p className="faint">{none}</p>
      ) : (
        <ul>
          {ids.map((id, index) => {
            const invalid = index === errorIndex;
            return (
              <li
                key={id}
                className={invalid ? 'invalid' : undefined}
                aria-label={id}
                aria-invalid={invalid || undefined}
              >
                <div className="spread">
                  <span>
                    <code>{id}</code>
                    {names.get(id) && <span className="faint"> {names.get(id)}</span>}
                  </span>
                  <button
                    type="button"
                    className="button small"
                    aria-label={t('channels.access.removeId', { id })}
                    onClick={() => onChange(ids.filter((other) => other !== id))}
                  >
                    {t('channels.access.remove')}
                  </button>
                </div>
                {invalid && error && (
                  <span className="error-text" role="alert">
                    {error}
                  </span>
                )}
              </li>
            );
          })}
        </ul>
      )}
      <div className="row">
        <label htmlFor={inputId} className="sr-only">
          {addLabel}
        </label>
        <input
          id={inputId}
          className="input"
          placeholder={addLabel}
          value={entry}
          list={offered.length > 0 ? listId : undefined}
          onChange={(event) => setEntry(event.target.value)}
          onKeyDown={(event) => {
            if (event.key !== 'Enter') return;
            event.preventDefault();
            add();
          }}
        />
        {offered.length > 0 && (
          <datalist id={listId}>
            {offered.map((id) => (
              <option key={id} value={id}>
                {names.get(id) ?? id}
              </option>
            ))}
          </datalist>
        )}
        <button type="button" className="button small" onClick={add} disabled={!entry.trim()}>
          {t('channels.access.add')}
        </button>
      </div>
      {duplicate && <span className="faint">{t('channels.access.duplicate', { id: duplicate })}</span>}
    </fieldset>
  );
}

/** `allowFrom[2]` → 2 when it names an entry of `key`. */
function indexIn(field: string | undefined, key: string): number | undefined {
  if (!field?.startsWith(`${key}[`)) return undefined;
  const index = Number(field.slice(key.length + 1, -1));
  return Number.isInteger(index) ? index : undefined;
}

/**
 * The host's settings of one configured channel (docs/CHANNELS.md "Configuration"): who may DM
 * the agent, the senders always allowed, groups, and the channel's tools for the model. Save
 * sends only what changed (`channels.settings.set`); a refused entry is marked where it is.
 */
export function ChannelSettingsPanel({ channel, onClose }: { channel: ChannelView; onClose(): void }) {
  const t = useT();
  const { channels: store } = useStores();
  const saving = useDomain('channels', (s) => s.busy.includes(channel.id));
  const outcome = useDomain('channels', (s) =>
    s.settingsOutcome?.channel === channel.id ? s.settingsOutcome : undefined,
  );
  const paired = useDomain('channels', (s) => s.paired);
  const requests = useDomain('channels', (s) => s.requests);
  const saved = channel.settings;
  const [draft, setDraft] = useState<Draft | undefined>(() => (saved ? draftOf(saved) : undefined));
  if (!saved || !draft) return null;

  // Names the channel knows for its senders: paired people first, then those asking to pair.
  const names = new Map<string, string>();
  for (const sender of [...requests, ...paired])
    if (sender.channel === channel.id && sender.senderName) names.set(sender.senderId, sender.senderName);
  const pairedIds = paired.filter((sender) => sender.channel === channel.id).map((sender) => sender.senderId);

  const edit = (next: Draft) => {
    setDraft(next);
    // A refusal was about the draft as it was sent; once edited, its index may point elsewhere.
    if (outcome) store.getState().clearSettingsOutcome();
  };
  const change = changedSettings(saved, draft);
  const dirty = Object.keys(change).length > 0;
  const save = async () => {
    if (!(await store.getState().saveSettings(channel.id, change))) return;
    // Show what the gateway now holds (it drops duplicates and defaults), not what was typed.
    const refreshed = store.getState().channels.find((c) => c.id === channel.id)?.settings;
    if (refreshed) setDraft(draftOf(refreshed));
  };
  const cancel = () => {
    store.getState().clearSettingsOutcome();
    onClose();
  };

  const field = outcome?.ok === false ? outcome.field : undefined;
  const allowIndex = indexIn(field, 'allowFrom');
  const groupIndex = indexIn(field, 'groups.allowlist');
  // A refusal with no entry to sit beside (or one the list no longer shows) is said below the form.
  const placed =
    (allowIndex !== undefined && allowIndex < draft.allowFrom.length) ||
    (groupIndex !== undefined && groupIndex < draft.groups.allowlist.length) ||
    field === 'agentTools';
  const tools = channel.agentTools ?? [];
  const toolsOn = draft.agentTools === true || (Array.isArray(draft.agentTools) && draft.agentTools.length > 0);
  const toolChecked = (name: string) =>
    draft.agentTools === true || (Array.isArray(draft.agentTools) && draft.agentTools.includes(name));
  const setTool = (name: string, on: boolean) => {
    const current = tools.map((tool) => tool.name).filter(toolChecked);
    const next = on ? [...current, name] : current.filter((other) => other !== name);
    // Every tool is `true`: a tool the channel adds later is then on too.
    edit({ ...draft, agentTools: next.length === tools.length ? true : next });
  };
  const title = t('channels.access.title', { name: channel.name });
  const policyHelpId = `channel-${channel.id}-policy-help`;

  return (
    <section className="card stack channel-settings" aria-label={title} data-testid="channel-settings">
      <h3>{title}</h3>
      <div className="field">
        <label htmlFor={`channel-${channel.id}-policy`}>{t('channels.access.dmPolicy')}</label>
        <select
          id={`channel-${channel.id}-policy`}
          className="select"
          value={draft.dmPolicy}
          aria-describedby={policyHelpId}
          onChange={(event) => edit({ ...draft, dmPolicy: event.target.value as Draft['dmPolicy'] })}
        >
          {POLICIES.map((policy) => (
            <option key={policy} value={policy}>
              {t(`channels.access.policy.${policy}` as MessageKey)}
            </option>
          ))}
        </select>
        <span id={policyHelpId} className="faint" data-testid="policy-explain">
          {t(`channels.access.policy.${draft.dmPolicy}.explain` as MessageKey)}
        </span>
      </div>

      <IdList
        label={t('channels.access.allowFrom')}
        help={t('channels.access.allowFrom.help')}
        none={t('channels.access.allowFrom.none')}
        addLabel={t('channels.access.allowFrom.new')}
        ids={draft.allowFrom}
        names={names}
        suggestions={pairedIds}
        errorIndex={allowIndex}
        error={outcome?.error}
        testId="allow-from"
        onChange={(allowFrom) => edit({ ...draft, allowFrom })}
      />

      {channel.capabilities.groups && (
        <fieldset className="stack channel-settings-groups">
          <legend>{t('channels.access.groups')}</legend>
          <label className="row">
            <input
              type="checkbox"
              checked={draft.groups.enabled}
              onChange={(event) => edit({ ...draft, groups: { ...draft.groups, enabled: event.target.checked } })}
            />
            {t('channels.access.groups.enabled')}
          </label>
          <label className="row">
            <input
              type="checkbox"
              checked={draft.groups.requireMention}
              disabled={!draft.groups.enabled}
              onChange={(event) =>
                edit({ ...draft, groups: { ...draft.groups, requireMention: event.target.checked } })
              }
            />
            {t('channels.access.groups.requireMention')}
          </label>
          <IdList
            label={t('channels.access.groups.allowlist')}
            help={t('channels.access.groups.allowlist.help')}
            none={t('channels.access.groups.allowlist.none')}
            addLabel={t('channels.access.groups.new')}
            ids={draft.groups.allowlist}
            names={new Map()}
            suggestions={[]}
            errorIndex={groupIndex}
            error={outcome?.error}
            testId="group-allowlist"
            onChange={(allowlist) => edit({ ...draft, groups: { ...draft.groups, allowlist } })}
          />
        </fieldset>
      )}

      <fieldset className="stack channel-settings-tools">
        <legend>{t('channels.access.agentTools.title')}</legend>
        {tools.length === 0 ? (
          <p className="faint">{t('channels.access.agentTools.none')}</p>
        ) : (
          <>
            <label className="row">
              <input
                type="checkbox"
                checked={toolsOn}
                onChange={(event) => edit({ ...draft, agentTools: event.target.checked })}
              />
              {t('channels.access.agentTools')}
            </label>
            <span className="faint">{t('channels.access.agentTools.help')}</span>
            {toolsOn && (
              <ul className="channel-settings-toollist">
                {tools.map((tool) => (
                  <li key={tool.name}>
                    <label className="row">
                      <input
                        type="checkbox"
                        checked={toolChecked(tool.name)}
                        onChange={(event) => setTool(tool.name, event.target.checked)}
                      />
                      <code>{tool.name}</code>
                      <span className="faint">{tool.description}</span>
                    </label>
                  </li>
                ))}
              </ul>
            )}
          </>
        )}
        {field === 'agentTools' && outcome?.error && (
          <span className="error-text" role="alert">
            {outcome.error}
          </span>
        )}
      </fieldset>

      {outcome?.ok === false && !placed && (
        <p role="alert" className="notice">
          {outcome.error}
        </p>
      )}
      {outcome?.ok && !dirty && (
        <p role="status" className="notice ok" data-testid="channel-settings-saved">
          {t('channels.access.saved')}
        </p>
      )}
      <div className="row">
        <button type="button" className="button primary" disabled={saving || !dirty} onClick={() => void save()}>
          {saving ? t('channels.access.saving') : t('channels.access.save')}
        </button>
        <button type="button" className="button" disabled={saving} onClick={cancel}>
          {t('channels.access.cancel')}
        </button>
      </div>
    </section>
  );
}
