import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { GetPromptResult, Prompt, Resource, ResourceTemplate, Tool } from '@modelcontextprotocol/sdk/types.js';
import type { Clock } from '../base/clock.js';
import type { Disposable } from '../base/disposable.js';
import type { Logger } from '../base/logger.js';
import type { McpServerStatus } from '../protocol/methods/mcp.js';
import { type McpServerConfig, type McpValue, transportOf } from './mcp-config.js';
import { McpNeedsAuthorizationError, type McpOAuthProvider } from './mcp-oauth.js';
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
      auth: typeof import('@modelcontextprotocol/sdk/client/auth.js').auth;
      UnauthorizedError: typeof import('@modelcontextprotocol/sdk/client/auth.js').UnauthorizedError;
    }>
  | undefined;
function loadSdk() {
  sdk ??= Promise.all([
    import('@modelcontextprotocol/sdk/client/index.js'),
    import('@modelcontextprotocol/sdk/client/sse.js'),
    import('@modelcontextprotocol/sdk/client/stdio.js'),
    import('@modelcontextprotocol/sdk/client/streamableHttp.js'),
    import('@modelcontextprotocol/sdk/types.js'),
    import('@modelcontextprotocol/sdk/client/auth.js'),
  ]).then(([client, sse, stdio, http, types, auth]) => ({
    Client: client.Client,
    SSEClientTransport: sse.SSEClientTransport,
    StdioClientTransport: stdio.StdioClientTransport,
    StreamableHTTPClientTransport: http.StreamableHTTPClientTransport,
    ErrorCode: types.ErrorCode,
    McpError: types.McpError,
    auth: auth.auth,
    UnauthorizedError: auth.UnauthorizedError,
  }));
  return sdk;
}

export type McpTool = Tool;
export type McpResource = Resource;
export type McpResourceTemplate = ResourceTemplate;
export type McpPrompt = Prompt;

/** What a server's `resources/read` answers (the SDK's ReadResourceResult, loosely). */
export interface McpResourceContents {
  contents: { uri: string; mimeType?: string; text?: string; blob?: string }[];
}

