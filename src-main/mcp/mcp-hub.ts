import type { Clock } from '../base/clock.js';
import type { Disposable } from '../base/disposable.js';
import { Emitter } from '../base/emitter.js';
import { HearthError } from '../base/errors.js';
import type { Logger } from '../base/logger.js';
import type { ApprovalGate } from '../exec/index.js';
import type {
  McpAuthStartResult,
  McpPromptGetResult,
  McpPromptInfo,
  McpServerStatus,
  McpServersTestResult,
} from '../protocol/methods/mcp.js';
import type { ToolDefinition } from '../tools/tool.js';
import type { McpAlwaysAllowed, McpAlwaysAllowedEntry } from './mcp-always-allowed.js';
import {
  type AgentMcpConfig,
  type McpConfig,
  type McpServerConfig,
  type McpValue,
  mcpServerConfigSchema,
  usesOAuth,
} from './mcp-config.js';
import { McpConnection, type McpTool } from './mcp-connection.js';
import { McpOAuthProvider } from './mcp-oauth.js';
import { createResourceToolDefinitions } from './mcp-resource-tools.js';
import { formatMcpResult } from './mcp-result.js';
import { createMcpToolDefinition, describeMcpTool } from './mcp-tool.js';

/** Where `{ "secret": "<name>" }` values come from (the secret store, by shape). */
export interface McpSecretSource {
  readonly backend?: string;
  get(name: string): Promise<string | undefined>;
  /** Where OAuth registrations and tokens are kept; without set and delete, OAuth is off. */
  set?(name: string, value: string): Promise<void>;
  delete?(name: string): Promise<boolean>;
}

/** What the OAuth redirect brought back to the gateway's callback. */
export interface McpOAuthRedirect {
  state?: string;
  code?: string;
  error?: string;
  errorDescription?: string;
}

export interface McpHubDeps {
  /** The `mcp` section as it is now (read on every use, so edits apply). */
  config(): McpConfig;
  /** An agent's `mcp` settings (its own, else the defaults'); undefined: it uses no server. */
  agentConfig(agentId: string): AgentMcpConfig | undefined;
  secrets: McpSecretSource;
  approvals: ApprovalGate;
  /** Tools answered "allow always" (state/mcp-approvals.json); without it every write asks. */
  alwaysAllowed?: McpAlwaysAllowed;
  clock: Clock;
  log: Logger;
  baseEnv: Record<string, string | undefined>;
  clientVersion?: string;
  /** The exec hard floor for server command lines (`McpConnectionDeps.refuseCommand`). */
  refuseCommand?(commandLine: string): string[] | Promise<string[]>;
  /** The gateway's OAuth redirect endpoint (`…/mcp/oauth/callback`); without it, OAuth is off. */
  oauthRedirectUrl?(): string;
}

interface Entry {
  connection: McpConnection;
  /** The config it was built from, to notice an edit. */
  key: string;
  /** Built once per tool list (zod schemas are not rebuilt every turn). */
  definitions?: { tools: McpTool[]; byName: Map<string, ToolDefinition> };
}

/**
 * The MCP client side of Hearth: one connection per configured server, made when an agent that
 * enables it first runs a turn. An agent sees only the servers (and tools) it enables, so the
 * others add nothing to its prompt.
 */
export class McpHub implements Disposable {
  private readonly entries = new Map<string, Entry>();
  private readonly warned = new Set<string>();
  private disposed = false;
  private readonly didChange = new Emitter<McpServerStatus>();
  /** A server's state, tool list or last error changed. */
  readonly onDidChange = this.didChange.event;

  constructor(private readonly deps: McpHubDeps) {}

  /** The agent's MCP tools (`server__tool`). Starts servers it enables that are not running. */
  async toolsFor(agentId: string): Promise<ToolDefinition[]> {
    const wanted = this.deps.agentConfig(agentId);
    if (!wanted || wanted.servers.length === 0 || this.disposed) return [];
    const servers = this.deps.config().servers;
    const lists = await Promise.all(
      wanted.servers.map(async (name) => {
        const config = servers[name];
        if (!config) {
          this.warnOnce(
            `${agentId}:${name}`,
            `agent "${agentId}" enables MCP server "${name}", which mcp.servers does not have`,
          );
          return [];
        }
        if (!config.enabled) return [];
        const entry = this.entryFor(name, config);
        const tools = await entry.connection.tools();
        if (!tools) return [];
        const only = wanted.tools[name];
        return [...this.definitionsOf(entry, tools).entries()]
          .filter(([tool]) => !only || only.includes(tool))
          .map(([, definition]) => definition);
      }),
    );
    return lists.flat();
  }

