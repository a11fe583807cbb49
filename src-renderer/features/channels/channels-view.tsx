import { useEffect, useState } from 'react';
import type { ChannelView } from '../../../src-main/protocol/methods/channels.js';
import { useDomain, useStores, useT } from '../../app/stores-context.js';
import type { MessageKey } from '../../i18n/en.js';
import { formatTime } from '../../ui/use-now.js';
import { ChannelSettingsPanel } from './channel-settings.js';
import { SetupWizard } from './setup-wizard.js';
import './channels.css';

const stateBadge: Record<ChannelView['state'], string> = {
  connected: 'ok',
  starting: 'accent',
  reconnecting: 'warn',
  error: 'danger',
  stopped: 'plain',
};

function ChannelCard({ channel }: { channel: ChannelView }) {
  const t = useT();
  const { channels } = useStores();
  const busy = useDomain('channels', (s) => s.busy.includes(channel.id));
  const { restart, setEnabled, openSetup } = channels.getState();
  const [access, setAccess] = useState(false);
  return (
    <li className="card stack channel-card" aria-label={channel.name} data-testid="channel-card">
      <div className="spread">
        <div className="row">
          {channel.icon && <span aria-hidden="true">{channel.icon}</span>}
          <strong>{channel.name}</strong>
          <span className={`badge ${stateBadge[channel.state]}`} data-testid="channel-state">
            {t(`channels.state.${channel.state}` as MessageKey)}
          </span>
          {channel.account && <span className="faint">{channel.account}</span>}
        </div>
        {channel.configured && channel.pluginId && (
          <label className="row">
            <input
              type="checkbox"
              checked={channel.enabled}
              disabled={busy}
              onChange={(event) => void setEnabled(channel.id, event.target.checked)}
            />
            {t('channels.enabled')}
          </label>
        )}
      </div>
      {!channel.configured && channel.pluginId ? (
        <p className="muted">{t('channels.notSetUp')}</p>
      ) : (
        channel.error && (
          // A stopped channel's note (disabled) is not an error; a failing one's reason is.
          <p className={channel.state === 'stopped' ? 'muted' : 'error-text'} data-testid="channel-error">
            {channel.error}
          </p>
        )
      )}
      <p className="faint">
        {channel.lastMessageAt
          ? t('channels.lastMessage', { when: formatTime(channel.lastMessageAt) })
          : t('channels.noMessages')}
        {' · '}
        {t('channels.restarts', { n: channel.restarts })}
        {channel.lastError && channel.lastError !== channel.error && (
          <> · {t('channels.lastError', { error: channel.lastError })}</>
        )}
      </p>
      {channel.pluginId && (
        <div className="row">
          <button type="button" className="button" disabled={busy} onClick={() => void openSetup(channel.id)}>
            {channel.configured ? t('channels.settings') : t('channels.setUp')}
          </button>
          {channel.configured && channel.settings && (
            <button type="button" className="button" aria-expanded={access} onClick={() => setAccess((open) => !open)}>
              {t('channels.access.open')}
            </button>
          )}
          {channel.configured && channel.enabled && (
            <button type="button" className="button" disabled={busy} onClick={() => void restart(channel.id)}>
              {t('channels.restart')}
            </button>
          )}
        </div>
      )}
      {access && channel.configured && <ChannelSettingsPanel channel={channel} onClose={() => setAccess(false)} />}
    </li>
  );
}

function PairingRequests() {
  const t = useT();
  const { channels: store } = useStores();
  const requests = useDomain('channels', (s) => s.requests);
  const channels = useDomain('channels', (s) => s.channels);
  const busy = useDomain('channels', (s) => s.busy);
  if (requests.length === 0) return null;
  const nameOf = (id: string) => channels.find((c) => c.id === id)?.name ?? id;
  return (
    <section className="stack" aria-label={t('channels.pairing.title')}>
      <h2>{t('channels.pairing.title')}</h2>
      <p className="muted">{t('channels.pairing.explain')}</p>
      <ul className="channel-list">
        {requests.map((request) => (
          <li key={request.code} className="card spread" data-testid="pairing-request" aria-label={request.code}>
            <div>
              <strong>{request.senderName ?? request.senderId}</strong>{' '}
              <span className="faint">
                {t('channels.pairing.from', { channel: nameOf(request.channel), id: request.senderId })}
              </span>
              <div className="faint">
                {t('channels.pairing.code', { code: request.code, until: formatTime(request.expiresAt) })}
              </div>
            </div>
            <div className="row">
              <button
                type="button"
                className="button primary"
                disabled={busy.includes(request.code)}
                onClick={() => void store.getState().approve(request.code)}
              >
                {t('channels.pairing.approve')}
              </button>
              <button
                type="button"
                className="button danger"
                disabled={busy.includes(request.code)}
                onClick={() => void store.getState().reject(request.code)}
              >
                {t('channels.pairing.reject')}
              </button>
            </div>
          </li>
        ))}
      </ul>
    </section>
  );
}

