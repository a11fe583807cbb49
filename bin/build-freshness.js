// Is a build older than the sources it was made from? Shared by the `hearth` command
// (which must never run a stale build) and `npm start` (which rebuilds what is stale).
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

const sourceEndings = ['.ts', '.tsx', '.css', '.html', '.json', '.svg'];

/** The newest modification time of any source file below `folders` of `root` (0 when none). */
export function newestSourceMtime(root, folders) {
  let newest = 0;
  for (const folder of folders) {
    let names = [];
    try {
      names = readdirSync(join(root, folder), { recursive: true });
    } catch {
      continue;
    }
    for (const name of names) {
      const path = String(name);
      if (path.includes('node_modules') || !sourceEndings.some((ending) => path.endsWith(ending))) continue;
      const mtime = statSync(join(root, folder, path)).mtimeMs;
      if (mtime > newest) newest = mtime;
    }
  }
  return newest;
}

/** The modification time of `file`, or undefined when it does not exist. */
export function mtimeOf(file) {
  try {
    return statSync(file).mtimeMs;
  } catch {
    return undefined;
  }
}

/** Whether the build marked by `stampFile` is at least as new as every source below `folders`. */
export function isBuildCurrent(root, stampFile, folders) {
  const stamp = mtimeOf(stampFile);
  return stamp !== undefined && stamp >= newestSourceMtime(root, folders);
}
