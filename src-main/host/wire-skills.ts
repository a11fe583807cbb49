import { join } from 'node:path';
import type { Clock } from '../base/clock.js';
import { type Disposable, DisposableStore } from '../base/disposable.js';
import type { Logger } from '../base/logger.js';
import type { GatewayCore } from '../gateway/gateway-core.js';
import { registerSkillsMethods } from '../gateway/methods/skills.js';
import type { HearthPaths } from '../paths/index.js';
import type { SecretStore } from '../secrets/index.js';
import { createSkillService, createSkillTools, type SkillService } from '../skills/index.js';
import type { ToolDefinition } from '../tools/tool.js';
import { configuredAgentIds } from './agent-roster.js';
import type { HearthConfigService } from './hearth-config.js';

const DAY_MS = 24 * 60 * 60 * 1000;

export interface WiredSkills extends Disposable {
  skills: SkillService;
  tools: ToolDefinition[];
}

/**
 * Skills (src-main/skills, docs/TOOLS.md "Skills"): bundled in resources/skills, the user's in
 * HEARTH_HOME/skills, each agent's in its workspace skills/; the skill tools, the `skills.*`
 * methods, and the curator once a day (first run a day after start, so a start never moves files).
 */
export function wireSkills(deps: {
  core: Pick<GatewayCore, 'registry'>;
  config: Pick<HearthConfigService, 'current'>;
  paths: HearthPaths;
  clock: Clock;
  log: Logger;
  appRoot: string;
  secrets: SecretStore;
}): WiredSkills {
  const store = new DisposableStore();
  const log = deps.log.child({ part: 'skills' });
  const skills = createSkillService({
    folders: {
      bundled: join(deps.appRoot, 'resources', 'skills'),
      user: join(deps.paths.home, 'skills'),
      workspace: (agentId) => join(deps.paths.workspaceDir(agentId), 'skills'),
    },
    stateDir: join(deps.paths.stateDir, 'skills'),
    clock: deps.clock,
    log,
    // This install's own secret values never go into a skill (the gate compares them too).
    knownSecrets: async () => {
      const values = await Promise.all((await deps.secrets.list()).map((account) => deps.secrets.get(account)));
      return values.filter((value): value is string => typeof value === 'string');
    },
    agentIds: () => configuredAgentIds(deps.config.current.agents),
  });
  store.add(registerSkillsMethods(deps.core.registry, skills));
  store.add(
    deps.clock.setInterval(() => {
      skills.curate().catch((error: unknown) => log.warn('skill curator failed', { error: String(error) }));
    }, DAY_MS),
  );
  return { skills, tools: createSkillTools(skills), dispose: () => store.dispose() };
}
