import type { Clock } from '../base/clock.js';
import type { Logger } from '../base/logger.js';
import type { ApprovalGate } from '../exec/index.js';
import type { HearthPaths } from '../paths/index.js';
import type { ModelCatalog } from '../providers/index.js';
import {
  askThroughApprovals,
  BrowserSessions,
  browserToolsConfigSchema,
  createBrowserTool,
} from '../tools/browser/index.js';
import type { ToolDefinition } from '../tools/tool.js';
import type { HearthConfigService } from './hearth-config.js';
import { modelImageRefusal } from './model-image-refusal.js';

export interface WiredBrowser {
  /** `browser`: not in any profile's core, so agents load it through the catalogue (tools_search / tools_load). */
  tool: ToolDefinition;
  /** Closes every agent's browser. */
  dispose(): Promise<void>;
}

/**
 * The browser tool bound to this host: each agent's Chromium profile under
 * `<stateDir>/browser/<agentId>/`, `tools.browser` read at each call, idle tabs timed on the
 * host's clock. Nothing starts until an agent's first browser action.
 */
export function wireBrowser(deps: {
  config: Pick<HearthConfigService, 'current'>;
  paths: HearthPaths;
  clock: Clock;
  log: Logger;
  /** The model catalog, once the runtime exists: screenshots go only to models that see images. */
  catalog(): Pick<ModelCatalog, 'imageRefusal'> | undefined;
  /** Click, type and select ask through the approval system first (tools.browser.askBeforeActing). */
  approvals?: ApprovalGate;
}): WiredBrowser {
  const config = () => browserToolsConfigSchema.parse(deps.config.current.tools.browser ?? {});
  const sessions = new BrowserSessions({
    stateDir: deps.paths.stateDir,
    config,
    clock: deps.clock,
    log: deps.log.child({ part: 'browser' }),
  });
  return {
    tool: createBrowserTool({
      sessions,
      config,
      imagesNotShown: modelImageRefusal(deps),
      ...(deps.approvals ? { ask: askThroughApprovals(deps.approvals) } : {}),
    }) as ToolDefinition,
    dispose: () => sessions.dispose(),
  };
}
