import { homedir } from 'node:os';
import { join } from 'node:path';
import type { ConfigService } from '../config/index.js';
import { type ApprovalGate, sensitiveHomePaths } from '../exec/index.js';
import type { HearthPaths } from '../paths/index.js';
import { askThroughApprovals, createFileTools, filesToolsConfigSchema } from '../tools/files/index.js';
import type { ToolDefinition } from '../tools/tool.js';
import { createAddressPolicy, createWebFetchTool, webToolsConfigSchema } from '../tools/web/index.js';

/**
 * The built-in file tools (read, write, edit, list, find, grep) and web_fetch, bound to this
 * host: the workspace comes with each call, `tools.files` / `tools.web` are read at each call,
 * questions go to the exec approval service, and Hearth's own secrets are off limits. Which
 * of them are in an agent's prompt is the tool catalogue's call (its profile; `tools.deny`).
 */
export function wireFileAndWebTools(deps: {
  config: Pick<ConfigService, 'current'>;
  paths: HearthPaths;
  env: Record<string, string | undefined>;
  approvals: ApprovalGate;
}): ToolDefinition[] {
  const home = deps.env.HOME ?? homedir();
  const files = () => filesToolsConfigSchema.parse(deps.config.current.tools.files ?? {});
  const web = () => webToolsConfigSchema.parse(deps.config.current.tools.web ?? {});
  const fileTools = createFileTools({
    forbidden: [
      { path: deps.paths.identityDir, label: "the gateway's identity folder" },
      { path: join(deps.paths.stateDir, 'secrets.enc.json'), label: 'the secret store' },
      { path: join(home, '.ssh'), label: '~/.ssh' },
    ],
    askAlways: sensitiveHomePaths.filter((path) => path !== '.ssh').map((path) => join(home, path)),
    grantedRoots: () => files().roots,
    ask: askThroughApprovals(deps.approvals),
    home,
  });
  const webFetch = createWebFetchTool({ config: web, policy: () => createAddressPolicy(web()) });
  return [...fileTools, webFetch as ToolDefinition];
}
