import { rm } from 'node:fs/promises';
import { isAbsolute, relative, resolve } from 'node:path';
import { HearthError } from '../base/errors.js';
import { ConfigConflictError, type ConfigService, ConfigValidationError } from '../config/index.js';
import type { HearthPaths } from '../paths/index.js';
import {
  type AgentSettings,
  createAgent,
  type RosterBinding,
  type RosterEntry,
  type RosterSection,
  removeAgent,
  updateAgent,
} from './roster-edits.js';

export interface RosterDeps {
  config: Pick<ConfigService, 'snapshot' | 'patch'>;
  paths: Pick<HearthPaths, 'home' | 'workspaceDir' | 'agentDir'>;
}

export interface RemovedAgent {
  agentId: string;
  removedBindings: number;
  /** Folders deleted with `deleteFiles` (the workspace only when it lies inside HEARTH_HOME). */
  removedFiles: string[];
  /** A workspace left in place because it lies outside HEARTH_HOME (the person's own folder). */
  keptWorkspace?: string;
}

export interface Roster {
  create(settings: AgentSettings & { name: string; id?: string }): Promise<{ agentId: string; workspace: string }>;
  update(agentId: string, settings: AgentSettings): Promise<void>;
  remove(agentId: string, options?: { deleteFiles?: boolean }): Promise<RemovedAgent>;
}

function isInside(folder: string, root: string): boolean {
  const path = relative(resolve(root), resolve(folder));
  return path !== '' && !path.startsWith('..') && !isAbsolute(path);
}

/**
 * Creates, edits and removes agents by writing hearth.json's `agents` section (one patch, checked
 * against the hash it was read at, so an edit made meanwhile by hand is never overwritten). A new
 * agent's workspace is seeded from the templates when the host sees the config change, like any
 * agent added by hand.
 */
export function createRoster(deps: RosterDeps): Roster {
  const read = (): { section: RosterSection; hash: string } => {
    const snapshot = deps.config.snapshot();
    const agents = (snapshot.parsed as { agents?: { list?: unknown; bindings?: unknown } } | undefined)?.agents;
    return {
      section: {
        list: Array.isArray(agents?.list) ? (agents.list as RosterEntry[]) : [],
        bindings: Array.isArray(agents?.bindings) ? (agents.bindings as RosterBinding[]) : [],
      },
      hash: snapshot.hash,
    };
  };
  const write = async (before: RosterSection, next: RosterSection, hash: string) => {
    const patch: Record<string, unknown> = { list: next.list };
    if (next.bindings !== before.bindings) patch.bindings = next.bindings;
    try {
      await deps.config.patch({ agents: patch }, hash);
    } catch (error) {
      if (error instanceof ConfigValidationError)
        throw new HearthError('bad_request', error.message, { details: { reason: 'invalid-config' } });
      if (error instanceof ConfigConflictError)
        throw new HearthError('conflict', 'hearth.json changed while the agent was being saved: try again');
      throw error;
    }
  };

  return {
    async create(settings) {
      const { section, hash } = read();
      const { section: next, agentId } = createAgent(section, settings);
      await write(section, next, hash);
      return { agentId, workspace: deps.paths.workspaceDir(agentId) };
    },
    async update(agentId, settings) {
      const { section, hash } = read();
      await write(section, updateAgent(section, agentId, settings), hash);
    },
    async remove(agentId, options = {}) {
      const { section, hash } = read();
      // Where its files are must be known before the entry (and a custom workspace with it) goes.
      const workspace = deps.paths.workspaceDir(agentId);
      const agentDir = deps.paths.agentDir(agentId);
      const { section: next, removedBindings } = removeAgent(section, agentId);
      await write(section, next, hash);
      const removed: RemovedAgent = { agentId, removedBindings, removedFiles: [] };
      if (!options.deleteFiles) return removed;
      // The host closes the agent's memory index when it sees it leave the config; a write still
      // landing meanwhile makes rm find the folder not yet empty, so it retries.
      await rm(agentDir, { recursive: true, force: true, maxRetries: 10, retryDelay: 50 });
      removed.removedFiles.push(agentDir);
      if (isInside(workspace, deps.paths.home)) {
        await rm(workspace, { recursive: true, force: true, maxRetries: 10, retryDelay: 50 });
        removed.removedFiles.push(workspace);
      } else removed.keptWorkspace = workspace;
      return removed;
    },
  };
}
