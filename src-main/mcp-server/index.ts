export { connectionFromClient, connectionFromCore, type HearthConnection } from './hearth-connection.js';
export { createHearthMcpServer, type HearthMcpServerOptions } from './hearth-mcp-server.js';
