import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The app's own folder (package.json, resources/, extensions/, dist/), found from any module's
 * `import.meta.url` by walking up to Hearth's package.json. One answer for the sources
 * (src-main/x/y.ts), the tsc build (dist/src-main/x/y.js), the bundled CLI (dist/bundle/*.js,
 * where every module shares one file's URL) and the packaged app (app.asar/dist/...), so no
 * caller counts `../` steps that only hold for one of those layouts.
 */
export function appRootFrom(moduleUrl: string): string {
  const start = dirname(fileURLToPath(moduleUrl));
  const cached = roots.get(start);
  if (cached) return cached;
  for (let folder = start; ; folder = dirname(folder)) {
    if (isHearthPackage(join(folder, 'package.json'))) {
      roots.set(start, folder);
      return folder;
    }
    if (dirname(folder) === folder) {
      throw new Error(`Hearth's package.json was not found in any folder above ${start}`);
    }
  }
}

/**
 * Whether this module runs compiled (the tsc build or the bundle) rather than from the
 * TypeScript sources (tsx, Vitest): a build reads dist/extensions and the workers' `.js`.
 */
export function runsCompiled(moduleUrl: string): boolean {
  return moduleUrl.endsWith('.js');
}

const roots = new Map<string, string>();

function isHearthPackage(path: string): boolean {
  if (!existsSync(path)) return false;
  try {
    return (JSON.parse(readFileSync(path, 'utf8')) as { name?: unknown }).name === 'hearth';
  } catch {
    return false;
  }
}
