export type { ToolContext, ToolDefinition, ToolOutput } from '../../tools/tool.js';
