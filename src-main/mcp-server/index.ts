export { connectionFromClient, connectionFromCore, type HearthConnection } from './hearth-connection.js';
export { createHearthMcpServer, type HearthMcpServerOptions } from './hearth-mcp-server.js';
export { createMcpHttpRoute, MCP_PATH, type McpHttpDeps } from './mcp-http.js';
export { mcpHttpConfigSchema } from './mcp-http-config.js';
