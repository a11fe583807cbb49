import { type Disposable, DisposableStore } from '../../base/disposable.js';
import type {
  McpAlwaysAllowedInfo,
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
}

/**
 * `mcp.servers.list` (operator.read): health and last error per server; `mcp.servers.test` (admin);
 * `mcp.approvals.list` / `.revoke`: the tools answered "allow always".
 */
export function registerMcpMethods(router: MethodRouter, deps: McpMethodsDeps): Disposable {
  const store = new DisposableStore();
  store.add(router.handle('mcp.servers.list', async () => ({ servers: deps.list() })));
  store.add(router.handle('mcp.servers.test', (params) => deps.test(params.name, params.server)));
  store.add(router.handle('mcp.servers.import', (params) => deps.importServers(params.json, params.apply ?? false)));
  store.add(router.handle('mcp.approvals.list', async () => ({ always: deps.alwaysAllowed() })));
  store.add(router.handle('mcp.approvals.revoke', async (params) => ({ removed: await deps.revoke(params.tool) })));
  return store;
}
