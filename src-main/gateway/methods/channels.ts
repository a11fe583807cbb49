import { type Disposable, DisposableStore, HearthError } from '../../base/index.js';
import { type ChannelHost, OWNER_PERSON, PAIRING_MAX_PENDING, PAIRING_TTL_MS } from '../../channels/index.js';
import type { ChannelView } from '../../protocol/methods/channels.js';
import type { MethodRouter } from '../method-router.js';

function viewsOf(host: ChannelHost): ChannelView[] {
  return host.list().map((channel) => {
    const capabilities = host.plugin(channel.id)?.capabilities;
    return {
      id: channel.id,
      pluginId: channel.pluginId,
      name: channel.name,
      ...(channel.icon ? { icon: channel.icon } : {}),
      configured: channel.configured,
      enabled: channel.enabled,
      ...(channel.dmPolicy ? { dmPolicy: channel.dmPolicy } : {}),
      state: channel.health.state,
      ...(channel.health.account ? { account: channel.health.account } : {}),
      ...(channel.health.error ? { error: channel.health.error } : {}),
      ...(channel.lastMessageAt ? { lastMessageAt: channel.lastMessageAt } : {}),
      ...(channel.lastError ? { lastError: channel.lastError } : {}),
      ...(channel.startedAt ? { startedAt: channel.startedAt } : {}),
      restarts: channel.restarts,
      capabilities: {
        editMessages: capabilities?.editMessages ?? false,
        buttons: capabilities?.buttons ?? false,
        groups: capabilities?.groups ?? false,
        maxMessageLength: capabilities?.maxMessageLength ?? 0,
        markdown: capabilities?.markdown ?? 'plain',
      },
    };
  });
}

/** channels.*: what each channel is doing, and the DM pairing requests a person approves. */
export function registerChannelsMethods(
  router: MethodRouter,
  deps: { host(): ChannelHost | undefined; now(): number },
): Disposable {
  const store = new DisposableStore();
  const views = () => {
    const host = deps.host();
    return host ? viewsOf(host) : [];
  };
  const host = () => {
    const current = deps.host();
    if (!current) throw new HearthError('unavailable', 'the channel host is not running');
    return current;
  };

  store.add(router.handle('channels.list', () => ({ channels: views() })));
  store.add(
    router.handle('channels.status', () => {
      const list = views();
      return {
        ts: deps.now(),
        list,
        channelOrder: list.map((c) => c.id),
        channelLabels: Object.fromEntries(list.map((c) => [c.id, c.name])),
        channelDetailLabels: Object.fromEntries(list.map((c) => [c.id, c.account ?? c.state])),
        channelSystemImages: {},
        channelMeta: list.map((c) => ({ id: c.id, label: c.name })),
        channels: Object.fromEntries(
          list.map((c) => [
            c.id,
            {
              configured: c.configured,
              running: c.state !== 'stopped' && c.state !== 'error',
              connected: c.state === 'connected',
              ...(c.error ? { lastError: c.error } : {}),
            },
          ]),
        ),
        channelAccounts: Object.fromEntries(
          list.map((c) => [
            c.id,
            c.configured
              ? [
                  {
                    accountId: 'default',
                    connected: c.state === 'connected',
                    ...(c.account ? { name: c.account } : {}),
                  },
                ]
              : [],
          ]),
        ),
        channelDefaultAccountId: Object.fromEntries(list.map((c) => [c.id, 'default'])),
        statusIssues: list.filter((c) => c.configured && c.error).map((c) => ({ channel: c.id, message: c.error! })),
      };
    }),
  );
  store.add(
    router.handle('channels.restart', async (params) => {
      await host().restartChannel(params.channel);
      const channel = views().find((c) => c.id === params.channel)!;
      return { channel };
    }),
  );
  store.add(
    router.handle('channels.identities.list', () => ({
      identities: deps.host()?.identities() ?? [],
      ownerPerson: OWNER_PERSON,
    })),
  );
  store.add(
    router.handle('channels.pairing.list', (params) => {
      const current = deps.host();
      const pending = current?.pairing.pending(params.channel) ?? [];
      const paired = current?.pairing.paired(params.channel) ?? [];
      return {
        accounts: views()
          .filter((c) => c.configured)
          .map((c) => ({ channel: c.id, accountId: 'default' })),
        requests: pending.map(({ peerId: _peerId, ...request }) => request),
        paired,
        commandOwnerConfigured: false,
        limits: { pendingPerAccount: PAIRING_MAX_PENDING, ttlMs: PAIRING_TTL_MS },
      };
    }),
  );
  store.add(
    router.handle('channels.pairing.approve', async (params) => {
      const { paired } = await host().approvePairing(params.code);
      return { approved: paired };
    }),
  );
  store.add(
    router.handle('channels.pairing.reject', async (params) => {
      const { peerId: _peerId, ...rejected } = await host().rejectPairing(params.code);
      return { rejected };
    }),
  );
  return store;
}
