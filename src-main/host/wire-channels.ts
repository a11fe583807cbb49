import type { IncomingMessage } from 'node:http';
import { join } from 'node:path';
import type { Clock } from '../base/clock.js';
import { type AsyncDisposable, AsyncDisposableStore, toDisposable } from '../base/disposable.js';
import type { Logger } from '../base/logger.js';
import { type ChannelChat, ChannelHost, channelLanguage, createChannelSendFileTool } from '../channels/index.js';
import type { ApprovalService } from '../exec/index.js';
import type { CallerIdentity } from '../gateway/caller.js';
import type { GatewayCore } from '../gateway/gateway-core.js';
import { registerChannelsMethods } from '../gateway/methods/channels.js';
import type { HearthPaths } from '../paths/index.js';
import type { InstalledPlugins } from '../plugins/index.js';
import type { ChannelService, ChannelWebhook } from '../plugins/sdk/index.js';
import type { ChatEvent } from '../protocol/index.js';
import type { ChatSendResult } from '../protocol/methods/chat.js';
import type { SessionsGetResult } from '../protocol/methods/sessions.js';
import type { UsageLimitEvent, UsageSummaryResult } from '../protocol/methods/usage.js';
import { resolveModelSelection } from '../providers/index.js';
import type { SecretStore } from '../secrets/index.js';
import { parseSessionKey, resolveRoute } from '../sessions/index.js';
import type { ToolDefinition } from '../tools/tool.js';
import type { ChannelOutbox } from './channel-outbox.js';
import type { ChannelToolsSlot } from './channel-tools-slot.js';
import type { HearthConfigService } from './hearth-config.js';

/**
 * A channel message reaches chat.send as this caller: it may write a chat turn and nothing else.
 * No `operator.approvals` (a channel cannot `/approve`), no admin (no config, no scopes), not a
 * person. Its messages are untrusted input.
 */
function channelCaller(channel: string): CallerIdentity {
  return {
    connId: `channel:${channel}`,
    role: 'operator',
    scopes: ['operator.write'],
    clientId: `hearth-channel-${channel}`,
    clientMode: 'backend',
    authMethod: 'none',
    isLocal: false,
    person: false,
    caps: [],
  };
}

/** What `/status` reads: the session and today's usage (read scopes only). */
const statusReader: CallerIdentity = {
  ...channelCaller('status'),
  scopes: ['operator.read', 'operator.sessions.read'],
};

const tokens = (n: number) => (n >= 10_000 ? `${Math.round(n / 1000)}k` : String(n));

const MAX_WEBHOOK_BODY = 1024 * 1024;

