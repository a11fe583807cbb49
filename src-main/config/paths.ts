import { homedir } from 'node:os';
import { join } from 'node:path';

/** Where Hearth keeps its state (ARCHITECTURE.md "State on disk"). Built once at the edge, passed in everywhere. */
export interface HearthPaths {
  home: string;
  configFile: string;
  identityDir: string;
  stateDir: string;
  logsDir: string;
  cacheTraceDir: string;
  userExtensionsDir: string;
  /** `workspace` for the main agent, `workspace-<agentId>` for others. */
  workspaceDir(agentId: string): string;
  agentDir(agentId: string): string;
  sessionsDir(agentId: string): string;
  memoryDbDir(agentId: string): string;
}

export function resolveHearthHome(env: Record<string, string | undefined>, override?: string): string {
  return override ?? env.HEARTH_HOME ?? join(homedir(), '.hearth');
}

export function createHearthPaths(home: string): HearthPaths {
  const stateDir = join(home, 'state');
  return {
    home,
    configFile: join(home, 'hearth.json'),
    identityDir: join(home, 'identity'),
    stateDir,
    logsDir: join(stateDir, 'logs'),
    cacheTraceDir: join(stateDir, 'cache-trace'),
    userExtensionsDir: join(home, 'extensions'),
    workspaceDir: (agentId) => join(home, agentId === 'main' ? 'workspace' : `workspace-${agentId}`),
    agentDir: (agentId) => join(home, 'agents', agentId),
    sessionsDir: (agentId) => join(home, 'agents', agentId, 'sessions'),
    memoryDbDir: (agentId) => join(home, 'agents', agentId, 'memory.lance'),
  };
}
