import { join } from 'node:path';
import type { BootstrapFilesHook } from '../agent/bootstrap/index.js';
import type { Logger } from '../base/logger.js';
import { type MemoryConfig, parseMemoryConfig } from '../memory/index.js';
import type { HearthPaths } from '../paths/index.js';
import type { HearthConfigService } from './hearth-config.js';
import { personalFolders } from './session-person.js';
import { composeWorkspaceBootstrap, type WorkspaceBootstrap } from './workspace-bootstrap.js';

/**
 * Workspace files: each agent's own, seeded from resources/workspace at start (before memory
 * watches them); USER.md / MEMORY.md follow the session's person, by memory's live settings once
 * memory runs (before that, by hearth.json's). Plugins may change a run's file list (`hooks`,
 * filled in when they load).
 */
export function wireWorkspace(deps: {
  config: HearthConfigService;
  paths: HearthPaths;
  log: Logger;
  appRoot: string;
  hooks: BootstrapFilesHook[];
  memorySettings(agentId: string): MemoryConfig | undefined;
}): Promise<WorkspaceBootstrap> {
  const { config } = deps;
  return composeWorkspaceBootstrap({
    config,
    paths: deps.paths,
    log: deps.log,
    templatesDir: join(deps.appRoot, 'resources', 'workspace'),
    hooks: deps.hooks,
    personalFolders: ({ agentId, sessionKey }) =>
      personalFolders(agentId, deps.memorySettings(agentId) ?? parseMemoryConfig(config.current.memory), sessionKey),
  });
}
