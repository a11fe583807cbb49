import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { GatewayError } from '../../../src-main/protocol/errors.js';
import type {
  ChannelHostSettingsView,
  ChannelPairedSenderView,
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
const TOOLS = [
  { name: 'react', description: 'React to a message' },
  { name: 'pin', description: 'Pin a message' },
  { name: 'members', description: 'Who is in the chat' },
];

/**
 * A scripted gateway holding Telegram's host settings as `channels.settings.set` does: keys not
 * given are kept, a wrong id is refused naming it in `details.field` and nothing is written.
 */
function settingsApp() {
  const state = {
    settings: {
      dmPolicy: 'pairing',
      allowFrom: ['42'],
      groups: { enabled: true, requireMention: true, allowlist: [] },
      agentTools: false,
    } as ChannelHostSettingsView,
    restarts: 0,
    paired: [
      { channel: 'telegram', senderId: '42', senderName: 'Olive', approvedAt: NOW },
    ] as ChannelPairedSenderView[],
  };
  const view = (): ChannelView => ({
    id: 'telegram',
    pluginId: 'telegram',
    name: 'Telegram',
    configured: true,
    enabled: true,
    state: 'connected',
    account: '@hearth_bot',
    restarts: state.restarts,
    settings: structuredClone(state.settings),
    agentTools: TOOLS,
    capabilities: { editMessages: true, buttons: true, groups: true, maxMessageLength: 4096, markdown: 'markdownv2' },
  });
  const refuse = (field: string, message: string) => {
    throw new GatewayError('INVALID_REQUEST', message, { reason: 'invalid-settings', channel: 'telegram', field });
  };
  app = startTestApp({
    'channels.list': () => ({ channels: [view()] }),
    'channels.pairing.list': () => ({
      accounts: [],
      requests: [],
      paired: state.paired,
      commandOwnerConfigured: false,
      limits: { pendingPerAccount: 3, ttlMs: 3_600_000 },
    }),
    'channels.identities.list': () => ({ identities: [], ownerPerson: 'owner' }),
    'channels.settings.set': (params) => {
      const change = params.settings as Partial<ChannelHostSettingsView> & {
        groups?: Partial<ChannelHostSettingsView['groups']>;
      };
      change.allowFrom?.forEach((id, index) => {
        if (!/^\d+$/.test(id))
          refuse(`allowFrom[${index}]`, `channels.telegram.allowFrom: "${id}" is not a numeric Telegram user id`);
      });
      change.groups?.allowlist?.forEach((id, index) => {
        if (!/^-\d+$/.test(id))
          refuse(
            `groups.allowlist[${index}]`,
            `channels.telegram.groups.allowlist: "${id}" is not a negative Telegram chat id`,
          );
      });
      state.settings = {
        ...state.settings,
        ...change,
        groups: { ...state.settings.groups, ...change.groups },
      } as ChannelHostSettingsView;
      state.restarts++;
      return { channel: view() };
    },
  });
  return state;
}

async function openPanel() {
  const card = within(await screen.findByRole('listitem', { name: 'Telegram' }));
  fireEvent.click(card.getByRole('button', { name: 'Access & tools' }));
  return within(await screen.findByRole('region', { name: 'Telegram: access and tools' }));
}

const entries = (list: ReturnType<typeof within>) =>
  list.queryAllByRole('listitem').map((item: HTMLElement) => item.getAttribute('aria-label'));

describe('Channel settings panel', () => {
  it('adds a sender to allowFrom by id, names the paired one, and saves only allowFrom', async () => {
    const state = settingsApp();
    renderWithStores(app, <ChannelsView />);
    const panel = await openPanel();
    expect((panel.getByLabelText('Direct messages') as HTMLSelectElement).value).toBe('pairing');
    expect(panel.getByTestId('policy-explain').textContent).toContain('pairing code');
    const allow = within(panel.getByRole('group', { name: 'Always allowed senders' }));
    // The paired sender shows with the name the channel knows.
    expect(within(allow.getByRole('listitem', { name: '42' })).getByText('Olive')).toBeTruthy();
    expect((panel.getByRole('button', { name: 'Save' }) as HTMLButtonElement).disabled).toBe(true);

    fireEvent.change(allow.getByLabelText('Sender id to allow'), { target: { value: ' 77 ' } });
    fireEvent.click(allow.getByRole('button', { name: 'Add' }));
    // The same id twice is not listed twice.
    fireEvent.change(allow.getByLabelText('Sender id to allow'), { target: { value: '42' } });
    fireEvent.keyDown(allow.getByLabelText('Sender id to allow'), { key: 'Enter' });
    expect(allow.getByText('42 is listed already.')).toBeTruthy();
    expect(entries(allow)).toEqual(['42', '77']);
    fireEvent.click(panel.getByRole('button', { name: 'Save' }));

    expect((await panel.findByTestId('channel-settings-saved')).textContent).toBe(
      'Saved; the channel restarted with these settings.',
    );
    expect(app.gateway.calls('channels.settings.set')).toEqual([
      { channel: 'telegram', settings: { allowFrom: ['42', '77'] } },
    ]);
    expect(state.settings.allowFrom).toEqual(['42', '77']);
    expect(entries(allow)).toEqual(['42', '77']);
    const card = within(screen.getByRole('listitem', { name: 'Telegram' }));
    await waitFor(() => expect(card.getByText(/Restarted 1 times/)).toBeTruthy());

    // Removing one and choosing a policy: the explanation follows the choice.
    fireEvent.click(allow.getByRole('button', { name: 'Remove 77' }));
    fireEvent.change(panel.getByLabelText('Direct messages'), { target: { value: 'allowlist' } });
    expect(panel.getByTestId('policy-explain').textContent).toBe(
      'Only the senders listed below can write; everyone else is ignored.',
    );
    expect(panel.queryByTestId('channel-settings-saved')).toBeNull();
    fireEvent.click(panel.getByRole('button', { name: 'Save' }));
    await panel.findByTestId('channel-settings-saved');
    expect(app.gateway.calls('channels.settings.set')[1]).toEqual({
      channel: 'telegram',
      settings: { dmPolicy: 'allowlist', allowFrom: ['42'] },
    });
    expect(state.settings).toMatchObject({ dmPolicy: 'allowlist', allowFrom: ['42'] });
  });

  it('a refused entry is marked beside it with the gateway’s reason, and nothing typed is lost', async () => {
    const state = settingsApp();
    renderWithStores(app, <ChannelsView />);
    const panel = await openPanel();
    const allow = within(panel.getByRole('group', { name: 'Always allowed senders' }));
    fireEvent.change(panel.getByLabelText('Direct messages'), { target: { value: 'open' } });
    for (const id of ['@olive', '99']) {
      fireEvent.change(allow.getByLabelText('Sender id to allow'), { target: { value: id } });
      fireEvent.click(allow.getByRole('button', { name: 'Add' }));
    }
    fireEvent.click(panel.getByRole('button', { name: 'Save' }));

    const bad = await allow.findByRole('listitem', { name: '@olive' });
    await waitFor(() => expect(bad.getAttribute('aria-invalid')).toBe('true'));
    expect(within(bad).getByRole('alert').textContent).toBe(
      'channels.telegram.allowFrom: "@olive" is not a numeric Telegram user id',
    );
    expect(allow.getByRole('listitem', { name: '99' }).getAttribute('aria-invalid')).toBeNull();
    // Nothing was written, and the draft is all still there.
    expect(state.settings).toMatchObject({ dmPolicy: 'pairing', allowFrom: ['42'] });
    expect(state.restarts).toBe(0);
    expect(entries(allow)).toEqual(['42', '@olive', '99']);
    expect((panel.getByLabelText('Direct messages') as HTMLSelectElement).value).toBe('open');
    // The reason sits beside the entry, not in the page's notice.
    expect(document.querySelector('.channels-view > .notice')).toBeNull();

    fireEvent.click(allow.getByRole('button', { name: 'Remove @olive' }));
    expect(panel.queryByRole('alert')).toBeNull();
    fireEvent.click(panel.getByRole('button', { name: 'Save' }));
    await panel.findByTestId('channel-settings-saved');
    expect(state.settings).toMatchObject({ dmPolicy: 'open', allowFrom: ['42', '99'] });

    // A group id of the wrong shape is marked in the group allowlist the same way.
    const groups = within(panel.getByRole('group', { name: 'Allowed groups' }));
    expect(groups.getByText('Every group.')).toBeTruthy();
    fireEvent.change(groups.getByLabelText('Group id to allow'), { target: { value: '100200' } });
    fireEvent.click(groups.getByRole('button', { name: 'Add' }));
    fireEvent.click(panel.getByRole('button', { name: 'Save' }));
    const group = await groups.findByRole('listitem', { name: '100200' });
    expect((await within(group).findByRole('alert')).textContent).toContain('is not a negative Telegram chat id');
    expect(state.settings.groups.allowlist).toEqual([]);
  });

  it('group and tool toggles round-trip; Cancel drops what was not saved', async () => {
    const state = settingsApp();
    renderWithStores(app, <ChannelsView />);
    let panel = await openPanel();
    const mention = panel.getByLabelText('Only when mentioned or replied to') as HTMLInputElement;
    expect(mention.checked).toBe(true);
    fireEvent.click(mention);
    // The per-tool choices appear once the tools are on: all of them first.
    expect(panel.queryByLabelText(/^react/)).toBeNull();
    fireEvent.click(panel.getByLabelText('Give the model this channel’s tools'));
    for (const tool of TOOLS)
      expect((panel.getByLabelText(new RegExp(`^${tool.name}`)) as HTMLInputElement).checked).toBe(true);
    fireEvent.click(panel.getByLabelText(/^members/));
    fireEvent.click(panel.getByRole('button', { name: 'Save' }));
    await panel.findByTestId('channel-settings-saved');
    expect(app.gateway.calls('channels.settings.set')).toEqual([
      {
        channel: 'telegram',
        settings: { groups: { requireMention: false }, agentTools: ['react', 'pin'] },
      },
    ]);
    expect(state.settings.agentTools).toEqual(['react', 'pin']);

    // Closed and opened again, the panel reads what the gateway holds.
    fireEvent.click(panel.getByRole('button', { name: 'Cancel' }));
    panel = await openPanel();
    expect((panel.getByLabelText('Only when mentioned or replied to') as HTMLInputElement).checked).toBe(false);
    expect((panel.getByLabelText(/^pin/) as HTMLInputElement).checked).toBe(true);
    expect((panel.getByLabelText(/^members/) as HTMLInputElement).checked).toBe(false);

    // Groups off (mention then moot), every tool back on (saved as `true`), then turned back.
    fireEvent.click(panel.getByLabelText('Answer in groups'));
    expect((panel.getByLabelText('Only when mentioned or replied to') as HTMLInputElement).disabled).toBe(true);
    fireEvent.click(panel.getByLabelText(/^members/));
    fireEvent.click(panel.getByRole('button', { name: 'Save' }));
    await panel.findByTestId('channel-settings-saved');
    expect(app.gateway.calls('channels.settings.set')[1]).toEqual({
      channel: 'telegram',
      settings: { groups: { enabled: false }, agentTools: true },
    });
    fireEvent.click(panel.getByLabelText('Answer in groups'));
    fireEvent.click(panel.getByLabelText('Give the model this channel’s tools'));
    fireEvent.click(panel.getByRole('button', { name: 'Save' }));
    await panel.findByTestId('channel-settings-saved');
    expect(state.settings).toMatchObject({
      groups: { enabled: true, requireMention: false },
      agentTools: false,
    });

    // A change cancelled is not sent, and is gone when the panel opens again.
    fireEvent.click(panel.getByLabelText('Answer in groups'));
    fireEvent.click(panel.getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('region', { name: 'Telegram: access and tools' })).toBeNull();
    panel = await openPanel();
    expect((panel.getByLabelText('Answer in groups') as HTMLInputElement).checked).toBe(true);
    expect(app.gateway.calls('channels.settings.set')).toHaveLength(3);
  });
});
