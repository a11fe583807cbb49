import { homedir } from 'node:os';
import { isAbsolute, join } from 'node:path';

/** Where Hearth keeps its state (ARCHITECTURE.md "State on disk"). Built once at the edge, passed in everywhere. */
export interface HearthPaths {
  home: string;
  configFile: string;
  identityDir: string;
  stateDir: string;
  logsDir: string;
  cacheTraceDir: string;
  userExtensionsDir: string;
  /** `agents.list[].workspace` when set; else `workspace` for the main agent, `workspace-<agentId>` for others. */
  workspaceDir(agentId: string): string;
  agentDir(agentId: string): string;
  sessionsDir(agentId: string): string;
  memoryDbDir(agentId: string): string;
}

export function resolveHearthHome(env: Record<string, string | undefined>, override?: string): string {
  return override ?? env.HEARTH_HOME ?? join(homedir(), '.hearth');
}

export interface HearthPathsOptions {
  /** An agent's configured workspace folder (read at each call, so a reloaded config is seen). */
  workspaceOf?(agentId: string): string | undefined;
}

export function createHearthPaths(home: string, options: HearthPathsOptions = {}): HearthPaths {
  const stateDir = join(home, 'state');
  return {
    home,
    configFile: join(home, 'hearth.json'),
    identityDir: join(home, 'identity'),
    stateDir,
    logsDir: join(stateDir, 'logs'),
    cacheTraceDir: join(stateDir, 'cache-trace'),
    userExtensionsDir: join(home, 'extensions'),
    workspaceDir: (agentId) =>
      options.workspaceOf?.(agentId) ?? join(home, agentId === 'main' ? 'workspace' : `workspace-${agentId}`),
    agentDir: (agentId) => join(home, 'agents', agentId),
    sessionsDir: (agentId) => join(home, 'agents', agentId, 'sessions'),
    memoryDbDir: (agentId) => join(home, 'agents', agentId, 'memory.lance'),
  };
}

/** A configured workspace: an absolute path, or `~/…` under the user's home folder. */
export function isWorkspacePath(value: string): boolean {
  return isAbsolute(value) || value.startsWith('~/');
}

/** `agents.list[].workspace` of an agent, with `~/` expanded; undefined when not set. */
export function configuredWorkspace(
  agents: { list?: readonly { id: string; workspace?: string }[] } | undefined,
  agentId: string,
  userHome: string = homedir(),
): string | undefined {
  const value = agents?.list?.find((agent) => agent.id === agentId)?.workspace;
  if (!value) return undefined;
  return value.startsWith('~/') ? join(userHome, value.slice(2)) : value;
}
