import { describe, expect, it } from 'vitest';
import { startPermissionBridge } from './permission-bridge.js';

// The bridge a CLI engine asks for permission through: a real MCP server on loopback, driven here
// with the JSON-RPC a CLI sends (its MCP SDK loads only when a bridge starts).
describe('permission bridge', () => {
  it('refuses a request without its turn token and answers a tool call with the decision', async () => {
    const asked: unknown[] = [];
    const bridge = await startPermissionBridge(async (request) => {
      asked.push(request);
      return { allow: false, message: 'not now' };
    });
    try {
      const server = (
        JSON.parse(bridge.mcpConfig) as { mcpServers: Record<string, { url: string; headers: Record<string, string> }> }
      ).mcpServers;
      const [entry] = Object.values(server);
      const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
      const refused = await fetch(entry!.url, { method: 'POST', headers, body: '{}' });
      expect(refused.status).toBe(401);

      const toolName = bridge.tool.split('__').at(-1)!;
      const call = await fetch(entry!.url, {
        method: 'POST',
        headers: { ...headers, ...entry!.headers },
        body: JSON.stringify({
          jsonrpc: '2.0',
          id: 1,
          method: 'tools/call',
          params: { name: toolName, arguments: { tool_name: 'Bash', input: { command: 'ls' } } },
        }),
      });
      expect(call.status).toBe(200);
      const text = await call.text();
      expect(text).toContain('not now');
      expect(asked).toHaveLength(1);
    } finally {
      await bridge.close();
    }
  });
});
