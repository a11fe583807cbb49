import { type Disposable, DisposableStore } from '../../base/disposable.js';
import type { McpServerStatus, McpServersTestResult } from '../../protocol/methods/mcp.js';
import type { MethodRouter } from '../method-router.js';

/** What the MCP methods need of the MCP client (src-main/mcp McpHub). */
export interface McpMethodsDeps {
  list(): McpServerStatus[];
  /** Throws HearthError `bad_request` / `not_found`; a server that cannot connect is `ok: false`. */
  test(name: string, raw?: unknown): Promise<McpServersTestResult>;
}

/** `mcp.servers.list` (operator.read): health and last error per server; `mcp.servers.test` (admin). */
export function registerMcpMethods(router: MethodRouter, deps: McpMethodsDeps): Disposable {
  const store = new DisposableStore();
  store.add(router.handle('mcp.servers.list', async () => ({ servers: deps.list() })));
  store.add(router.handle('mcp.servers.test', (params) => deps.test(params.name, params.server)));
  return store;
}
