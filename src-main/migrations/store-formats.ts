import { readdir } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { CRON_FILE_VERSION } from '../cron/index.js';
// The two dependency-free exec modules, not exec/index.ts: migrations run before the gateway
// listens, and the index would load the whole command analysis (issue 23's cold start).
import { rulesFromOlderPermissionFiles } from '../exec/older-permission-files.js';
import { permissionsFilePath } from '../exec/permission-store.js';
import type { HearthPaths } from '../paths/index.js';
import { copyOf, readJsonVersion, type StoreCopy, type StoreFormat } from './store-format.js';

/**
 * Every on-disk format Hearth keeps, in one table (docs/UPGRADES.md). The file locations are
 * the owners': config/config-service.ts, sessions/session-index.ts,
 * providers/auth/auth-profile-file.ts, agent/runtime/agent-pause-file.ts, exec/permission-store.ts, cron/cron-store.ts (via
 * host/wire-cron.ts), usage/usage-ledger.ts (via host/wire-usage.ts), memory/memory-index.ts.
 * A capability that changes its format bumps `current` here and adds the step from the last one.
 */
export const hearthStoreFormats: readonly StoreFormat[] = [
  {
    id: 'config',
    label: 'hearth.json (config)',
    current: 1,
    locate: async (paths) => copyOf(paths.configFile, await readJsonVersion(paths.configFile)),
    steps: [],
  },
  {
    id: 'sessions',
    label: 'sessions index',
    current: 1,
    locate: async (paths) => {
      const copies: StoreCopy[] = [];
      for (const agentId of await agentFolders(paths)) {
        const file = join(paths.sessionsDir(agentId), 'sessions.json');
        copies.push(...copyOf(file, await readJsonVersion(file)));
      }
      return copies;
    },
    steps: [],
  },
  {
    id: 'auth-profiles',
    label: 'auth-profile state',
    current: 1,
    locate: async (paths) => {
      const file = join(paths.stateDir, 'auth-profiles.json');
      return copyOf(file, await readJsonVersion(file));
    },
    steps: [],
  },
  {
    id: 'agent-pause',
    label: 'agent pause',
    current: 1,
    locate: async (paths) => {
      const file = join(paths.stateDir, 'agent-pause.json');
      return copyOf(file, await readJsonVersion(file));
    },
    steps: [],
  },
  {
    id: 'permissions',
    label: 'approvals (permissions)',
    current: 1,
    locate: async (paths) => {
      const file = permissionsFilePath(paths.stateDir);
      const older = [join(paths.stateDir, 'exec-approvals.json'), join(paths.stateDir, 'mcp-approvals.json')];
      const read = await readJsonVersion(file);
      if (read.kind !== 'missing') return copyOf(file, read);
      // Before permissions.json (version 0): one "allow always" list per capability.
      for (const path of older) {
        const olderRead = await readJsonVersion(path);
        if (olderRead.kind === 'unreadable') return copyOf(path, olderRead);
        if (olderRead.kind === 'found') return [{ path: file, version: 0, explicit: false, files: [...older, file] }];
      }
      return [];
    },
    steps: [
      {
        from: 0,
        describe: 'exec-approvals.json and mcp-approvals.json become state/permissions.json (both are kept)',
        migrate: (documents, { now }) => ({
          'permissions.json': {
            version: 1,
            rules: rulesFromOlderPermissionFiles(
              { exec: documents['exec-approvals.json'], mcp: documents['mcp-approvals.json'] },
              now,
            ),
          },
        }),
      },
    ],
  },
  {
    id: 'cron',
    label: 'cron jobs',
    current: CRON_FILE_VERSION,
    locate: async (paths) => {
      const file = join(paths.stateDir, 'cron', 'jobs.json');
      return copyOf(file, await readJsonVersion(file));
    },
    steps: [],
  },
  {
    id: 'usage',
    label: 'usage ledger',
    current: 1,
    // JSONL months carry no header: the folder's format.json says the version (absent: 1).
    locate: async (paths) => {
      const dir = join(paths.stateDir, 'usage');
      const names = await namesIn(dir);
      const file = join(dir, 'format.json');
      if (!names.some((name) => name.endsWith('.jsonl')) && !names.includes('format.json')) return [];
      const read = await readJsonVersion(file);
      return read.kind === 'missing'
        ? [{ path: file, version: 1, explicit: false, files: [file] }]
        : copyOf(file, read);
    },
    steps: [],
  },
  {
    id: 'memory',
    label: 'memory index',
    current: 1,
    // The index is rebuilt from the markdown notes; its meta file (hearth-index.json) carries the version.
    locate: async (paths) => {
      const copies: StoreCopy[] = [];
      for (const agentId of await agentFolders(paths)) {
        const file = join(paths.memoryDbDir(agentId), 'hearth-index.json');
        copies.push(...copyOf(file, await readJsonVersion(file)));
      }
      return copies;
    },
    steps: [],
  },
];

async function namesIn(dir: string): Promise<string[]> {
  try {
    return await readdir(dir);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
}

/** Agent folders on disk (`agents/<id>`), configured or not: an old agent's files are still data. */
async function agentFolders(paths: HearthPaths): Promise<string[]> {
  return (await namesIn(dirname(paths.agentDir('main')))).filter((name) => !name.startsWith('.')).sort();
}