  list(): McpServerStatus[] {
    this.reconcile();
    return Object.entries(this.deps.config().servers).map(([name, config]) =>
      this.entryFor(name, config).connection.status(),
    );
  }

  /**
   * Connects and lists the tools of a configured server, or (with `raw`) of an entry tried once
   * and stopped again. A bad entry is a `bad_request` naming what is wrong.
   */
  async test(name: string, raw?: unknown): Promise<McpServersTestResult> {
    if (raw !== undefined) {
      const parsed = mcpServerConfigSchema.safeParse(raw);
      if (!parsed.success) {
        const issue = parsed.error.issues[0];
        const where = issue?.path.length ? `${issue.path.join('.')}: ` : '';
        throw new HearthError('bad_request', `MCP server "${name}": ${where}${issue?.message ?? 'invalid entry'}`);
      }
      const connection = this.createConnection(name, parsed.data, { trial: true });
      try {
        return await this.testConnection(connection, parsed.data);
      } finally {
        await connection.close();
      }
    }
    const config = this.deps.config().servers[name];
    if (!config) throw new HearthError('not_found', `no MCP server "${name}" in mcp.servers`);
    return this.testConnection(this.entryFor(name, config).connection, config);
  }

  /** `mcp.auth.start`: the server is usable, or the URL the person opens to authorize Hearth. */
  async startAuth(name: string): Promise<McpAuthStartResult> {
    const config = this.deps.config().servers[name];
    if (!config) throw new HearthError('not_found', `no MCP server "${name}" in mcp.servers`);
    const entry = this.entryFor(name, config);
    if (!this.oauthFor(config))
      throw new HearthError(
        'bad_request',
        `MCP server "${name}" does not use OAuth: it is a stdio server, its headers set Authorization, or "oauth" is false`,
      );
    try {
      const started = await entry.connection.startAuthorization();
      return { ...started, server: entry.connection.status() };
    } catch (error) {
      throw new HearthError('unavailable', `MCP server "${name}": authorization could not start: ${messageOf(error)}`);
    }
  }

  /**
   * The browser came back to the gateway's callback. Finds the server whose open authorization has
   * this `state` (unguessable, single use), fetches and stores the tokens, connects. Answers what
   * the person's browser page says.
   */
  async completeAuth(redirect: McpOAuthRedirect): Promise<{ ok: boolean; server?: string; message: string }> {
    const entry = redirect.state
      ? [...this.entries.values()].find((candidate) => candidate.connection.ownsAuthorization(redirect.state!))
      : undefined;
    if (!entry)
      return {
        ok: false,
        message:
          'This authorization is unknown or expired (it was answered already, or started over 10 minutes ago). Start it again from Hearth.',
      };
    const { connection } = entry;
    if (redirect.error || !redirect.code) {
      const why = redirect.error
        ? `${redirect.error}${redirect.errorDescription ? `: ${redirect.errorDescription}` : ''}`
        : 'no code in the redirect';
      connection.failAuthorization(`authorization refused: ${why}`);
      return {
        ok: false,
        server: connection.name,
        message: `MCP server "${connection.name}" was not authorized (${why}).`,
      };
    }
    try {
      await connection.finishAuthorization(redirect.code);
      return {
        ok: true,
        server: connection.name,
        message: `Hearth is authorized for MCP server "${connection.name}".`,
      };
    } catch (error) {
      connection.failAuthorization(`authorization failed: ${messageOf(error)}`);
      return { ok: false, server: connection.name, message: `MCP server "${connection.name}": ${messageOf(error)}` };
    }
  }

  /** `mcp.auth.clear`: forgets the server's OAuth registration and tokens. */
  async clearAuth(name: string): Promise<McpServerStatus> {
    const config = this.deps.config().servers[name];
    if (!config) throw new HearthError('not_found', `no MCP server "${name}" in mcp.servers`);
    const entry = this.entryFor(name, config);
    if (!this.oauthFor(config)) throw new HearthError('bad_request', `MCP server "${name}" does not use OAuth`);
    await entry.connection.clearAuthorization();
    return entry.connection.status();
  }

