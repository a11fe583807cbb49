import { type Disposable, DisposableStore, HearthError } from '../../base/index.js';
import {
  type ChannelHost,
  describeSetup,
  OWNER_PERSON,
  PAIRING_MAX_PENDING,
  PAIRING_TTL_MS,
  planSetup,
  updateHostSettings,
} from '../../channels/index.js';
import { ConfigValidationError } from '../../config/index.js';
import type { ChannelSetupApplyResult, ChannelView } from '../../protocol/methods/channels.js';
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
      ...(channel.settings
        ? {
            settings: {
              ...channel.settings,
              allowFrom: [...channel.settings.allowFrom],
              groups: { ...channel.settings.groups, allowlist: [...channel.settings.groups.allowlist] },
            },
          }
        : {}),
      ...(host.plugin(channel.id)?.agentTools
        ? { agentTools: host.plugin(channel.id)!.agentTools!.tools.map((tool) => ({ ...tool })) }
        : {}),
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
/** What the setup, enable and identity methods write through: hearth.json and the secret store. */
export interface ChannelsWriteDeps {
  config: {
    current: { channels?: Record<string, unknown>; memory: { identityLinks: Record<string, string[]> } };
    patch(patch: Record<string, unknown>): Promise<{ changedPaths: string[] }>;
  };
  secrets: { get(account: string): Promise<string | undefined>; set(account: string, value: string): Promise<void> };
  /** Timers for the setup test's wait (the host's clock). */
  setTimeout(run: () => void, ms: number): Disposable;
}

const TEST_WAIT_MS = 15_000;

function configError(error: unknown): never {
  if (error instanceof ConfigValidationError)
    throw new HearthError('bad_request', error.message, {
      details: { reason: 'invalid-config', errors: error.errors },
    });
  throw error;
}

