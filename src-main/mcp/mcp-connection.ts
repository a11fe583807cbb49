import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import type { Clock } from '../base/clock.js';
import type { Disposable } from '../base/disposable.js';
import type { Logger } from '../base/logger.js';
import type { McpServerStatus } from '../protocol/methods/mcp.js';
import { type McpServerConfig, type McpValue, transportOf } from './mcp-config.js';
import type { McpCallResult } from './mcp-result.js';

/**
 * The SDK is loaded when the first server connects, not at start: an idle gateway with MCP
 * servers configured but not yet used (or none) pays neither its start time nor its memory.
 */
let sdk:
  | Promise<{
      Client: typeof import('@modelcontextprotocol/sdk/client/index.js').Client;
      SSEClientTransport: typeof import('@modelcontextprotocol/sdk/client/sse.js').SSEClientTransport;
      StdioClientTransport: typeof import('@modelcontextprotocol/sdk/client/stdio.js').StdioClientTransport;
      StreamableHTTPClientTransport: typeof import('@modelcontextprotocol/sdk/client/streamableHttp.js').StreamableHTTPClientTransport;
      ErrorCode: typeof import('@modelcontextprotocol/sdk/types.js').ErrorCode;
      McpError: typeof import('@modelcontextprotocol/sdk/types.js').McpError;
    }>
  | undefined;
function loadSdk() {
  sdk ??= Promise.all([
    import('@modelcontextprotocol/sdk/client/index.js'),
    import('@modelcontextprotocol/sdk/client/sse.js'),
    import('@modelcontextprotocol/sdk/client/stdio.js'),
    import('@modelcontextprotocol/sdk/client/streamableHttp.js'),
    import('@modelcontextprotocol/sdk/types.js'),
  ]).then(([client, sse, stdio, http, types]) => ({
    Client: client.Client,
    SSEClientTransport: sse.SSEClientTransport,
    StdioClientTransport: stdio.StdioClientTransport,
    StreamableHTTPClientTransport: http.StreamableHTTPClientTransport,
    ErrorCode: types.ErrorCode,
    McpError: types.McpError,
  }));
  return sdk;
}

export type McpTool = Tool;

export interface McpConnectionDeps {
  name: string;
  config: McpServerConfig;
  clock: Clock;
  log: Logger;
  /** A config value: the string itself, or the secret it names (throws naming a missing secret). */
  resolveValue(value: McpValue, where: string): Promise<string>;
  /** Hearth's environment; a stdio server inherits only PATH, HOME and the like of it (inheritedEnv). */
  baseEnv: Record<string, string | undefined>;
  clientVersion: string;
  /**
   * Why a stdio server's command line must not start (the exec hard floor's reasons), or none.
   * A server command is a program Hearth starts like any other: `rm -rf ~` under `mcp.servers`
   * is refused as it is from the exec tool or a terminal.
   */
  refuseCommand?(commandLine: string): string[];
  /** The tool list changed (`notifications/tools/list_changed`, or a restart listed different tools). */
  onToolsChanged(): void;
  /** State, tools or last error changed (what `status()` says). */
  onStatusChanged?(): void;
}

/**
 * What a stdio server inherits of Hearth's environment: enough to run (the SDK's own list, plus
 * locale and temp), never the rest, which may hold API keys. Its `env` adds what it needs.
 */
const inheritedEnv = [
  'HOME',
  'LOGNAME',
  'PATH',
  'SHELL',
  'TERM',
  'USER',
  'LANG',
  'LC_ALL',
  'TMPDIR',
  'XDG_RUNTIME_DIR',
  'APPDATA',
  'HOMEDRIVE',
  'HOMEPATH',
  'LOCALAPPDATA',
  'PATHEXT',
  'PROGRAMFILES',
  'SYSTEMDRIVE',
  'SYSTEMROOT',
  'TEMP',
  'USERNAME',
  'USERPROFILE',
];

