import { expect } from 'vitest';
import { ensureNoDisposablesAreLeakedInTestFile } from './leak-check.js';

/**
 * Folders of src-main whose test files are leak-checked (STYLE.md): every file fails when what
 * its tests and hooks created (listeners, timers, stores) is still undisposed after its last
 * afterAll. The rest still leave some behind in tests (see docs/ARCHITECTURE.md "Lifetimes");
 * a folder joins this list once its files pass.
 */
export const leakCheckedFolders = [
  'acp',
  'agent',
  'agents-talk',
  'app',
  'base',
  'channels',
  'cli',
  'cli-backends',
  'cron',
  'exec',
  'gateway',
  'heartbeat',
  'import',
  'logging',
  'mcp',
  'mcp-server',
  'memory',
  'migrations',
  'openai-api',
  'plugins',
  'protocol',
  'providers',
  'roster',
  'secrets',
  'sessions',
  'skills',
  'testing',
  'tools',
  'transcript',
  'usage',
];

const testPath = expect.getState().testPath ?? '';
if (leakCheckedFolders.some((folder) => testPath.includes(`/src-main/${folder}/`))) {
  ensureNoDisposablesAreLeakedInTestFile();
}
