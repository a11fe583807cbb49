import { readFile, rm, stat } from 'node:fs/promises';
import { isAbsolute, join, relative, resolve } from 'node:path';
import { HearthError } from '../base/errors.js';
import { ConfigConflictError, type ConfigService, ConfigValidationError } from '../config/index.js';
import { writeFileAtomic } from '../fs/atomic-write.js';
import type { HearthPaths } from '../paths/index.js';
import { rosterFileSchema } from './roster-config.js';
import {
  type AgentSettings,
  type AgentView,
  createAgent,
  describeAgent,
  type RosterDefaults,
  type RosterSection,
  removeAgent,
  updateAgent,
} from './roster-edits.js';

export interface RosterDeps {
  config: Pick<ConfigService<unknown>, 'snapshot' | 'patch'>;
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

/** One persona file of an agent's workspace (SOUL.md, IDENTITY.md, USER.md…). */
export interface PersonaFile {
  name: string;
  path: string;
  missing: boolean;
  size?: number;
  updatedAtMs?: number;
}

export interface Roster {
  create(settings: AgentSettings & { name: string; id?: string }): Promise<{ agentId: string; workspace: string }>;
  update(agentId: string, settings: AgentSettings): Promise<void>;
  remove(agentId: string, options?: { deleteFiles?: boolean }): Promise<RemovedAgent>;
  /** Every setting of one agent, and where its workspace is. */
  get(agentId: string): AgentView & { workspace: string };
  /** `names`: the persona files there may be (the protocol's list); each as it is on disk now. */
  files(agentId: string, names: readonly string[]): Promise<{ workspace: string; files: PersonaFile[] }>;
  readFile(agentId: string, name: string): Promise<{ workspace: string; file: PersonaFile & { content: string } }>;
  /** Written atomically: a crash leaves the old file or the new one, never half of it. */
  writeFile(agentId: string, name: string, content: string): Promise<{ workspace: string; file: PersonaFile }>;
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
  const read = (): { section: RosterSection; hash: string; defaults: RosterDefaults } => {
    const snapshot = deps.config.snapshot();
    // The file as written (not `current`, whose defaults would be written back with the edit).
    const file = rosterFileSchema.parse(snapshot.parsed ?? {});
    return {
      defaults: file.tools?.exec ? { exec: file.tools.exec } : {},
      section: { list: file.agents?.list ?? [], bindings: file.agents?.bindings ?? [] },
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
      const { section, hash, defaults } = read();
      const { section: next, agentId } = createAgent(section, settings, defaults);
      await write(section, next, hash);
      return { agentId, workspace: deps.paths.workspaceDir(agentId) };
    },
    async update(agentId, settings) {
      const { section, hash, defaults } = read();
      await write(section, updateAgent(section, agentId, settings, defaults), hash);
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
    get(agentId) {
      return { ...describeAgent(read().section, agentId), workspace: deps.paths.workspaceDir(agentId) };
    },
    async files(agentId, names) {
      const workspace = known(agentId);
      return { workspace, files: await Promise.all(names.map((name) => fileInfo(workspace, name))) };
    },
    async readFile(agentId, name) {
      const workspace = known(agentId);
      const info = await fileInfo(workspace, name);
      const content = info.missing ? '' : await readFile(info.path, 'utf8');
      return { workspace, file: { ...info, content } };
    },
    async writeFile(agentId, name, content) {
      const workspace = known(agentId);
      await writeFileAtomic(join(workspace, name), content, 0o600);
      return { workspace, file: await fileInfo(workspace, name) };
    },
  };
  /** The agent's workspace; an unknown agent is refused (describeAgent names it). */
  function known(agentId: string): string {
    describeAgent(read().section, agentId);
    return deps.paths.workspaceDir(agentId);
  }
}

async function fileInfo(workspace: string, name: string): Promise<PersonaFile> {
  const path = join(workspace, name);
  const info = await stat(path).catch(() => undefined);
  return info?.isFile()
    ? { name, path, missing: false, size: info.size, updatedAtMs: Math.round(info.mtimeMs) }
    : { name, path, missing: true };
}