/** Waits between restarts of a stdio server that died; after the last, it stays down until next used. */
const restartDelaysMs = [1000, 2000, 4000, 8000, 16_000, 30_000];
/** A server that stayed up this long earns a fresh series of restarts. */
const stableAfterMs = 60_000;
const stderrKeep = 2000;
/** After a failed start, turns go on without waiting for the server for this long. */
const retryAfterFailureMs = 30_000;

/**
 * One MCP server: started on first use, its tool list kept (and refreshed on
 * `notifications/tools/list_changed`), a stdio server that dies restarted with backoff.
 * Calls have their own timeout and follow the turn's abort, so a hanging server never
 * holds a turn. Methods never throw for a broken server except `callTool`, whose error
 * message says what happened for the model to read.
 */
export class McpConnection implements Disposable {
  private client: Client | undefined;
  private connecting: Promise<void> | undefined;
  private state: McpServerStatus['state'] = 'idle';
  private toolList: McpTool[] | undefined;
  private lastError: { message: string; at: number } | undefined;
  private restarts = 0;
  private failures = 0;
  private connectedAt: number | undefined;
  private restartTimer: Disposable | undefined;
  private stderrTail = '';
  private disposed = false;
  private failedAt: number | undefined;

  constructor(private readonly deps: McpConnectionDeps) {}

  get name(): string {
    return this.deps.name;
  }

  get config(): McpServerConfig {
    return this.deps.config;
  }

  status(): McpServerStatus {
    return {
      name: this.deps.name,
      transport: transportOf(this.deps.config),
      enabled: this.deps.config.enabled,
      state: this.state,
      toolCount: this.toolList?.length ?? 0,
      restarts: this.restarts,
      ...(this.lastError ? { lastError: this.lastError.message, lastErrorAt: this.lastError.at } : {}),
      ...(this.connectedAt !== undefined && this.state === 'ready' ? { connectedAt: this.connectedAt } : {}),
    };
  }

  /**
   * The server's tools, starting it if it is not running. While it restarts after a crash, the
   * last list is kept (a turn's tools, and so its prompt, do not flicker); undefined when the
   * server was never listed (it could not start).
   */
  async tools(): Promise<McpTool[] | undefined> {
    if (this.state === 'ready' || this.state === 'restarting') return this.toolList;
    // A server that just failed to start is not waited for again on every turn (one that hangs
    // would cost each turn its connect timeout); `test()` and calls still try at once.
    if (
      this.state === 'failed' &&
      this.failedAt !== undefined &&
      this.deps.clock.now() - this.failedAt < retryAfterFailureMs
    )
      return this.toolList;
    try {
      await this.ensureConnected();
    } catch {
      // Recorded as lastError by connect.
    }
    return this.toolList;
  }

  /** Starts (or reuses) the connection and lists the tools; throws what went wrong. */
  async test(): Promise<McpTool[]> {
    await this.ensureConnected();
    return this.toolList ?? [];
  }

  async callTool(
    name: string,
    args: Record<string, unknown>,
    signal: AbortSignal,
    onProgress?: (text: string) => void,
  ): Promise<McpCallResult> {
    const label = `MCP server "${this.deps.name}"`;
    if (this.state === 'restarting')
      throw new Error(
        `${label} is restarting after it stopped (${this.lastError?.message ?? 'no error'}); try again shortly`,
      );
    await this.ensureConnected().catch((error: unknown) => {
      throw new Error(`${label} is not available: ${messageOf(error)}`);
    });
    const client = this.client;
    if (!client) throw new Error(`${label} is not connected`);
    const { timeoutMs } = this.deps.config;
    try {
      return (await client.callTool({ name, arguments: args }, undefined, {
        signal,
        timeout: timeoutMs,
        // Progress (`notifications/progress`) is shown to the person; it does not extend the timeout.
        ...(onProgress
          ? {
              onprogress: (progress: { progress: number; total?: number; message?: string }) =>
                onProgress(
                  progress.message ?? `${progress.progress}${progress.total === undefined ? '' : `/${progress.total}`}`,
                ),
            }
          : {}),
      })) as McpCallResult;
    } catch (error) {
      if (signal.aborted) throw new Error(`${label}: the call to ${name} was cancelled (the turn was aborted)`);
      const { ErrorCode, McpError } = await loadSdk();
      if (error instanceof McpError && error.code === ErrorCode.RequestTimeout)
        throw new Error(`${label}: ${name} did not answer within ${timeoutMs} ms; the call was cancelled`);
      if (error instanceof McpError && error.code === ErrorCode.ConnectionClosed) {
        // onClosed (the transport's close) ran before the rejection reached here.
        const restarting = this.status().state === 'restarting' ? '; it is being restarted' : '';
        throw new Error(`${label} stopped during the call to ${name}${this.tail()}${restarting}`);
      }
      if (error instanceof McpError) throw new Error(`${label}: ${name} failed: ${error.message}`);
      // Transport-level failure (HTTP down): reconnect on the next use.
      if (transportOf(this.deps.config) !== 'stdio') await this.drop(`${name}: ${messageOf(error)}`);
      throw new Error(`${label}: ${name} failed: ${messageOf(error)}`);
    }
  }