async function readBody(request: IncomingMessage): Promise<string | undefined> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request) {
    size += (chunk as Buffer).length;
    if (size > MAX_WEBHOOK_BODY) return undefined;
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** A channel's webhook on the gateway's port: POST only, body capped, the plugin checks its secret. */
function webhookOn(routes: GatewayCore['httpRoutes'], path: string): ChannelWebhook {
  return {
    path,
    listen(handler) {
      return routes.add({
        paths: [path],
        handle: async (request, response) => {
          if (request.method !== 'POST') {
            response.writeHead(405, { allow: 'POST', 'content-type': 'text/plain' });
            response.end('POST only');
            return;
          }
          const body = await readBody(request);
          if (body === undefined) {
            response.writeHead(413, { 'content-type': 'text/plain' });
            response.end('body over 1 MiB');
            return;
          }
          const headers = Object.fromEntries(
            Object.entries(request.headers).map(([name, value]) => [
              name,
              Array.isArray(value) ? value.join(', ') : value,
            ]),
          );
          const answer = await handler({ method: request.method, headers, body }).catch(() => ({
            status: 500,
            body: 'the channel could not take this update',
          }));
          response.writeHead(answer.status, { 'content-type': 'text/plain' });
          response.end(answer.body ?? '');
        },
      });
    },
  };
}

/** The channel plugins, run by the channel host, on the gateway as channels.* (docs/CHANNELS.md). */
export async function wireChannels(deps: {
  core: Pick<GatewayCore, 'registry' | 'bus' | 'callAs' | 'subscribeAs' | 'httpRoutes'>;
  config: Pick<HearthConfigService, 'current' | 'onDidChange' | 'patch'>;
  paths: HearthPaths;
  clock: Clock;
  log: Logger;
  secrets: SecretStore;
  plugins: InstalledPlugins;
  /** Exec approvals: offered in the channel a run came from. */
  approvals?: Pick<ApprovalService, 'registerPrompter' | 'resolve' | 'get'>;
  /** Loopback fakes in tests; the platform's API in real use. */
  fetch?: typeof fetch;
  /** Cron's and the heartbeat's channel deliveries: bound to the host while it runs. */
  outbox?: ChannelOutbox;
  /** The model's tools: `channel_send_file` is added (a file from the workspace into the run's channel chat). */
  tools?: ToolDefinition[];
  /** The agent's per-session tools: a channel's enabled agentTools, bound to the host while it runs. */
  channelTools?: ChannelToolsSlot;
}): Promise<AsyncDisposable> {
  const { core, config, clock, plugins } = deps;
  const log = deps.log.child({ part: 'channels' });
  const root = new AsyncDisposableStore();
  const shutdown = new AbortController();
  root.add(toDisposable(() => shutdown.abort()));

  let host: ChannelHost | undefined;
  deps.tools?.push(
    createChannelSendFileTool(async (sessionKey, file) => {
      if (!host) throw new Error('channels are not running');
      return host.sendFile(sessionKey, file);
    }),
  );
  root.add(
    registerChannelsMethods(core.registry, {
      host: () => host,
      now: () => clock.now(),
      // The setup wizard, enable/disable and identity links write hearth.json and the secret store.
      write: {
        config: {
          get current() {
            return config.current;
          },
          patch: (patch) => config.patch(patch),
        },
        secrets: deps.secrets,
        setTimeout: (run, ms) => clock.setTimeout(run, ms),
      },
    }),
  );

  // One caller for every channel's chat.send; its events are the ones that caller may see.
  const caller = channelCaller('host');
  const chat: ChannelChat = {
    send: async (params) => {
      const from = params.route?.channel ?? 'docked';
      const outcome = await core.callAs(channelCaller(from), 'chat.send', params, shutdown.signal);
      return outcome.ok
        ? { ok: true, payload: outcome.payload as ChatSendResult }
        : { ok: false, error: { message: outcome.error.message } };
    },
    onEvent: (listener) =>
      core.subscribeAs(caller, (event, payload) => {
        if (event === 'chat') listener(payload as ChatEvent);
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
    config: () => config.current.channels,
    onConfigChange: (prefixes, listener) => config.onDidChange(prefixes, listener),
    secrets: deps.secrets,
    stateDir: join(deps.paths.stateDir, 'channels'),
    fetch: deps.fetch ?? fetch,
    clock,
    log,
    chat,
    webhookFor: (channel) => webhookOn(core.httpRoutes, `/channels/${channel}/webhook`),
    identityLinks: () => config.current.memory.identityLinks,
    // Approval prompts in the person's language (Settings → Language writes ui.language).
    language: () => channelLanguage(config.current.ui),
    sessionKeyFor: (route) =>
      resolveRoute({ agents: config.current.agents, session: config.current.session }, route).sessionKey,
    status: async ({ sessionKey }) => {
      const agentId = parseSessionKey(sessionKey).agentId;
      const [session, usage] = await Promise.all([
        core.callAs(statusReader, 'sessions.get', { key: sessionKey }, shutdown.signal),
        core.callAs(statusReader, 'usage.summary', { days: 1 }, shutdown.signal),
      ]);
      const row = session.ok ? (session.payload as SessionsGetResult).session : undefined;
      const model = row?.model ?? resolveModelSelection(config.current.agents, agentId)?.primary ?? 'none set';
      const lines = [
        `Model: ${model}`,
        `Session: ${sessionKey}${row ? ` (${row.messageCount ?? 0} messages)` : ' (new)'}`,
      ];
      if (usage.ok) {
        const summary = usage.payload as UsageSummaryResult;
        const { today } = summary;
        lines.push(
          `Usage today: ${tokens(today.totalTokens)} tokens, $${today.costUsd.toFixed(2)} in ${today.calls} calls`,
        );
        for (const limit of summary.limits.filter((l) => l.state !== 'ok'))
          lines.push(`Limit ${limit.scope} per ${limit.period}: ${Math.floor(limit.fraction * 100)}% used`);
      }
      return lines.join('\n');
    },
    approvals: () => deps.approvals,
  });
  const started = host;
  root.add({ dispose: () => started.dispose() });
  root.add(started.onDidChange((change) => core.bus.publish('channels.changed', change)));
  if (deps.approvals) root.add(deps.approvals.registerPrompter(started.approvals));
  if (deps.outbox) root.add(deps.outbox.bind((target, text) => started.deliver(target, text)));
  if (deps.channelTools) root.add(deps.channelTools.bind((sessionKey) => started.agentToolsFor(sessionKey)));
  // A spend cap at its warning line (80 %) or used up: the owner hears it on their channels, once
  // per cap, period and state (kept across restarts).
  root.add(
    core.subscribeAs(caller, (event, payload) => {
      if (event !== 'usage.limit') return;
      const limit = payload as UsageLimitEvent;
      const key = `usage:${limit.scope}:${limit.agentId ?? ''}:${limit.period}:${limit.resetsAtMs}:${limit.state}`;
      void started
        .notifyOwner(`${limit.state === 'exhausted' ? '⛔' : '⚠️'} ${limit.message}`, key)
        .catch((error: unknown) => log.warn('could not send a usage notice', { error: String(error) }));
    }),
  );
  return root;
}