/** `mcp.auth.start`'s answer: authorized already, or the URL the person opens. */
export type McpAuthStart = { authorized: true } | { authorized: false; authorizationUrl: string };

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
  /** OAuth for a remote server (mcp-oauth.ts); absent for stdio servers and fixed Authorization headers. */
  oauth?: McpOAuthProvider;
  /**
   * Why a stdio server's command line must not start (the exec hard floor's reasons), or none.
   * A server command is a program Hearth starts like any other: `rm -rf ~` under `mcp.servers`
   * is refused as it is from the exec tool or a terminal.
   */
  refuseCommand?(commandLine: string): string[] | Promise<string[]>;
  /** The tool list changed (`notifications/tools/list_changed`, or a restart listed different tools). */
  onToolsChanged(): void;
  /** Whether the server offers resources changed (its tools `resources_list` / `resource_read` come or go). */
  onResourcesChanged?(): void;
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
  private resourceList: { resources: McpResource[]; templates: McpResourceTemplate[] } | undefined;
  private promptList: McpPrompt[] | undefined;
  private lastError: { message: string; at: number } | undefined;
  private restarts = 0;
  private failures = 0;
  private connectedAt: number | undefined;
  private restartTimer: Disposable | undefined;
  private stderrTail = '';
  private disposed = false;
  private failedAt: number | undefined;

  constructor(private readonly deps: McpConnectionDeps) {
    // The stored tokens are read now, so the status says "authorized" before the first connect.
    deps.oauth?.prime().then(
      () => deps.onStatusChanged?.(),
      () => {},
    );
  }

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
      ...(this.resourceList ? { resourceCount: this.resourceList.resources.length } : {}),
      ...(this.promptList ? { promptCount: this.promptList.length } : {}),
      ...(this.deps.oauth ? { oauth: this.deps.oauth.status() } : {}),
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
    // A server waiting for the person to authorize is not asked again by every turn.
    if (this.state === 'ready' || this.state === 'restarting' || this.state === 'needs_auth') return this.toolList;
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
    const client = await this.readyClient();
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
      throw await this.explain(error, name, signal);
    }
  }

  /** Whether the server offers resources (its `resources` capability), as of its last start. */
  hasResources(): boolean {
    return this.resourceList !== undefined;
  }

  /** The resources and resource templates as last listed (refreshed on `notifications/resources/list_changed`). */
  async resources(signal: AbortSignal): Promise<{ resources: McpResource[]; templates: McpResourceTemplate[] }> {
    await this.readyClient();
    if (signal.aborted) throw new Error(`MCP server "${this.deps.name}": cancelled (the turn was aborted)`);
    return this.resourceList ?? { resources: [], templates: [] };
  }

  async readResource(uri: string, signal: AbortSignal): Promise<McpResourceContents> {
    const client = await this.readyClient();
    try {
      return (await client.readResource(
        { uri },
        { signal, timeout: this.deps.config.timeoutMs },
      )) as McpResourceContents;
    } catch (error) {
      throw await this.explain(error, `resources/read ${uri}`, signal);
    }
  }

  /** The server's prompts (starting it if needed); [] when it offers none. */
  async prompts(): Promise<McpPrompt[]> {
    await this.readyClient();
    return this.promptList ?? [];
  }

  /** Whether the server offers prompts, as of its last start. */
  hasPrompts(): boolean {
    return this.promptList !== undefined;
  }

  async getPrompt(name: string, args: Record<string, string>, signal: AbortSignal): Promise<GetPromptResult> {
    const client = await this.readyClient();
    try {
      return await client.getPrompt({ name, arguments: args }, { signal, timeout: this.deps.config.timeoutMs });
    } catch (error) {
      throw await this.explain(error, `prompts/get ${name}`, signal);
    }
  }

  /**
   * `mcp.auth.start`: connects if the stored tokens (or a refresh) suffice; else registers with
   * the server's authorization server if needed and answers the URL the person opens. The
   * redirect comes back to the gateway's callback (`finishAuthorization`).
   */
  async startAuthorization(): Promise<McpAuthStart> {
    const oauth = this.deps.oauth;
    if (!oauth)
      throw new Error(
        `MCP server "${this.deps.name}" does not use OAuth (a stdio server, or its headers set Authorization)`,
      );
    if (this.state === 'needs_auth') this.setState('idle');
    try {
      await this.ensureConnected();
      return { authorized: true };
    } catch (error) {
      if (this.state !== 'needs_auth') throw error;
    }
    // The failed connect saved what discovery found (the 401's resource_metadata, the server's metadata).
    const { auth } = await loadSdk();
    const result = await oauth.interactive(() =>
      auth(oauth, { serverUrl: this.deps.config.url!, fetchFn: oauth.fetch }),
    );
    if (result === 'AUTHORIZED') {
      this.setState('idle');
      await this.ensureConnected();
      return { authorized: true };
    }
    const url = oauth.authorizationUrl();
    if (!url) throw new Error(`MCP server "${this.deps.name}": the authorization server gave no authorization URL`);
    return { authorized: false, authorizationUrl: url.toString() };
  }

  /** Whether `state` (from the redirect) is this server's open authorization. */
  ownsAuthorization(state: string): boolean {
    return this.deps.oauth?.owns(state) ?? false;
  }

  /** The redirect came back with `code`: tokens are fetched (PKCE) and stored, then the server connects. */
  async finishAuthorization(code: string): Promise<void> {
    const oauth = this.deps.oauth;
    if (!oauth) throw new Error(`MCP server "${this.deps.name}" does not use OAuth`);
    const { auth } = await loadSdk();
    try {
      await auth(oauth, { serverUrl: this.deps.config.url!, authorizationCode: code, fetchFn: oauth.fetch });
    } finally {
      oauth.endPending();
    }
    this.deps.log.info('mcp server authorized', { server: this.deps.name });
    // A turn's connect that began before the tokens were there ends (as needs_auth) first.
    await this.connecting?.catch(() => {});
    if (this.state === 'needs_auth' || this.state === 'failed') this.setState('idle');
    await this.ensureConnected();
  }

  /** The redirect came back with an error (the person declined): recorded as the last error. */
  failAuthorization(message: string): void {
    this.deps.oauth?.endPending();
    this.recordError(message);
    this.deps.onStatusChanged?.();
  }

  /** `mcp.auth.clear`: forgets the registration and tokens; the server needs authorizing again. */
  async clearAuthorization(): Promise<void> {
    const oauth = this.deps.oauth;
    if (!oauth) throw new Error(`MCP server "${this.deps.name}" does not use OAuth`);
    await oauth.clear();
    await this.drop('authorization cleared');
  }

  /** The connected client, connecting first; throws a message for the model when it cannot. */
  private async readyClient(): Promise<Client> {
    const label = `MCP server "${this.deps.name}"`;
    if (this.state === 'restarting')
      throw new Error(
        `${label} is restarting after it stopped (${this.lastError?.message ?? 'no error'}); try again shortly`,
      );
    if (this.state === 'needs_auth' && this.deps.oauth) throw new McpNeedsAuthorizationError(this.deps.name);
    await this.ensureConnected().catch((error: unknown) => {
      if (error instanceof McpNeedsAuthorizationError) throw error;
      throw new Error(`${label} is not available: ${messageOf(error)}`);
    });
    const client = this.client;
    if (!client) throw new Error(`${label} is not connected`);
    return client;
  }

  /** What a failed request means, as a message the model (or the person) can act on. */
  private async explain(error: unknown, name: string, signal: AbortSignal): Promise<Error> {
    const label = `MCP server "${this.deps.name}"`;
    const { timeoutMs } = this.deps.config;
    if (signal.aborted) return new Error(`${label}: the call to ${name} was cancelled (the turn was aborted)`);
    const { ErrorCode, McpError, UnauthorizedError } = await loadSdk();
    if (error instanceof McpNeedsAuthorizationError || error instanceof UnauthorizedError) {
      // The refresh was refused (or no tokens are left): the person has to authorize again.
      await this.drop(`${name}: ${messageOf(error)}`);
      this.setState('needs_auth');
      return new McpNeedsAuthorizationError(this.deps.name);
    }
    if (error instanceof McpError && error.code === ErrorCode.RequestTimeout)
      return new Error(`${label}: ${name} did not answer within ${timeoutMs} ms; the call was cancelled`);
    if (error instanceof McpError && error.code === ErrorCode.ConnectionClosed) {
      // onClosed (the transport's close) ran before the rejection reached here.
      const restarting = this.status().state === 'restarting' ? '; it is being restarted' : '';
      return new Error(`${label} stopped during the call to ${name}${this.tail()}${restarting}`);
    }
    if (error instanceof McpError) return new Error(`${label}: ${name} failed: ${error.message}`);
    // Transport-level failure (HTTP down): reconnect on the next use.
    if (transportOf(this.deps.config) !== 'stdio') await this.drop(`${name}: ${messageOf(error)}`);
    return new Error(`${label}: ${name} failed: ${messageOf(error)}`);
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
          // Listed here (all pages, templates too) rather than by the SDK's one-page refresh.
          resources: {
            autoRefresh: false,
            debounceMs: 0,
            onChanged: () => {
              if (this.client === client) void this.refreshResources(client);
            },
          },
          prompts: {
            autoRefresh: false,
            debounceMs: 0,
            onChanged: () => {
              if (this.client === client) void this.refreshPrompts(client);
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
        const capabilities = client.getServerCapabilities() ?? {};
        const [tools, resources, prompts] = await Promise.all([
          listAllTools(client, config.connectTimeoutMs * 2),
          capabilities.resources ? listAllResources(client, config.connectTimeoutMs * 2) : undefined,
          capabilities.prompts ? listAllPrompts(client, config.connectTimeoutMs * 2) : undefined,
        ]);
        return { tools, resources, prompts };
      })();
      const timedOut = new Promise<never>((_, reject) => {
        timer = this.deps.clock.setTimeout(
          () => reject(new Error(`did not start and list its tools within ${config.connectTimeoutMs} ms`)),
          config.connectTimeoutMs,
        );
      });
      connected.catch(() => {});
      const { tools, resources, prompts } = await Promise.race([connected, timedOut]);
      if (this.disposed) {
        await client.close().catch(() => {});
        throw new Error('the MCP client is shutting down');
      }
      this.client = client;
      this.connectedAt = this.deps.clock.now();
      this.failures = 0;
      this.setTools(tools);
      this.setResources(resources);
      this.promptList = prompts;
      this.setState('ready');
      this.deps.log.info('mcp server connected', { server: this.deps.name, tools: tools.length });
    } catch (error) {
      client.onclose = undefined;
      await client.close().catch(() => {});
      const { UnauthorizedError } = await loadSdk();
      if (this.deps.oauth && (error instanceof McpNeedsAuthorizationError || error instanceof UnauthorizedError)) {
        // Not a failure of the server: it waits for the person (mcp.auth.start), not for a retry.
        const needs = new McpNeedsAuthorizationError(this.deps.name);
        if (!this.disposed) {
          this.recordError(needs.message);
          this.setState('needs_auth');
        }
        throw needs;
      }
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
      const refused = (await this.deps.refuseCommand?.(line)) ?? [];
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
    // With a provider the SDK sends the stored bearer, refreshes it on a 401 and, when that is not
    // enough, asks the provider to send the person to authorize (which a turn refuses: mcp-oauth.ts).
    const auth = this.deps.oauth ? { authProvider: this.deps.oauth, fetch: this.deps.oauth.fetch } : {};
    if (transport === 'sse') return new SSEClientTransport(url, { requestInit: { headers }, ...auth });
    return new StreamableHTTPClientTransport(url, { requestInit: { headers }, ...auth });
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

  private setResources(list: { resources: McpResource[]; templates: McpResourceTemplate[] } | undefined): void {
    const had = this.resourceList !== undefined;
    const before = JSON.stringify(this.resourceList ?? null);
    this.resourceList = list;
    if (had !== (list !== undefined)) this.deps.onResourcesChanged?.();
    if (JSON.stringify(list ?? null) !== before) this.deps.onStatusChanged?.();
  }

  private async refreshResources(client: Client): Promise<void> {
    try {
      const list = await listAllResources(client, this.deps.config.timeoutMs);
      if (this.client === client) this.setResources(list);
    } catch (error) {
      this.recordError(`resources/list after list_changed: ${messageOf(error)}`);
    }
  }

  private async refreshPrompts(client: Client): Promise<void> {
    try {
      const prompts = await listAllPrompts(client, this.deps.config.timeoutMs);
      if (this.client !== client) return;
      this.promptList = prompts;
      this.deps.onStatusChanged?.();
    } catch (error) {
      this.recordError(`prompts/list after list_changed: ${messageOf(error)}`);
    }
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

async function listAllResources(
  client: Client,
  timeoutMs: number,
): Promise<{ resources: McpResource[]; templates: McpResourceTemplate[] }> {
  const resources: McpResource[] = [];
  const templates: McpResourceTemplate[] = [];
  let cursor: string | undefined;
  for (let page = 0; page < 50; page++) {
    const result = await client.listResources(cursor ? { cursor } : {}, { timeout: timeoutMs });
    resources.push(...result.resources);
    cursor = result.nextCursor;
    if (!cursor) break;
  }
  // Templates are optional in the spec: a server that does not list them has none.
  cursor = undefined;
  for (let page = 0; page < 50; page++) {
    const result: { resourceTemplates: McpResourceTemplate[]; nextCursor?: string | undefined } = await client
      .listResourceTemplates(cursor ? { cursor } : {}, { timeout: timeoutMs })
      .catch(() => ({ resourceTemplates: [] }));
    templates.push(...result.resourceTemplates);
    cursor = result.nextCursor;
    if (!cursor) break;
  }
  return { resources, templates };
}

async function listAllPrompts(client: Client, timeoutMs: number): Promise<McpPrompt[]> {
  const prompts: McpPrompt[] = [];
  let cursor: string | undefined;
  for (let page = 0; page < 50; page++) {
    const result = await client.listPrompts(cursor ? { cursor } : {}, { timeout: timeoutMs });
    prompts.push(...result.prompts);
    cursor = result.nextCursor;
    if (!cursor) break;
  }
  return prompts;
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** One argument as a shell would read it back (for the floor's check and the error message). */
function shellWord(word: string): string {
  return /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replaceAll("'", "'\\''")}'`;
}
