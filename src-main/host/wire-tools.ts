import type { Clock } from '../base/clock.js';
import { AsyncDisposableStore } from '../base/disposable.js';
import type { Logger } from '../base/logger.js';
import type { ExecCapability } from '../exec/index.js';
import type { GatewayCore } from '../gateway/gateway-core.js';
import type { HearthPaths } from '../paths/index.js';
import type { ModelCatalog } from '../providers/index.js';
import type { SecretStore } from '../secrets/index.js';
import type { SessionStore } from '../sessions/index.js';
import type { SkillService } from '../skills/index.js';
import { createCanvasTools } from '../tools/canvas/index.js';
import { createSessionTools, type SessionSearchIndex } from '../tools/sessions/index.js';
import type { ToolDefinition } from '../tools/tool.js';
import type { HearthConfigService } from './hearth-config.js';
import { wireBrowser } from './wire-browser.js';
import { wireFileAndWebTools } from './wire-file-web-tools.js';
import { wireSkills } from './wire-skills.js';

export interface WiredTools {
  /**
   * The model's tools, read by the catalogue each turn; plugins and memory add theirs later
   * (the agent's tool profile decides which are core, tools/catalogue).
   */
  tools: ToolDefinition[];
  skills: SkillService;
  dispose(): Promise<void>;
}

/**
 * The built-in tools: exec's, the canvas's, the sessions', the file tools, web_fetch and (while
 * tools.web.search is set) web_search, the browser (on demand; one Chromium per agent, started
 * at its first action) and the skill tools (the prompt lists skill names only).
 */
export function wireTools(deps: {
  core: Pick<GatewayCore, 'registry'>;
  config: HearthConfigService;
  paths: HearthPaths;
  clock: Clock;
  log: Logger;
  env: Record<string, string | undefined>;
  appRoot: string;
  secrets: SecretStore;
  exec: ExecCapability;
  sessions: { store: SessionStore; search: SessionSearchIndex };
  /** The model catalog, once the runtime exists (it is built after the tools). */
  catalog(): Pick<ModelCatalog, 'imageRefusal'> | undefined;
}): WiredTools {
  const root = new AsyncDisposableStore();
  const { config, paths, env, secrets, catalog } = deps;
  const approvals = deps.exec.approvals;
  const tools: ToolDefinition[] = [
    deps.exec.tool as ToolDefinition,
    ...createCanvasTools(),
    ...createSessionTools({ store: deps.sessions.store, index: deps.sessions.search }),
  ];
  root.add(wireFileAndWebTools({ config, paths, env, approvals, secrets, tools, catalog }));
  tools.push(root.add(wireBrowser({ ...deps, approvals })).tool);
  const skills = root.add(wireSkills(deps));
  tools.push(...skills.tools);
  return { tools, skills: skills.skills, dispose: () => root.dispose() };
}