  /** The prompts of one server, or of every enabled one; an unreachable server goes to `errors`. */
  async listPrompts(
    server?: string,
  ): Promise<{ prompts: McpPromptInfo[]; errors: { server: string; error: string }[] }> {
    const servers = this.deps.config().servers;
    if (server !== undefined && !servers[server])
      throw new HearthError('not_found', `no MCP server "${server}" in mcp.servers`);
    const names = server !== undefined ? [server] : Object.keys(servers).filter((name) => servers[name]!.enabled);
    const prompts: McpPromptInfo[] = [];
    const errors: { server: string; error: string }[] = [];
    await Promise.all(
      names.map(async (name) => {
        try {
          const listed = await this.entryFor(name, servers[name]!).connection.prompts();
          for (const prompt of listed)
            prompts.push({
              server: name,
              name: prompt.name,
              ...(prompt.title ? { title: prompt.title } : {}),
              ...(prompt.description ? { description: prompt.description } : {}),
              arguments: (prompt.arguments ?? []).map((argument) => ({
                name: argument.name,
                ...(argument.description ? { description: argument.description } : {}),
                ...(argument.required !== undefined ? { required: argument.required } : {}),
              })),
            });
        } catch (error) {
          errors.push({ server: name, error: messageOf(error) });
        }
      }),
    );
    // Servers answer in any order; the list is stable for the UI.
    prompts.sort((a, b) => a.server.localeCompare(b.server) || a.name.localeCompare(b.name));
    return { prompts, errors };
  }

  /** A server's prompt filled in with `args`; each message's content as text. */
  async getPrompt(server: string, name: string, args: Record<string, string>): Promise<McpPromptGetResult> {
    const config = this.deps.config().servers[server];
    if (!config) throw new HearthError('not_found', `no MCP server "${server}" in mcp.servers`);
    const { connection } = this.entryFor(server, config);
    let listed: Awaited<ReturnType<McpConnection['prompts']>>;
    try {
      listed = await connection.prompts();
    } catch (error) {
      throw new HearthError('unavailable', messageOf(error));
    }
    if (!connection.hasPrompts()) throw new HearthError('bad_request', `MCP server "${server}" offers no prompts`);
    const prompt = listed.find((candidate) => candidate.name === name);
    if (!prompt)
      throw new HearthError(
        'not_found',
        `MCP server "${server}" has no prompt "${name}" (it has: ${listed.map((p) => p.name).join(', ') || 'none'})`,
      );
    const missing = (prompt.arguments ?? []).filter(
      (argument) => argument.required && args[argument.name] === undefined,
    );
    if (missing.length > 0)
      throw new HearthError(
        'bad_request',
        `MCP prompt "${server}/${name}" needs argument${missing.length > 1 ? 's' : ''} ${missing.map((a) => a.name).join(', ')}`,
      );
    try {
      const result = await connection.getPrompt(name, args, AbortSignal.timeout(config.timeoutMs + 1000));
      return {
        server,
        name,
        ...(result.description ? { description: result.description } : {}),
        messages: result.messages.map((message) => ({
          role: message.role,
          text: formatMcpResult({ content: [message.content] }).output,
        })),
      };
    } catch (error) {
      throw new HearthError('bad_request', messageOf(error));
    }
  }

  /** Tools that run without asking because the person answered "allow always". */
  alwaysAllowed(): McpAlwaysAllowedEntry[] {
    return this.deps.alwaysAllowed?.list() ?? [];
  }

  /** Asks again for `tool` (`<server>__<tool>`) from its next call on; false when it was not allowed always. */
  revoke(tool: string): Promise<boolean> {
    return this.deps.alwaysAllowed?.remove(tool) ?? Promise.resolve(false);
  }

  /** Stops servers whose entry was removed or changed (a changed one starts again on next use). */
  reconcile(): void {
    const servers = this.deps.config().servers;
    for (const [name, entry] of this.entries) {
      const config = servers[name];
      if (!config || JSON.stringify(config) !== entry.key) {
        entry.connection.dispose();
        this.entries.delete(name);
      }
    }
  }

  dispose(): void {
    this.disposed = true;
    this.didChange.dispose();
    for (const entry of this.entries.values()) entry.connection.dispose();
    this.entries.clear();
  }

  /** Disposes and waits for every stdio child to end. */
  async close(): Promise<void> {
    this.disposed = true;
    this.didChange.dispose();
    const entries = [...this.entries.values()];
    this.entries.clear();
    await Promise.all(entries.map((entry) => entry.connection.close()));
  }

  private async testConnection(connection: McpConnection, config: McpServerConfig): Promise<McpServersTestResult> {
    try {
      const tools = await connection.test();
      return {
        ok: true,
        server: connection.status(),
        tools: tools.map((tool) => describeMcpTool(connection.name, tool, config.tools[tool.name]?.access)),
      };
    } catch (error) {
      return {
        ok: false,
        server: connection.status(),
        tools: [],
        error: error instanceof Error ? error.message : String(error),
      };
    }
  }

  private entryFor(name: string, config: McpServerConfig): Entry {
    const key = JSON.stringify(config);
    const existing = this.entries.get(name);
    if (existing && existing.key === key) return existing;
    existing?.connection.dispose();
    const entry: Entry = { connection: this.createConnection(name, config), key };
    this.entries.set(name, entry);
    return entry;
  }

