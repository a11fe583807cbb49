import { expect } from 'vitest';
import { ensureNoDisposablesAreLeakedInTestFile } from './leak-check.js';

/**
 * Folders of src-main whose test files are leak-checked (STYLE.md): every file fails when what
 * its tests and hooks created (listeners, timers, stores) is still undisposed after its last
 * afterAll. Every folder of src-main is on it (config, fs, paths and subagents have no tests yet,
 * so theirs are checked from the first); a new folder joins once its files pass (docs/ARCHITECTURE.md
 * "Lifetimes").
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
  'config',
  'cron',
  'exec',
  'fs',
  'gateway',
  'heartbeat',
  'host',
  'import',
  'logging',
  'mcp',
  'mcp-server',
  'memory',
  'migrations',
  'openai-api',
  'paths',
  'plugins',
  'protocol',
  'providers',
  'roster',
  'secrets',
  'sessions',
  'skills',
  'subagents',
  'testing',
  'tools',
  'transcript',
  'usage',
];

const testPath = expect.getState().testPath ?? '';
// The bundled plugins' own tests (extensions/*/) are checked as a whole: all of them pass.
if (
  testPath.includes('/extensions/') ||
  leakCheckedFolders.some((folder) => testPath.includes(`/src-main/${folder}/`))
) {
  ensureNoDisposablesAreLeakedInTestFile();
}
