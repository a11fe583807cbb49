import { constants } from 'node:fs';
import { delimiter, isAbsolute, join, resolve } from 'node:path';

/** How the policy finds the binary a bare name runs: a `which` over an injected PATH. */
export interface PathResolver {
  which(name: string): string | undefined;
}

export interface PathResolverDeps {
  /** The PATH the command will run with (not necessarily this process's). */
  path: string;
  /** Injected so tests can build a fake bin folder; defaults to an X_OK check. */
  isExecutable(path: string): boolean;
}

export function createPathResolver(deps: PathResolverDeps): PathResolver {
  const directories = deps.path.split(delimiter).filter((dir) => dir !== '' && isAbsolute(dir));
  // Commands repeat a lot in a session (and in a batch); a name resolves the same way until PATH changes.
  const cache = new Map<string, string | undefined>();
  return {
    which(name) {
      if (name.includes('/') || name === '' || name === '.' || name === '..') return undefined;
      if (cache.has(name)) return cache.get(name);
      const found = directories.map((dir) => join(dir, name)).find((candidate) => deps.isExecutable(candidate));
      cache.set(name, found);
      return found;
    },
  };
}

/** The real check, for the composition root: `accessSync(path, X_OK)` on a regular file. */
export function createFsExecutableCheck(fs: {
  accessSync(path: string, mode: number): void;
  statSync(path: string): { isFile(): boolean };
}): (path: string) => boolean {
  return (path) => {
    try {
      fs.accessSync(path, constants.X_OK);
      return fs.statSync(path).isFile();
    } catch {
      return false;
    }
  };
}

/** `./ls` or `bin/tool` spelled by the user resolves against the working folder. */
export function resolveSpelledPath(cwd: string, text: string, home: string | undefined): string {
  const expanded = text.startsWith('~/') && home ? join(home, text.slice(2)) : text;
  return resolve(cwd, expanded);
}