  /** The server's OAuth client, when it may use OAuth and the host can keep tokens and take redirects. */
  private oauthFor(config: McpServerConfig): boolean {
    const { secrets } = this.deps;
    return usesOAuth(config) && !!this.deps.oauthRedirectUrl && !!secrets.set && !!secrets.delete;
  }

  private createConnection(name: string, config: McpServerConfig, options: { trial?: boolean } = {}): McpConnection {
    const { secrets, oauthRedirectUrl } = this.deps;
    // A trial of an entry not in hearth.json may share a configured server's name: it neither reads
    // nor rotates that server's tokens (it shows needs_auth; authorizing is for configured servers).
    const trialStore = new Map<string, string>();
    const store = options.trial
      ? {
          get: async (key: string) => trialStore.get(key),
          set: async (key: string, value: string) => void trialStore.set(key, value),
          delete: async (key: string) => trialStore.delete(key),
        }
      : {
          get: (key: string) => secrets.get(key),
          set: (key: string, value: string) => secrets.set!(key, value),
          delete: (key: string) => secrets.delete!(key),
        };
    const oauth =
      this.oauthFor(config) && oauthRedirectUrl && secrets.set && secrets.delete
        ? new McpOAuthProvider({
            server: name,
            serverUrl: config.url!,
            store,
            redirectUrl: oauthRedirectUrl,
            ...(typeof config.oauth === 'object' && config.oauth.scope ? { scope: config.oauth.scope } : {}),
            now: () => this.deps.clock.now(),
            onChange: () => {
              const entry = this.entries.get(name);
              if (entry && !this.disposed && !options.trial) this.didChange.fire(entry.connection.status());
            },
          })
        : undefined;
    return new McpConnection({
      ...(oauth ? { oauth } : {}),
      name,
      config,
      clock: this.deps.clock,
      log: this.deps.log.child({ mcpServer: name }),
      baseEnv: this.deps.baseEnv,
      clientVersion: this.deps.clientVersion ?? '0.1.0',
      ...(this.deps.refuseCommand ? { refuseCommand: this.deps.refuseCommand } : {}),
      resolveValue: (value, where) => this.resolveValue(name, value, where),
      onToolsChanged: () => {
        const entry = this.entries.get(name);
        if (entry) entry.definitions = undefined;
      },
      onResourcesChanged: () => {
        const entry = this.entries.get(name);
        if (entry) entry.definitions = undefined;
      },
      onStatusChanged: () => {
        if (this.disposed) return;
        const entry = this.entries.get(name);
        if (entry) this.didChange.fire(entry.connection.status());
      },
    });
  }

  private definitionsOf(entry: Entry, tools: McpTool[]): Map<string, ToolDefinition> {
    if (entry.definitions?.tools === tools) return entry.definitions.byName;
    const config = entry.connection.config;
    const byName = new Map<string, ToolDefinition>();
    const taken = new Set<string>();
    for (const tool of tools) {
      const definition = createMcpToolDefinition(
        {
          connection: entry.connection,
          approvals: this.deps.approvals,
          ...(this.deps.alwaysAllowed ? { alwaysAllowed: this.deps.alwaysAllowed } : {}),
          now: () => this.deps.clock.now(),
        },
        tool,
        config.tools[tool.name]?.access,
      ) as ToolDefinition;
      // Two names that sanitize alike: the first keeps it, the other is left out (and said so).
      if (taken.has(definition.name)) {
        this.warnOnce(`${entry.connection.name}:${definition.name}`, `MCP tool name clash: ${definition.name}`);
        continue;
      }
      taken.add(definition.name);
      byName.set(tool.name, definition);
    }
    // Resources as two tools while the server offers them; a server tool of the same name wins.
    if (entry.connection.hasResources())
      for (const [key, definition] of createResourceToolDefinitions(entry.connection)) {
        if (taken.has(definition.name) || byName.has(key)) {
          this.warnOnce(`${entry.connection.name}:${definition.name}`, `MCP tool name clash: ${definition.name}`);
          continue;
        }
        taken.add(definition.name);
        byName.set(key, definition);
      }
    entry.definitions = { tools, byName };
    return byName;
  }

  private async resolveValue(server: string, value: McpValue, where: string): Promise<string> {
    if (typeof value === 'string') return value;
    const secret = await this.deps.secrets.get(value.secret);
    if (secret !== undefined) return secret;
    const backend = this.deps.secrets.backend ? ` (${this.deps.secrets.backend})` : '';
    throw new Error(
      `mcp.servers.${server}.${where} names secret "${value.secret}", which the secret store${backend} does not hold`,
    );
  }

  private warnOnce(key: string, message: string): void {
    if (this.warned.has(key)) return;
    this.warned.add(key);
    this.deps.log.warn(message);
  }
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
