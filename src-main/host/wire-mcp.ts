import { join } from 'node:path';
import type { Clock } from '../base/clock.js';
import { type AsyncDisposable, DisposableStore } from '../base/disposable.js';
import { HearthError } from '../base/errors.js';
import type { Logger } from '../base/logger.js';
import type { ApprovalGate } from '../exec/index.js';
import type { GatewayCore } from '../gateway/gateway-core.js';
import { registerMcpMethods } from '../gateway/methods/mcp.js';
import { type AgentMcpConfig, McpAlwaysAllowed, McpHub, type McpSecretSource, planMcpImport } from '../mcp/index.js';
import type { HearthPaths } from '../paths/index.js';
import type { ToolDefinition } from '../tools/tool.js';
import type { HearthConfigService } from './hearth-config.js';
import { HEARTH_VERSION } from './version.js';

export interface WiredMcp extends AsyncDisposable {
  /** The agent's MCP tools for this turn (starting the servers it enables); [] when it enables none. */
  toolsFor(agentId: string): Promise<ToolDefinition[]>;
  /** Stops every server and waits for stdio children to end. */
  dispose(): Promise<void>;
}

/**
 * The MCP client (docs/MCP.md): `mcp.servers` from hearth.json, each agent's `mcp` (its own, else
 * `agents.defaults.mcp`), write tools asked through the exec approval queue, and the
 * `mcp.servers.*` methods. Servers start when a turn of an agent that enables them begins.
 */
export async function wireMcp(deps: {
  core: Pick<GatewayCore, 'registry' | 'bus' | 'httpRoutes'>;
  paths: Pick<HearthPaths, 'stateDir'>;
  config: Pick<HearthConfigService, 'current' | 'onDidChange' | 'patch'>;
  secrets: McpSecretSource;
  approvals: ApprovalGate;
  /** The exec hard floor's reasons against a command line (`ApprovalService.screen`). */
  floorReasons?(commandLine: string): string[] | Promise<string[]>;
  clock: Clock;
  log: Logger;
  env: Record<string, string | undefined>;
  /** The gateway's own URL (http://127.0.0.1:PORT): OAuth redirects come back to it. */
  gatewayUrl?(): string;
}): Promise<WiredMcp> {
  const { config } = deps;
  const store = new DisposableStore();
  const log = deps.log.child({ part: 'mcp' });
  const file = join(deps.paths.stateDir, 'mcp-approvals.json');
  // "Allow always" is a rule of the approvals' permission store (which imported the older file);
  // a damaged older file, used only without that store, costs "allow always", never the host's start.
  const permissions = deps.approvals.permissions;
  const alwaysAllowed = permissions
    ? McpAlwaysAllowed.over(permissions)
    : await McpAlwaysAllowed.open(file).catch((error: unknown) => {
        log.warn('MCP "allow always" list unreadable; every write tool asks', { file, error: String(error) });
        return undefined;
      });
  const hub = new McpHub({
    config: () => config.current.mcp,
    agentConfig: (agentId): AgentMcpConfig | undefined => {
      const { agents } = config.current;
      return agents.list.find((agent) => agent.id === agentId)?.mcp ?? agents.defaults?.mcp;
    },
    secrets: deps.secrets,
    approvals: deps.approvals,
    ...(alwaysAllowed ? { alwaysAllowed } : {}),
    clock: deps.clock,
    log,
    baseEnv: deps.env,
    clientVersion: HEARTH_VERSION,
    ...(deps.floorReasons ? { refuseCommand: deps.floorReasons } : {}),
    ...(deps.gatewayUrl ? { oauthRedirectUrl: () => new URL(OAUTH_CALLBACK_PATH, deps.gatewayUrl!()).toString() } : {}),
  });
  store.add(hub);
  store.add(hub.onDidChange((server) => deps.core.bus.publish('mcp.servers.changed', { server })));
  // The browser comes back here after the person authorized Hearth at a server's authorization
  // server. No gateway token: the `state` it carries (random, single use, 10 minutes) is the proof.
  store.add(
    deps.core.httpRoutes.add({
      paths: [OAUTH_CALLBACK_PATH],
      async handle(request, response) {
        if (request.method !== 'GET') {
          response.writeHead(405, { allow: 'GET' });
          response.end();
          return;
        }
        const query = new URL(request.url ?? '/', 'http://gateway.invalid').searchParams;
        const answer = await hub.completeAuth({
          ...optional('state', query.get('state')),
          ...optional('code', query.get('code')),
          ...optional('error', query.get('error')),
          ...optional('errorDescription', query.get('error_description')),
        });
        response.writeHead(answer.ok ? 200 : 400, {
          'content-type': 'text/html; charset=utf-8',
          'cache-control': 'no-store',
          'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'",
          'referrer-policy': 'no-referrer',
          'x-content-type-options': 'nosniff',
        });
        response.end(callbackPage(answer.ok, answer.message));
      },
    }),
  );
  // A removed or edited server stops now (an edited one starts again when next used).
  store.add(config.onDidChange(['mcp'], () => hub.reconcile()));
  store.add(
    registerMcpMethods(deps.core.registry, {
      list: () => hub.list(),
      test: (name, raw) => hub.test(name, raw),
      alwaysAllowed: () => hub.alwaysAllowed(),
      revoke: (tool) => hub.revoke(tool),
      startAuth: (server) => hub.startAuth(server),
      clearAuth: (server) => hub.clearAuth(server),
      listPrompts: (server) => hub.listPrompts(server),
      getPrompt: (server, name, args) => hub.getPrompt(server, name, args),
      importServers: async (json, apply) => {
        const plan = planMcpImport(json, config.current.mcp.servers);
        const adding = Object.keys(plan.servers).length > 0;
        if (apply && adding)
          await config.patch({ mcp: { servers: plan.servers } }).catch((error: unknown) => {
            throw new HearthError('bad_request', `hearth.json refused the import: ${errorText(error)}`);
          });
        return { ...plan, applied: apply && adding };
      },
    }),
  );
  return {
    toolsFor: (agentId) => hub.toolsFor(agentId),
    dispose: async () => {
      await hub.close();
      store.dispose();
    },
  };
}

/** Where a server's authorization server sends the browser back (registered as the redirect URI). */
export const OAUTH_CALLBACK_PATH = '/mcp/oauth/callback';

function optional<K extends string>(key: K, value: string | null): Partial<Record<K, string>> {
  return value === null ? {} : ({ [key]: value } as Record<K, string>);
}

/** The page the person's browser shows after the redirect. */
function callbackPage(ok: boolean, message: string): string {
  const escaped = message.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
  const title = ok ? 'Authorized' : 'Not authorized';
  return `<!doctype html><meta charset="utf-8"><title>Hearth: ${title}</title>
<style>body{font:16px system-ui;margin:4rem auto;max-width:36rem;color:#222}</style>
<h1>${title}</h1><p>${escaped}</p><p>${ok ? 'You can close this tab and go back to Hearth.' : ''}</p>`;
}

function errorText(error: unknown): string {
  const problems = (error as { errors?: { path?: string; message?: string }[] }).errors;
  if (Array.isArray(problems) && problems.length > 0)
    return problems.map((problem) => `${problem.path ?? ''}: ${problem.message ?? ''}`).join('; ');
  return error instanceof Error ? error.message : String(error);
}
