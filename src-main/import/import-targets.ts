import type { CronJob, CronJobInput } from '../cron/index.js';
import type { AllowlistStore } from '../exec/index.js';
import type { AuthProfileManager } from '../providers/index.js';
import type { SessionStore } from '../sessions/index.js';
import type { ImportConfig } from './import-config.js';

/**
 * Where an import lands: the same services the running gateway uses, or ones opened on a
 * HEARTH_HOME for the CLI (offline-targets.ts). An import writes only through these, so a
 * session lands in the index the UI lists, a key in the secret store, a job in the scheduler.
 */
export interface ImportTargets {
  config: ImportConfig;
  workspaceDir(agentId: string): string;
  /** Hearth's starter workspace files (resources/workspace): one still unedited may be replaced. */
  templatesDir?: string;
  sessions: Pick<SessionStore, 'get' | 'resolve' | 'append' | 'patch' | 'sync'>;
  auth: Pick<AuthProfileManager, 'get' | 'set' | 'credential' | 'profilesFor'>;
  cron: { list(): CronJob[]; add(input: CronJobInput): Promise<unknown> };
  allowlist: AllowlistStore;
  now(): number;
}
