import { Worker } from 'node:worker_threads';
import { runsCompiled } from './app-root.js';

/**
 * Starts the worker entry `<name>.js` that sits beside the calling module (`moduleUrl` is its
 * `import.meta.url`). The layout keeps that true everywhere: the tsc build mirrors the sources,
 * and the bundled CLI emits each worker as its own entry beside its chunks (scripts/bundle-main.mjs).
 * From the TypeScript sources (tsx, Vitest) the thread registers tsx first so it can load the
 * `.ts` entry and what it imports.
 */
export function startModuleWorker(moduleUrl: string, name: string, workerData: unknown): Worker {
  if (runsCompiled(moduleUrl)) return new Worker(new URL(`./${name}.js`, moduleUrl), { workerData });
  const entry = new URL(`./${name}.ts`, moduleUrl);
  const boot = `import('tsx/esm/api').then(({ register }) => { register(); return import(${JSON.stringify(entry.href)}); });`;
  return new Worker(boot, { eval: true, workerData });
}