  dispose(): void {
    this.disposed = true;
    this.restartTimer?.dispose();
    this.setState('stopped');
    const client = this.client;
    this.client = undefined;
    void client?.close().catch(() => {});
  }

  /** Disposes and waits until the child process (if any) has gone. */
  async close(): Promise<void> {
    const client = this.client;
    this.dispose();
    await client?.close().catch(() => {});
  }

  private ensureConnected(): Promise<void> {
    if (this.disposed) return Promise.reject(new Error('the MCP client is shutting down'));
    if (this.state === 'ready' && this.client) return Promise.resolve();
    this.connecting ??= this.connect().finally(() => {
      this.connecting = undefined;
    });
    return this.connecting;
  }

  private async connect(): Promise<void> {
    this.restartTimer?.dispose();
    this.setState('starting');
    this.stderrTail = '';
    const { config } = this.deps;
    const { Client } = await loadSdk();
    const client = new Client(
      { name: 'hearth', version: this.deps.clientVersion },
      {
        capabilities: {},
        listChanged: {
          tools: {
            debounceMs: 0,
            onChanged: (error, tools) => {
              if (this.client !== client) return;
              if (error) return this.recordError(`tools/list after list_changed: ${error.message}`);
              if (tools) this.setTools(tools);
            },
          },
        },
      },
    );
    let timer: Disposable | undefined;
    try {
      const transport = await this.createTransport();
      client.onclose = () => this.onClosed(client);
      client.onerror = (error) => this.deps.log.debug('mcp transport error', { error: error.message });
      const connected = (async () => {
        // The SDK's own timeouts are a backstop: the race below is the one that reports.
        await client.connect(transport, { timeout: config.connectTimeoutMs * 2 });
        return listAllTools(client, config.connectTimeoutMs * 2);
      })();
      const timedOut = new Promise<never>((_, reject) => {
        timer = this.deps.clock.setTimeout(
          () => reject(new Error(`did not start and list its tools within ${config.connectTimeoutMs} ms`)),
          config.connectTimeoutMs,
        );
      });
      connected.catch(() => {});
      const tools = await Promise.race([connected, timedOut]);
      if (this.disposed) {
        await client.close().catch(() => {});
        throw new Error('the MCP client is shutting down');
      }
      this.client = client;
      this.connectedAt = this.deps.clock.now();
      this.failures = 0;
      this.setTools(tools);
      this.setState('ready');
      this.deps.log.info('mcp server connected', { server: this.deps.name, tools: tools.length });
    } catch (error) {
      client.onclose = undefined;
      await client.close().catch(() => {});
      if (!this.disposed) {
        this.failedAt = this.deps.clock.now();
        this.setState('failed');
        this.recordError(`${messageOf(error)}${this.tail()}`);
      }
      throw new Error(`${messageOf(error)}${this.tail()}`);
    } finally {
      timer?.dispose();
    }
  }

