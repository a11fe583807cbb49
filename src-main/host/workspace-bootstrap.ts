import {
  type BootstrapFilesHook,
  type BootstrapLoader,
  type BootstrapLoadInput,
  buildSystemPrompt,
  createBootstrapLoader,
  createTruncationWarner,
  seedWorkspace,
} from '../agent/bootstrap/index.js';
import type { Disposable } from '../base/disposable.js';
import type { Logger } from '../base/logger.js';
import type { HearthPaths } from '../paths/index.js';
import { configuredAgentIds, followAgents } from './agent-roster.js';
import type { HearthConfigService } from './hearth-config.js';

export interface SessionRef {
  agentId: string;
  sessionKey: string;
  /** A heartbeat turn sees HEARTBEAT.md only (agent/bootstrap); default: a person's turn. */
  runKind?: 'default' | 'heartbeat' | 'cron';
}

export interface WorkspaceBootstrapDeps {
  config: Pick<HearthConfigService, 'current' | 'onDidChange'>;
  paths: Pick<HearthPaths, 'workspaceDir'>;
  log: Logger;
  /** `resources/workspace/`: the files a new workspace starts with. */
  templatesDir: string;
  /** Plugins may change a run's file list; the host fills this once plugins have loaded (before any turn). */
  hooks: readonly BootstrapFilesHook[];
  /** Folders of a session's USER.md and MEMORY.md (per-user memory; `session-person.ts`). */
  personalFolders(session: SessionRef): readonly string[];
}

export interface WorkspaceBootstrap extends Disposable {
  /** The base prompt plus the session's agent's workspace files; byte-stable while the files are unchanged. */
  /** `extra`: stable lines from the agent's tools (e.g. that the canvas exists). */
  systemPrompt(session: SessionRef, extra?: readonly string[]): Promise<string>;
  /**
   * For the turn's hidden prefix, never the system prompt (that would break its cache): tells the
   * model a workspace file was cut, per `agents.defaults.bootstrap.warningMode`.
   */
  truncationWarning(session: SessionRef): Promise<string | undefined>;
}

function sessionKindOf(sessionKey: string): 'main' | 'subagent' | 'cron' {
  if (sessionKey.includes(':subagent:')) return 'subagent';
  if (sessionKey.includes(':cron:')) return 'cron';
  return 'main';
}

/**
 * Each agent's workspace files, for its own sessions: every configured agent's workspace is seeded
 * from the templates at start (and when a config reload adds an agent), and each agent's sessions
 * read their own workspace (`paths.workspaceDir(agentId)`).
 */
export async function composeWorkspaceBootstrap(deps: WorkspaceBootstrapDeps): Promise<WorkspaceBootstrap> {
  const { config, paths, log } = deps;
  const seeded = new Set<string>();
  const seed = async (agentId: string) => {
    seeded.add(agentId);
    await seedWorkspace({ workspaceDir: paths.workspaceDir(agentId), templatesDir: deps.templatesDir });
  };
  await Promise.all(configuredAgentIds(config.current.agents).map(seed));
  const roster = followAgents(config, (agentId) => {
    if (!seeded.has(agentId)) {
      void seed(agentId).catch((error) =>
        log.warn('could not seed the workspace of a new agent', { agentId, error: String(error) }),
      );
    }
    return undefined;
  });

  // Budgets for the workspace files: agents.defaults.bootstrap { maxChars, totalMaxChars, warningMode }.
  const settings = config.current.agents.defaults?.bootstrap ?? {};
  const loaders = new Map<string, BootstrapLoader>();
  const loaderFor = (agentId: string) => {
    let loader = loaders.get(agentId);
    if (!loader) {
      loader = createBootstrapLoader({
        workspaceDir: paths.workspaceDir(agentId),
        hooks: deps.hooks,
        maxChars: settings.maxChars,
        totalMaxChars: settings.totalMaxChars,
      });
      loaders.set(agentId, loader);
    }
    return loader;
  };
  const load = (session: SessionRef) => {
    const input: BootstrapLoadInput = {
      agentId: session.agentId,
      runKind: session.runKind === 'heartbeat' ? 'heartbeat' : 'default',
      sessionKind: sessionKindOf(session.sessionKey),
      sessionKey: session.sessionKey,
      personalFolders: deps.personalFolders(session),
    };
    return loaderFor(session.agentId).load(input);
  };
  const warner = createTruncationWarner(settings.warningMode ?? 'once');
  // A turn asks for the system prompt, then for the truncation warning about that same prompt:
  // the warning reuses the files the prompt was built from instead of checking them all again.
  const builtFrom = new Map<string, ReturnType<typeof load>>();

  return {
    async systemPrompt(session, extra) {
      const loaded = load(session);
      builtFrom.set(session.sessionKey, loaded);
      return buildSystemPrompt({ bootstrapText: (await loaded).text, extra });
    },
    async truncationWarning(session) {
      const loaded = builtFrom.get(session.sessionKey) ?? load(session);
      builtFrom.delete(session.sessionKey);
      return warner.warningFor(session.sessionKey, await loaded);
    },
    dispose: () => roster.dispose(),
  };
}
