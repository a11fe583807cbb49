import { homedir } from 'node:os';
import { join } from 'node:path';
import type { Clock } from '../base/clock.js';
import type { Disposable } from '../base/disposable.js';
import type { CronService } from '../cron/index.js';
import type { AllowlistStore } from '../exec/index.js';
import type { GatewayCore } from '../gateway/gateway-core.js';
import { registerImportMethods } from '../gateway/methods/import.js';
import { createImportService } from '../import/index.js';
import type { HearthPaths } from '../paths/index.js';
import type { AuthProfileManager } from '../providers/index.js';
import type { SessionStore } from '../sessions/index.js';
import type { HearthConfigService } from './hearth-config.js';

/**
 * Import from OpenClaw / Hermes (docs/IMPORT.md) through the running gateway's own stores: the
 * sessions land in the index the chat list reads, keys in the auth profiles the runtime uses,
 * jobs in the live scheduler, config edits through the config service (so every view sees them).
 */
export function wireImport(deps: {
  core: Pick<GatewayCore, 'registry'>;
  config: Pick<HearthConfigService, 'current' | 'snapshot' | 'patch'>;
  paths: HearthPaths;
  clock: Clock;
  env: Record<string, string | undefined>;
  appRoot: string;
  sessions: SessionStore;
  auth: AuthProfileManager;
  cron: CronService;
  allowlist: AllowlistStore;
}): Disposable {
  const service = createImportService({
    userHome: deps.env.HOME ?? homedir(),
    env: deps.env,
    targets: {
      config: deps.config,
      workspaceDir: (agentId) => deps.paths.workspaceDir(agentId),
      templatesDir: join(deps.appRoot, 'resources', 'workspace'),
      sessions: deps.sessions,
      auth: deps.auth,
      cron: deps.cron,
      allowlist: deps.allowlist,
      now: () => deps.clock.now(),
    },
  });
  return registerImportMethods(deps.core.registry, service);
}