  private async createTransport(): Promise<Transport> {
    const { config } = this.deps;
    const { SSEClientTransport, StdioClientTransport, StreamableHTTPClientTransport } = await loadSdk();
    const transport = transportOf(config);
    if (transport === 'stdio') {
      const line = [config.command!, ...config.args].map(shellWord).join(' ');
      const refused = this.deps.refuseCommand?.(line) ?? [];
      if (refused.length > 0) throw new Error(`refused to start \`${line}\`: ${refused.join('; ')}`);
      const env: Record<string, string> = {};
      for (const key of inheritedEnv) {
        const value = this.deps.baseEnv[key];
        if (value !== undefined) env[key] = value;
      }
      for (const [key, value] of Object.entries(config.env))
        env[key] = await this.deps.resolveValue(value, `env.${key}`);
      const stdio = new StdioClientTransport({
        command: config.command!,
        args: config.args,
        env,
        stderr: 'pipe',
        ...(config.cwd ? { cwd: config.cwd } : {}),
      });
      stdio.stderr?.on('data', (chunk: Buffer) => {
        this.stderrTail = (this.stderrTail + chunk.toString()).slice(-stderrKeep);
      });
      return stdio;
    }
    const headers: Record<string, string> = {};
    for (const [key, value] of Object.entries(config.headers))
      headers[key] = await this.deps.resolveValue(value, `headers.${key}`);
    const url = new URL(config.url!);
    if (transport === 'sse') return new SSEClientTransport(url, { requestInit: { headers } });
    return new StreamableHTTPClientTransport(url, { requestInit: { headers } });
  }

  private onClosed(client: Client): void {
    if (this.client !== client || this.disposed) return;
    this.client = undefined;
    const uptime = this.connectedAt === undefined ? 0 : this.deps.clock.now() - this.connectedAt;
    if (uptime >= stableAfterMs) this.failures = 0;
    this.recordError(`the server stopped${this.tail()}`);
    if (transportOf(this.deps.config) !== 'stdio') {
      this.setState('idle');
      return;
    }
    this.scheduleRestart();
  }

  private scheduleRestart(): void {
    const delay = restartDelaysMs[this.failures];
    if (delay === undefined) {
      this.setState('failed');
      this.deps.log.warn('mcp server keeps stopping; not restarted until next used', { server: this.deps.name });
      this.failures = 0;
      return;
    }
    this.setState('restarting');
    this.failures += 1;
    this.deps.log.warn('mcp server stopped; restarting', { server: this.deps.name, inMs: delay });
    this.restartTimer = this.deps.clock.setTimeout(() => {
      this.restarts += 1;
      this.ensureConnected().catch(() => {
        if (!this.disposed) this.scheduleRestart();
      });
    }, delay);
  }

  private async drop(reason: string): Promise<void> {
    const client = this.client;
    this.client = undefined;
    this.setState('idle');
    this.recordError(reason);
    if (client) {
      client.onclose = undefined;
      await client.close().catch(() => {});
    }
  }

  private setState(state: McpServerStatus['state']): void {
    this.state = state;
    this.deps.onStatusChanged?.();
  }

  private setTools(tools: McpTool[]): void {
    const before = JSON.stringify(this.toolList ?? null);
    this.toolList = tools;
    if (JSON.stringify(tools) === before) return;
    this.deps.onToolsChanged();
    this.deps.onStatusChanged?.();
  }

  private recordError(message: string): void {
    this.lastError = { message, at: this.deps.clock.now() };
    this.deps.log.warn('mcp server error', { server: this.deps.name, error: message });
  }

  private tail(): string {
    const text = this.stderrTail.trim();
    if (!text) return '';
    const lines = text.split('\n').slice(-3).join(' | ');
    return ` (stderr: ${lines.slice(-300)})`;
  }
}

async function listAllTools(client: Client, timeoutMs: number): Promise<McpTool[]> {
  const tools: McpTool[] = [];
  let cursor: string | undefined;
  for (let page = 0; page < 50; page++) {
    const result = await client.listTools(cursor ? { cursor } : {}, { timeout: timeoutMs });
    tools.push(...result.tools);
    cursor = result.nextCursor;
    if (!cursor) break;
  }
  return tools;
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** One argument as a shell would read it back (for the floor's check and the error message). */
function shellWord(word: string): string {
  return /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replaceAll("'", "'\\''")}'`;
}
