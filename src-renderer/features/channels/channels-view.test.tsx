import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { GatewayError } from '../../../src-main/protocol/errors.js';
import type {
  ChannelIdentityView,
  ChannelPairedSenderView,
  ChannelPairingRequestView,
  ChannelSetupDescription,
  ChannelView,
} from '../../../src-main/protocol/methods/channels.js';
import { renderWithStores, startTestApp, type TestApp } from '../../testing/render-app.js';
import { ChannelsView } from './channels-view.js';

let app: TestApp;
afterEach(() => {
  cleanup();
  app?.dispose();
});

const NOW = 1_700_000_000_000;
const capabilities = { editMessages: true, buttons: true, groups: true, maxMessageLength: 4096, markdown: 'plain' };
const channel = (id: string, name: string, more: Partial<ChannelView> = {}): ChannelView => ({
  id,
  pluginId: id,
  name,
  configured: false,
  enabled: false,
  state: 'stopped',
  restarts: 0,
  capabilities,
  ...more,
});

const telegramSetup = (): ChannelSetupDescription => ({
  channel: 'telegram',
  name: 'Telegram',
  icon: '✈️',
  configured: false,
  steps: ['In Telegram, open @BotFather and send /newbot.'],
  fields: [
    {
      key: 'token',
      label: 'Bot token',
      kind: 'secret',
      required: true,
      stored: false,
      secretAccount: 'channels.telegram.token',
    },
    {
      key: 'mode',
      label: 'How messages arrive',
      kind: 'select',
      default: 'polling',
      options: [
        { value: 'polling', label: 'Polling (works anywhere)' },
        { value: 'webhook', label: 'Webhook (public URL)' },
      ],
    },
    {
      key: 'webhookUrl',
      label: 'Public webhook URL',
      kind: 'text',
      required: true,
      when: { key: 'mode', equals: 'webhook' },
    },
    { key: 'apiBaseUrl', label: 'Bot API server', kind: 'text', default: 'https://api.telegram.org', advanced: true },
  ],
});

/** A scripted gateway holding channels, pairing requests and identity links, as channels.* would. */
function channelsApp() {
  const state = {
    channels: [
      channel('telegram', 'Telegram', { icon: '✈️' }),
      channel('webhook', 'Webhook', {
        configured: true,
        enabled: true,
        state: 'error',
        error: 'no shared secret: store one as "channels.webhook.token"',
        lastMessageAt: NOW,
        restarts: 2,
      }),
    ],
    requests: [
      {
        code: 'ABCD2345',
        channel: 'webhook',
        senderId: 'ha',
        senderName: 'Home',
        createdAt: NOW,
        expiresAt: NOW + 3_600_000,
      },
      { code: 'WXYZ6789', channel: 'webhook', senderId: 'sam', createdAt: NOW, expiresAt: NOW + 3_600_000 },
    ] as ChannelPairingRequestView[],
    paired: [] as ChannelPairedSenderView[],
    identities: [] as ChannelIdentityView[],
    setup: telegramSetup(),
  };
  const view = (id: unknown) => state.channels.find((c) => c.id === id)!;
  const take = (code: unknown) => {
    const request = state.requests.find((r) => r.code === code);
    if (!request) throw new GatewayError('NOT_FOUND', `no pairing request with code ${String(code)}`);
    state.requests = state.requests.filter((r) => r !== request);
    return request;
  };
  const identities = () => ({ identities: state.identities, ownerPerson: 'owner' });
  app = startTestApp({
    'channels.list': () => ({ channels: state.channels }),
    'channels.pairing.list': () => ({
      accounts: [],
      requests: state.requests,
      paired: state.paired,
      commandOwnerConfigured: false,
      limits: { pendingPerAccount: 3, ttlMs: 3_600_000 },
    }),
    'channels.identities.list': identities,
    'channels.pairing.approve': (params) => {
      const request = take(params.code);
      const approved = {
        channel: request.channel,
        senderId: request.senderId,
        senderName: request.senderName,
        approvedAt: NOW,
      };
      state.paired.push(approved);
      return { approved };
    },
    'channels.pairing.reject': (params) => ({ rejected: take(params.code) }),
    'channels.restart': (params) => {
      view(params.channel).restarts++;
      return { channel: view(params.channel) };
    },
    'channels.setEnabled': (params) => {
      Object.assign(view(params.channel), { enabled: params.enabled, state: params.enabled ? 'starting' : 'stopped' });
      return { channel: view(params.channel) };
    },
    'channels.setup.describe': () => state.setup,
    'channels.setup.apply': (params) => {
      const values = params.values as Record<string, unknown>;
      if (values.mode === 'webhook' && !values.webhookUrl)
        throw new GatewayError('INVALID_REQUEST', 'Public webhook URL (channels.telegram webhookUrl): is required', {
          reason: 'invalid-setup',
          field: 'webhookUrl',
        });
      Object.assign(view('telegram'), { configured: true, enabled: true, state: 'connected', account: '@hearth_bot' });
      state.setup = {
        ...state.setup,
        configured: true,
        fields: state.setup.fields.map((f) => (f.key === 'token' ? { ...f, stored: true } : f)),
      };
      return {
        channel: view('telegram'),
        changedPaths: ['channels.telegram'],
        secretsStored: ['channels.telegram.token'],
        ...(params.test ? { test: { ok: true, state: 'connected', account: '@hearth_bot' } } : {}),
      };
    },
    'channels.identities.link': (params) => {
      const [channelId, userId] = String(params.account).split(':') as [string, string];
      state.identities = [
        {
          person: String(params.person),
          accounts: [{ account: String(params.account), channel: channelId, userId, known: true }],
        },
      ];
      return identities();
    },
    'channels.identities.unlink': () => {
      state.identities = [];
      return identities();
    },
  });
  return state;
}

