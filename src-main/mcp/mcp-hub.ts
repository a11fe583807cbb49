import type { Clock } from '../base/clock.js';
import type { Disposable } from '../base/disposable.js';
import { Emitter } from '../base/emitter.js';
import { HearthError } from '../base/errors.js';
import type { Logger } from '../base/logger.js';
import type { ApprovalGate } from '../exec/index.js';
import type { McpServerStatus, McpServersTestResult } from '../protocol/methods/mcp.js';
import type { ToolDefinition } from '../tools/tool.js';
import type { McpAlwaysAllowed, McpAlwaysAllowedEntry } from './mcp-always-allowed.js';
import {
  type AgentMcpConfig,
  type McpConfig,
  type McpServerConfig,
  type McpValue,
  mcpServerConfigSchema,
} from './mcp-config.js';
import { McpConnection, type McpTool } from './mcp-connection.js';
import { createMcpToolDefinition, describeMcpTool } from './mcp-tool.js';

/** Where `{ "secret": "<name>" }` values come from (the secret store, by shape). */
export interface McpSecretSource {
  readonly backend?: string;
  get(name: string): Promise<string | undefined>;
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
  refuseCommand?(commandLine: string): string[];
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
      const connection = this.createConnection(name, parsed.data);
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

  private createConnection(name: string, config: McpServerConfig): McpConnection {
    return new McpConnection({
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
