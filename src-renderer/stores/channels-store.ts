import { createStore, type StoreApi } from 'zustand/vanilla';
import { GatewayError } from '../../src-main/protocol/errors.js';
import type { MethodParams } from '../../src-main/protocol/method-table.js';
import type {
  ChannelIdentityView,
  ChannelPairedSenderView,
  ChannelPairingRequestView,
  ChannelSetupApplyResult,
  ChannelSetupDescription,
  ChannelView,
} from '../../src-main/protocol/methods/channels.js';
import { busyAction, errorText, type GatewayPort } from './gateway-port.js';

export type SetupValue = string | number | boolean | null;

/** The setup wizard open for one channel: its questions, and how the last save went. */
export interface ChannelWizard {
  description: ChannelSetupDescription;
  saving: boolean;
  /** The gateway refused an answer: its words, and the field it named. */
  error?: string;
  field?: string;
  result?: ChannelSetupApplyResult;
}

/** The host settings a save changes (`channels.settings.set`); keys left out stay as they are. */
export type ChannelSettingsChange = MethodParams<'channels.settings.set'>['settings'];

/** How the last settings save of a channel went: the gateway's words and the entry it named (`allowFrom[1]`). */
export interface ChannelSettingsOutcome {
  channel: string;
  ok: boolean;
  error?: string;
  field?: string;
}

export interface ChannelsState {
  channels: ChannelView[];
  requests: ChannelPairingRequestView[];
  paired: ChannelPairedSenderView[];
  identities: ChannelIdentityView[];
  ownerPerson: string;
  /** Channel ids or pairing codes with a request in flight. */
  busy: string[];
  loaded: boolean;
  error?: string;
  wizard?: ChannelWizard;
  refresh(): Promise<void>;
  restart(channel: string): Promise<void>;
  setEnabled(channel: string, enabled: boolean): Promise<void>;
  approve(code: string): Promise<void>;
  reject(code: string): Promise<void>;
  link(person: string, account: string): Promise<void>;
  unlink(person: string, account: string): Promise<void>;
  openSetup(channel: string): Promise<void>;
  closeSetup(): void;
  /** Saves the wizard's answers; with `test`, waits for the channel's health after its restart. */
  applySetup(values: Record<string, SetupValue>, test: boolean): Promise<void>;
  settingsOutcome?: ChannelSettingsOutcome;
  /** Saves a channel's host settings (DM policy, allowFrom, groups, agentTools); resolves true once written. */
  saveSettings(channel: string, change: ChannelSettingsChange): Promise<boolean>;
  clearSettingsOutcome(): void;
}

/** The Channels view's cache of `channels.*`; `channels.changed` events make it read again. */
export function createChannelsStore(client: GatewayPort): StoreApi<ChannelsState> & { dispose(): void } {
  const store = createStore<ChannelsState>((set, get) => {
    const act = busyAction(set, get, () => get().refresh());
    return {
      channels: [],
      requests: [],
      paired: [],
      identities: [],
      ownerPerson: 'owner',
      busy: [],
      loaded: false,
      async refresh() {
        // A client without the pairing scope (a phone paired read-only) still sees the channels' health.
        const [list, pairing, identities] = await Promise.allSettled([
          client.request('channels.list', {}),
          client.request('channels.pairing.list', {}),
          client.request('channels.identities.list', {}),
        ]);
        if (list.status === 'rejected') {
          set({ error: errorText(list.reason), loaded: true });
          return;
        }
        set({
          channels: list.value.channels,
          ...(pairing.status === 'fulfilled' ? { requests: pairing.value.requests, paired: pairing.value.paired } : {}),
          ...(identities.status === 'fulfilled'
            ? { identities: identities.value.identities, ownerPerson: identities.value.ownerPerson }
            : {}),
          loaded: true,
        });
      },
      restart: (channel) => act(channel, () => client.request('channels.restart', { channel })),
      setEnabled: (channel, enabled) => act(channel, () => client.request('channels.setEnabled', { channel, enabled })),
      approve: (code) => act(code, () => client.request('channels.pairing.approve', { code })),
      reject: (code) => act(code, () => client.request('channels.pairing.reject', { code })),
      link: (person, account) => act(account, () => client.request('channels.identities.link', { person, account })),
      unlink: (person, account) =>
        act(account, () => client.request('channels.identities.unlink', { person, account })),
      async openSetup(channel) {
        try {
          const description = await client.request('channels.setup.describe', { channel });
          set({ wizard: { description, saving: false }, error: undefined });
        } catch (error) {
          set({ error: errorText(error) });
        }
      },
      closeSetup: () => set({ wizard: undefined }),
      async saveSettings(channel, change) {
        let ok = false;
        set({ settingsOutcome: undefined });
        // The channel is busy while it saves (and restarts); the refusal stays with the panel, by field.
        await act(channel, async () => {
          try {
            await client.request('channels.settings.set', { channel, settings: change });
            ok = true;
            set({ settingsOutcome: { channel, ok } });
          } catch (error) {
            const details =
              error instanceof GatewayError ? (error.details as { field?: unknown } | undefined) : undefined;
            set({
              settingsOutcome: {
                channel,
                ok,
                error: errorText(error),
                ...(typeof details?.field === 'string' ? { field: details.field } : {}),
              },
            });
          }
        });
        return ok;
      },
      clearSettingsOutcome: () => set({ settingsOutcome: undefined }),
      async applySetup(values, test) {
        const wizard = get().wizard;
        if (!wizard) return;
        const channel = wizard.description.channel;
        set({ wizard: { description: wizard.description, saving: true } });
        try {
          const result = await client.request('channels.setup.apply', { channel, values, test }, { timeoutMs: 70_000 });
          // Read the questions again: a secret now shows as stored, values as written.
          const description = await client.request('channels.setup.describe', { channel });
          set({ wizard: { description, saving: false, result } });
        } catch (error) {
          const details =
            error instanceof GatewayError ? (error.details as { field?: unknown } | undefined) : undefined;
          set({
            wizard: {
              description: wizard.description,
              saving: false,
              error: errorText(error),
              ...(typeof details?.field === 'string' ? { field: details.field } : {}),
            },
          });
        }
        await get().refresh();
      },
    };
  });
  const subscriptions = [
    client.on('channels.changed', () => {
      if (store.getState().loaded) void store.getState().refresh();
    }),
  ];
  return {
    ...store,
    dispose: () => {
      for (const subscription of subscriptions) subscription.dispose();
    },
  };
}