describe('ChannelsView', () => {
  it('shows each channel’s health, error, last message and restarts; restarts and disables one', async () => {
    channelsApp();
    renderWithStores(app, <ChannelsView />);
    const webhook = within(await screen.findByRole('listitem', { name: 'Webhook' }));
    expect(webhook.getByTestId('channel-state').textContent).toBe('error');
    expect(webhook.getByTestId('channel-error').textContent).toContain('no shared secret');
    expect(webhook.getByText(/Restarted 2 times/)).toBeTruthy();
    expect(webhook.queryByText(/No messages yet/)).toBeNull();
    const telegram = within(screen.getByRole('listitem', { name: 'Telegram' }));
    expect(telegram.getByTestId('channel-state').textContent).toBe('stopped');
    expect(telegram.getByText(/No messages yet/)).toBeTruthy();
    expect(telegram.queryByRole('button', { name: 'Restart' })).toBeNull();

    fireEvent.click(webhook.getByRole('button', { name: 'Restart' }));
    await waitFor(() => expect(app.gateway.calls('channels.restart')).toEqual([{ channel: 'webhook' }]));
    await screen.findByText(/Restarted 3 times/);
    fireEvent.click(webhook.getByLabelText('Enabled'));
    await waitFor(() =>
      expect(app.gateway.calls('channels.setEnabled')).toEqual([{ channel: 'webhook', enabled: false }]),
    );
  });

  it('without the pairing scope it still shows the channels’ health', async () => {
    channelsApp();
    app.gateway.handle('channels.pairing.list', () => {
      throw new GatewayError('INVALID_REQUEST', 'missing scope: operator.pairing');
    });
    renderWithStores(app, <ChannelsView />);
    const webhook = within(await screen.findByRole('listitem', { name: 'Webhook' }));
    expect(webhook.getByTestId('channel-state').textContent).toBe('error');
    expect(screen.queryByRole('region', { name: 'Pairing requests' })).toBeNull();
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('approves one pairing request and rejects another, then links the approved sender to the owner', async () => {
    const state = channelsApp();
    renderWithStores(app, <ChannelsView />);
    const requests = within(await screen.findByRole('region', { name: 'Pairing requests' }));
    const home = within(requests.getByRole('listitem', { name: 'ABCD2345' }));
    expect(home.getByText('Home')).toBeTruthy();
    expect(home.getByText(/on Webhook \(ha\)/)).toBeTruthy();
    fireEvent.click(home.getByRole('button', { name: 'Approve' }));
    await waitFor(() => expect(state.paired).toHaveLength(1));
    fireEvent.click(within(screen.getByRole('listitem', { name: 'WXYZ6789' })).getByRole('button', { name: 'Reject' }));
    await waitFor(() => expect(screen.queryByRole('region', { name: 'Pairing requests' })).toBeNull());
    expect(app.gateway.calls('channels.pairing.reject')).toEqual([{ code: 'WXYZ6789' }]);

    const links = within(screen.getByRole('region', { name: 'Linked accounts' }));
    expect((links.getByLabelText('Paired sender') as HTMLSelectElement).value).toBe('webhook:ha');
    fireEvent.click(links.getByRole('button', { name: 'Link' }));
    await waitFor(() =>
      expect(app.gateway.calls('channels.identities.link')).toEqual([{ person: 'owner', account: 'webhook:ha' }]),
    );
    const owner = within(await screen.findByRole('listitem', { name: 'owner' }));
    expect(owner.getByText(/webhook:ha/)).toBeTruthy();
    fireEvent.click(owner.getByRole('button', { name: 'Unlink' }));
    await waitFor(() =>
      expect(app.gateway.calls('channels.identities.unlink')).toEqual([{ person: 'owner', account: 'webhook:ha' }]),
    );
    await screen.findByText('No accounts are linked yet.');
  });

  it('runs the setup wizard from the plugin’s description: a refused field is marked, then it connects', async () => {
    channelsApp();
    renderWithStores(app, <ChannelsView />);
    const card = within(await screen.findByRole('listitem', { name: 'Telegram' }));
    fireEvent.click(card.getByRole('button', { name: 'Set up' }));
    const wizard = within(await screen.findByRole('region', { name: 'Set up Telegram' }));
    expect(wizard.getByText(/@BotFather/)).toBeTruthy();
    const token = wizard.getByLabelText(/Bot token/) as HTMLInputElement;
    expect(token.type).toBe('password');
    // The webhook URL is asked only in webhook mode; the API server sits under Advanced.
    expect(wizard.queryByLabelText(/Public webhook URL/)).toBeNull();
    expect(wizard.getByText('Advanced')).toBeTruthy();
    fireEvent.change(token, { target: { value: '123:SECRET' } });
    fireEvent.change(wizard.getByLabelText('How messages arrive'), { target: { value: 'webhook' } });
    expect(wizard.getByLabelText(/Public webhook URL/)).toBeTruthy();
    fireEvent.click(wizard.getByRole('button', { name: 'Save and test connection' }));
    expect((await wizard.findByRole('alert')).textContent).toContain('Public webhook URL');
    expect(wizard.getByLabelText(/Public webhook URL/).getAttribute('aria-invalid')).toBe('true');
    expect(app.gateway.calls('channels.setup.apply')[0]).toEqual({
      channel: 'telegram',
      values: { token: '123:SECRET', mode: 'webhook', webhookUrl: null, apiBaseUrl: null },
      test: true,
    });
    // The secret is not kept in the page once sent.
    expect(token.value).toBe('');

    fireEvent.change(wizard.getByLabelText('How messages arrive'), { target: { value: 'polling' } });
    fireEvent.change(token, { target: { value: '123:SECRET' } });
    fireEvent.click(wizard.getByRole('button', { name: 'Save and test connection' }));
    expect((await wizard.findByTestId('setup-test')).textContent).toBe('Connected as @hearth_bot.');
    expect(app.gateway.calls('channels.setup.apply')[1]).toEqual({
      channel: 'telegram',
      values: { token: '123:SECRET', mode: 'polling', apiBaseUrl: null },
      test: true,
    });
    expect(wizard.getByText('stored')).toBeTruthy();
    expect((wizard.getByLabelText(/Bot token/) as HTMLInputElement).placeholder).toBe('Stored: leave empty to keep it');
    const connected = within(screen.getByRole('listitem', { name: 'Telegram' }));
    await waitFor(() => expect(connected.getByTestId('channel-state').textContent).toBe('connected'));
    expect(connected.getByText('@hearth_bot')).toBeTruthy();
  });
});