export function registerChannelsMethods(
  router: MethodRouter,
  deps: { host(): ChannelHost | undefined; now(): number; write?: ChannelsWriteDeps },
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
  const identities = () => ({ identities: deps.host()?.identities() ?? [], ownerPerson: OWNER_PERSON });
  store.add(router.handle('channels.identities.list', () => identities()));
  const write = () => {
    if (!deps.write) throw new HearthError('unavailable', 'this gateway cannot write channel settings');
    return deps.write;
  };
  /** The channel's plugin, or not_found naming the channels there are. */
  const pluginOf = (id: string) => {
    const plugin = host().plugin(id);
    if (!plugin)
      throw new HearthError(
        'not_found',
        `no channel ${JSON.stringify(id)} (channels: ${views()
          .filter((c) => c.pluginId)
          .map((c) => c.id)
          .join(', ')})`,
      );
    return plugin;
  };
  const blockOf = (id: string): Record<string, unknown> | undefined => {
    const raw = write().config.current.channels?.[id];
    return raw && typeof raw === 'object' && !Array.isArray(raw) ? (raw as Record<string, unknown>) : undefined;
  };
  const hasSecret = async (account: string) => (await write().secrets.get(account)) !== undefined;
  const viewOf = (id: string) => views().find((c) => c.id === id)!;
  /** Writes `channels.<id>` as `next` (a merge patch: keys it lacks are removed); the config change restarts it. */
  const writeBlock = async (
    id: string,
    current: Record<string, unknown> | undefined,
    next: Record<string, unknown>,
  ) => {
    const patch: Record<string, unknown> = { ...next };
    for (const key of Object.keys(current ?? {})) if (!(key in next)) patch[key] = null;
    const { changedPaths } = await write()
      .config.patch({ channels: { [id]: current === undefined ? next : patch } })
      .catch(configError);
    return changedPaths;
  };
  /** Resolves with the channel's view once it is no longer starting (connected, failing, stopped) or the wait ends. */
  const settledHealth = async (id: string, timeoutMs: number) => {
    const current = host();
    await current.settled();
    const done = (view: ChannelView) =>
      view.state === 'connected' ||
      view.state === 'error' ||
      view.state === 'stopped' ||
      (view.state === 'reconnecting' && view.error !== undefined);
    if (done(viewOf(id))) return viewOf(id);
    await new Promise<void>((resolve) => {
      const listener = current.onDidChange((change) => {
        if (change.channel !== id || !done(viewOf(id))) return;
        finish();
      });
      const timer = write().setTimeout(() => finish(), timeoutMs);
      function finish() {
        listener.dispose();
        timer.dispose();
        resolve();
      }
    });
    return viewOf(id);
  };

  store.add(
    router.handle('channels.setup.describe', async (params) => {
      const plugin = pluginOf(params.channel);
      const block = blockOf(params.channel);
      const { steps, fields } = await describeSetup(plugin, block ?? {}, hasSecret);
      return {
        channel: params.channel,
        name: plugin.meta.name,
        ...(plugin.meta.icon ? { icon: plugin.meta.icon } : {}),
        ...(plugin.meta.description ? { description: plugin.meta.description } : {}),
        configured: block !== undefined,
        steps,
        fields: fields.map(({ secret: _secret, options, when, ...field }) => ({
          ...field,
          ...(options ? { options: [...options] } : {}),
          ...(when ? { when: { ...when } } : {}),
        })),
      };
    }),
  );
  store.add(
    router.handle('channels.setup.apply', async (params): Promise<ChannelSetupApplyResult> => {
      const id = params.channel;
      const plugin = pluginOf(id);
      const current = blockOf(id);
      // Everything is checked before anything is written: a refused answer changes nothing.
      const plan = await planSetup(id, plugin, current ?? {}, params.values, hasSecret);
      for (const secret of plan.secrets) await write().secrets.set(secret.account, secret.value);
      const before = viewOf(id).restarts;
      const changedPaths = await writeBlock(id, current, plan.block);
      await host().settled();
      // The block is as it was (only a secret changed, or nothing): no config change restarted the
      // channel, so restart it here; it reads the secret and is tested anew.
      if (viewOf(id).restarts === before) await host().restartChannel(id);
      const result: ChannelSetupApplyResult = {
        channel: viewOf(id),
        changedPaths,
        secretsStored: plan.secrets.map((secret) => secret.account),
      };
      if (!params.test) return result;
      const view = await settledHealth(id, params.timeoutMs ?? TEST_WAIT_MS);
      return {
        ...result,
        channel: view,
        test: {
          ok: view.state === 'connected',
          state: view.state,
          ...(view.account ? { account: view.account } : {}),
          ...(view.error ? { error: view.error } : {}),
        },
      };
    }),
  );
  store.add(
    router.handle('channels.settings.set', async (params) => {
      const plugin = pluginOf(params.channel);
      const current = blockOf(params.channel);
      if (!current)
        throw new HearthError(
          'bad_request',
          `channels.${params.channel} is not set up yet: run its setup first (channels.setup.apply)`,
        );
      const next = updateHostSettings(params.channel, plugin, current, params.settings);
      await writeBlock(params.channel, current, next);
      await host().settled();
      return { channel: viewOf(params.channel) };
    }),
  );
  store.add(
    router.handle('channels.setEnabled', async (params) => {
      pluginOf(params.channel);
      const current = blockOf(params.channel);
      if (!current)
        throw new HearthError(
          'bad_request',
          `channels.${params.channel} is not set up yet: run its setup first (channels.setup.apply)`,
        );
      const next = { ...current };
      // Enabled is the default: hearth.json names it only when it is off.
      if (params.enabled) delete next.enabled;
      else next.enabled = false;
      await writeBlock(params.channel, current, next);
      await host().settled();
      return { channel: viewOf(params.channel) };
    }),
  );
  const writeLinks = async (links: Record<string, string[] | null>) => {
    await write()
      .config.patch({ memory: { identityLinks: links } })
      .catch(configError);
  };
  store.add(
    router.handle('channels.identities.link', async ({ person, account }) => {
      const channel = account.slice(0, account.indexOf(':'));
      pluginOf(channel);
      const links = write().config.current.memory.identityLinks;
      const holder = Object.entries(links).find(([, accounts]) => accounts.includes(account))?.[0];
      if (holder === person) return identities();
      if (holder !== undefined)
        throw new HearthError(
          'conflict',
          `${account} is linked to ${JSON.stringify(holder)} already: unlink it there first (an account belongs to one person)`,
          { details: { reason: 'linked-elsewhere', person: holder } },
        );
      await writeLinks({ [person]: [...(links[person] ?? []), account] });
      return identities();
    }),
  );
  store.add(
    router.handle('channels.identities.unlink', async ({ person, account }) => {
      const accounts = write().config.current.memory.identityLinks[person] ?? [];
      if (!accounts.includes(account))
        throw new HearthError('not_found', `${account} is not linked to ${JSON.stringify(person)}`);
      const rest = accounts.filter((other) => other !== account);
      await writeLinks({ [person]: rest.length > 0 ? rest : null });
      return identities();
    }),
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
