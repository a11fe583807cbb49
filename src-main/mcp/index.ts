export { importMcpServers, type McpImport, planMcpImport } from './import-mcp-servers.js';
export { McpAlwaysAllowed, type McpAlwaysAllowedEntry } from './mcp-always-allowed.js';
export {
  type AgentMcpConfig,
  agentMcpConfigSchema,
  type McpAccess,
  type McpConfig,
  type McpServerConfig,
  type McpServerConfigInput,
  mcpConfigSchema,
  mcpServerConfigSchema,
  parseMcpConfig,
} from './mcp-config.js';
export { McpConnection, type McpTool } from './mcp-connection.js';
export { McpHub, type McpHubDeps, type McpSecretSource } from './mcp-hub.js';
export { formatMcpResult, type McpCallResult } from './mcp-result.js';
export { accessOf, agentToolName } from './mcp-tool.js';
