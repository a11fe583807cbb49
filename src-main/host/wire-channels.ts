import { join } from 'node:path';
import type { Clock } from '../base/clock.js';
import { type AsyncDisposable, AsyncDisposableStore, toDisposable } from '../base/disposable.js';
import type { Logger } from '../base/logger.js';
import { type ChannelChat, ChannelHost } from '../channels/index.js';
import type { ConfigService } from '../config/index.js';
import type { GatewayCore } from '../gateway/gateway-core.js';
import type { CallContext } from '../gateway/method-router.js';
import { registerChannelsMethods } from '../gateway/methods/channels.js';
import type { HearthPaths } from '../paths/index.js';
import type { InstalledPlugins } from '../plugins/index.js';
import type { ChannelService } from '../plugins/sdk/index.js';
import type { ChatEvent } from '../protocol/index.js';
import type { ChatSendResult } from '../protocol/methods/chat.js';
import type { SecretStore } from '../secrets/index.js';

/**
 * A channel message reaches chat.send as this caller: it may write a chat turn and nothing else.
 * No `operator.approvals` (a channel cannot `/approve`), no admin (no config, no scopes), not a
 * person. Its messages are untrusted input.
 */
function channelCall(channel: string, signal: AbortSignal): CallContext {
  return {
    caller: {
      connId: `channel:${channel}`,
      role: 'operator',
      scopes: ['operator.write'],
      clientId: `hearth-channel-${channel}`,
      clientMode: 'backend',
      authMethod: 'none',
      isLocal: false,
      person: false,
      caps: [],
    },
    requestId: `channel:${channel}`,
    signal,
    acknowledge: () => {},
  };
}

/** The channel plugins, run by the channel host, on the gateway as channels.* (docs/CHANNELS.md). */
export async function wireChannels(deps: {
  core: Pick<GatewayCore, 'registry' | 'bus'>;
  config: Pick<ConfigService, 'current' | 'onDidChange'>;
  paths: HearthPaths;
  clock: Clock;
  log: Logger;
  secrets: SecretStore;
  plugins: InstalledPlugins;
  /** Loopback fakes in tests; the platform's API in real use. */
  fetch?: typeof fetch;
}): Promise<AsyncDisposable> {
  const { core, config, clock, plugins } = deps;
  const log = deps.log.child({ part: 'channels' });
  const root = new AsyncDisposableStore();
  const shutdown = new AbortController();
  root.add(toDisposable(() => shutdown.abort()));

  let host: ChannelHost | undefined;
  root.add(registerChannelsMethods(core.registry, { host: () => host, now: () => clock.now() }));

  const chat: ChannelChat = {
    send: async (params) => {
      const outcome = await core.registry.dispatch(
        'chat.send',
        params,
        channelCall(params.route.channel, shutdown.signal),
      );
      return outcome.ok
        ? { ok: true, payload: outcome.payload as ChatSendResult }
        : { ok: false, error: { message: outcome.error.message } };
    },
    onEvent: (listener) =>
      core.bus.onDidPublish((published) => {
        if (published.event === 'chat') listener(published.payload as ChatEvent);
      }),
  };

  host = await ChannelHost.start({
    channels: plugins.registry.list('channel').map(({ pluginId, id }) => ({
      id,
      pluginId,
      create: async () => {
        const contribution = plugins.registry.get<ChannelService>('channel', id);
        if (!contribution) throw new Error(`channel ${id} is no longer registered`);
        return contribution.create(plugins.contextFor(pluginId));
      },
    })),
    config: () => config.current.channels as Record<string, unknown> | undefined,
    onConfigChange: (prefixes, listener) => config.onDidChange(prefixes, listener),
    secrets: deps.secrets,
    stateDir: join(deps.paths.stateDir, 'channels'),
    fetch: deps.fetch ?? fetch,
    clock,
    log,
    chat,
  });
  const started = host;
  root.add({ dispose: () => started.dispose() });
  return root;
}
