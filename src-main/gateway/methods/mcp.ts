import { type Disposable, DisposableStore } from '../../base/disposable.js';
import type {
  McpAlwaysAllowedInfo,
  McpAuthStartResult,
  McpPromptGetResult,
  McpPromptInfo,
  McpServerStatus,
  McpServersImportResult,
  McpServersTestResult,
} from '../../protocol/methods/mcp.js';
import type { MethodRouter } from '../method-router.js';

/** What the MCP methods need of the MCP client (src-main/mcp McpHub). */
export interface McpMethodsDeps {
  list(): McpServerStatus[];
  /** Throws HearthError `bad_request` / `not_found`; a server that cannot connect is `ok: false`. */
  test(name: string, raw?: unknown): Promise<McpServersTestResult>;
  alwaysAllowed(): McpAlwaysAllowedInfo[];
  revoke(tool: string): Promise<boolean>;
  /** Throws HearthError `bad_request` when hearth.json refuses the result. */
  importServers(json: string, apply: boolean): Promise<McpServersImportResult>;
  /** Throws HearthError `not_found` / `bad_request` (not a remote server); other failures `unavailable`. */
  startAuth(server: string): Promise<McpAuthStartResult>;
  clearAuth(server: string): Promise<McpServerStatus>;
  listPrompts(server?: string): Promise<{ prompts: McpPromptInfo[]; errors: { server: string; error: string }[] }>;
  getPrompt(server: string, name: string, args: Record<string, string>): Promise<McpPromptGetResult>;
}

/**
 * `mcp.servers.list` (operator.read): health and last error per server; `mcp.servers.test` (admin);
 * `mcp.approvals.list` / `.revoke`: the tools answered "allow always"; `mcp.auth.*`: OAuth for remote
 * servers; `mcp.prompts.*`: the servers' prompt templates.
 */
export function registerMcpMethods(router: MethodRouter, deps: McpMethodsDeps): Disposable {
  const store = new DisposableStore();
  store.add(router.handle('mcp.servers.list', async () => ({ servers: deps.list() })));
  store.add(router.handle('mcp.servers.test', (params) => deps.test(params.name, params.server)));
  store.add(router.handle('mcp.servers.import', (params) => deps.importServers(params.json, params.apply ?? false)));
  store.add(router.handle('mcp.approvals.list', async () => ({ always: deps.alwaysAllowed() })));
  store.add(router.handle('mcp.approvals.revoke', async (params) => ({ removed: await deps.revoke(params.tool) })));
  store.add(router.handle('mcp.auth.start', (params) => deps.startAuth(params.server)));
  store.add(router.handle('mcp.auth.clear', async (params) => ({ server: await deps.clearAuth(params.server) })));
  store.add(router.handle('mcp.prompts.list', (params) => deps.listPrompts(params.server)));
  store.add(
    router.handle('mcp.prompts.get', (params) => deps.getPrompt(params.server, params.name, params.arguments ?? {})),
  );
  return store;
}
