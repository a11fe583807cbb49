export { type CliEngineDeps, type CliUsageMeter, createCliEngine } from './cli-engine.js';
export { type CliExit, type CliProcessOptions, runCliProcess } from './cli-process.js';
export { type CliSessionStore, createCliSessionStore } from './cli-sessions.js';
export { type AgentEngineConfig, agentEngineConfigSchema } from './engine-config.js';
export {
  type CliPermissionAnswer,
  type CliPermissionRequest,
  type PermissionBridge,
  startPermissionBridge,
} from './permission-bridge.js';
