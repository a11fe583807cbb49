import { homedir } from 'node:os';
import { join } from 'node:path';
import type { Disposable } from '../base/disposable.js';
import { type ApprovalGate, sensitiveHomePaths } from '../exec/index.js';
import type { HearthPaths } from '../paths/index.js';
import type { ModelCatalog } from '../providers/index.js';
import { askThroughApprovals, createFileTools, filesToolsConfigSchema } from '../tools/files/index.js';
import type { ToolDefinition } from '../tools/tool.js';
import {
  configuredSearchProvider,
  createAddressPolicy,
  createWebFetchTool,
  createWebSearchTool,
  type SearchSecretSource,
  WebSearchError,
  webToolsConfigSchema,
} from '../tools/web/index.js';
import type { HearthConfigService } from './hearth-config.js';
import { modelImageRefusal } from './model-image-refusal.js';

/**
 * The built-in file tools (read, write, edit, list, find, grep), web_fetch and web_search, bound
 * to this host: the workspace comes with each call, `tools.files` / `tools.web` are read at each
 * call, questions go to the exec approval service, and Hearth's own secrets are off limits.
 * web_search is in the tool list only while `tools.web.search` names a provider (a tool that can
 * only answer "not configured" would cost every tools_search a line); its key comes from the
 * secret store. `read` sends images only where the catalog says the model sees them. Which of these
 * are in an agent's prompt is the tool catalogue's call (its profile; `tools.deny`).
 */
export function wireFileAndWebTools(deps: {
  config: Pick<HearthConfigService, 'current' | 'onDidChange'>;
  paths: HearthPaths;
  env: Record<string, string | undefined>;
  approvals: ApprovalGate;
  secrets: SearchSecretSource;
  /** The host's tool list (read by the catalogue each turn): these tools join it, web_search while configured. */
  tools: ToolDefinition[];
  /** The model catalog, once the runtime exists (it is built after the tools). */
  catalog(): Pick<ModelCatalog, 'imageRefusal'> | undefined;
}): Disposable {
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
    imagesNotShown: modelImageRefusal(deps),
  });
  const webFetch = createWebFetchTool({ config: web, policy: () => createAddressPolicy(web()) });
  const webSearch = createWebSearchTool({
    provider: () => {
      const search = web().search;
      if (!search)
        throw new WebSearchError('web_search: no search provider is configured (tools.web.search in hearth.json)');
      return configuredSearchProvider(search, deps.secrets);
    },
  }) as ToolDefinition;
  deps.tools.push(...fileTools, webFetch as ToolDefinition);

  const syncSearch = () => {
    const index = deps.tools.indexOf(webSearch);
    const wanted = deps.config.current.tools.web?.search !== undefined;
    if (wanted && index < 0) deps.tools.push(webSearch);
    if (!wanted && index >= 0) deps.tools.splice(index, 1);
  };
  syncSearch();
  return deps.config.onDidChange(['tools.web.search'], syncSearch);
}