/** memory.identityLinks: the owner's accounts (they answer approvals and get notices), picked from paired senders. */
function IdentityLinks() {
  const t = useT();
  const { channels: store } = useStores();
  const identities = useDomain('channels', (s) => s.identities);
  const paired = useDomain('channels', (s) => s.paired);
  const ownerPerson = useDomain('channels', (s) => s.ownerPerson);
  const busy = useDomain('channels', (s) => s.busy);
  const linked = new Set(identities.flatMap((identity) => identity.accounts.map((a) => a.account)));
  const candidates = paired
    .map((sender) => ({ account: `${sender.channel}:${sender.senderId}`, sender }))
    .filter(({ account }) => !linked.has(account));
  const [choice, setChoice] = useState('');
  const [person, setPerson] = useState(ownerPerson);
  const picked = candidates.some((c) => c.account === choice) ? choice : (candidates[0]?.account ?? '');
  return (
    <section className="stack" aria-label={t('channels.identities.title')}>
      <h2>{t('channels.identities.title')}</h2>
      <p className="muted">{t('channels.identities.explain', { owner: ownerPerson })}</p>
      {identities.length === 0 && <p className="empty card">{t('channels.identities.none')}</p>}
      <ul className="channel-list">
        {identities.map((identity) => (
          <li key={identity.person} className="card stack" aria-label={identity.person} data-testid="identity">
            <strong>
              {identity.person}
              {identity.person === ownerPerson && <span className="faint"> {t('channels.identities.owner')}</span>}
            </strong>
            {identity.accounts.map((account) => (
              <div key={account.account} className="spread">
                <span>
                  {account.account}{' '}
                  {!account.known && <span className="badge warn">{t('channels.identities.notPaired')}</span>}
                </span>
                <button
                  type="button"
                  className="button small"
                  disabled={busy.includes(account.account)}
                  onClick={() => void store.getState().unlink(identity.person, account.account)}
                >
                  {t('channels.identities.unlink')}
                </button>
              </div>
            ))}
            {identity.dock && (
              <span className="faint">{t('channels.identities.docked', { channel: identity.dock.channel })}</span>
            )}
          </li>
        ))}
      </ul>
      {candidates.length > 0 ? (
        <form
          className="row"
          onSubmit={(event) => {
            event.preventDefault();
            if (picked && person.trim()) void store.getState().link(person.trim(), picked);
          }}
        >
          <label className="field">
            <span>{t('channels.identities.account')}</span>
            <select className="select" value={picked} onChange={(event) => setChoice(event.target.value)}>
              {candidates.map(({ account, sender }) => (
                <option key={account} value={account}>
                  {sender.senderName ? `${sender.senderName} (${account})` : account}
                </option>
              ))}
            </select>
          </label>
          <label className="field">
            <span>{t('channels.identities.person')}</span>
            <input className="input" value={person} onChange={(event) => setPerson(event.target.value)} />
          </label>
          <button type="submit" className="button">
            {t('channels.identities.link')}
          </button>
        </form>
      ) : (
        <p className="faint">
          {paired.length > 0 ? t('channels.identities.allLinked') : t('channels.identities.noCandidates')}
        </p>
      )}
    </section>
  );
}

/** Channels: each messenger's health, the DM pairing requests, setup wizards, and the owner's linked accounts (docs/CHANNELS.md). */
export function ChannelsView() {
  const t = useT();
  const { channels: store } = useStores();
  const channels = useDomain('channels', (s) => s.channels);
  const loaded = useDomain('channels', (s) => s.loaded);
  const error = useDomain('channels', (s) => s.error);
  const wizardChannel = useDomain('channels', (s) => s.wizard?.description.channel);
  useEffect(() => {
    void store.getState().refresh();
  }, [store]);
  return (
    <div className="view-narrow stack channels-view">
      <header className="view-header">
        <h1>{t('channels.title')}</h1>
      </header>
      {error && (
        <p className="notice" role="alert">
          {error}
        </p>
      )}
      <PairingRequests />
      {wizardChannel && <SetupWizard key={wizardChannel} />}
      <section className="stack" aria-label={t('channels.list')}>
        <h2>{t('channels.list')}</h2>
        {loaded && channels.length === 0 && <p className="empty card">{t('channels.none')}</p>}
        <ul className="channel-list">
          {/* The ones set up first: they are what a person comes here to check. */}
          {[...channels]
            .sort((a, b) => Number(b.configured) - Number(a.configured) || a.name.localeCompare(b.name))
            .map((channel) => (
              <ChannelCard key={channel.id} channel={channel} />
            ))}
        </ul>
      </section>
      <IdentityLinks />
    </div>
  );
}
