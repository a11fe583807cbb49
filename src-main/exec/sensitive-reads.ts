// Folders and files whose contents are keys: reading them needs a person, whatever the allowlist says.
import { posix } from 'node:path';
import type { Finding } from './analysis-types.js';
import { globRegExp, hasGlob, type TargetPlace } from './floor-targets.js';
import type { WordValues } from './word-values.js';

/**
 * Under the home folder: SSH and GPG keys, cloud and registry credentials, password
 * stores and keyrings, browser profiles (cookies and saved passwords). The gateway's
 * own identity folder and secret store come in through `extra` (HEARTH_HOME can be
 * anywhere); `~/.hearth` is listed for the default.
 */
export const sensitiveHomePaths = [
  '.ssh',
  '.gnupg',
  '.aws',
  '.azure',
  '.config/gcloud',
  '.kube',
  '.docker/config.json',
  '.netrc',
  '.git-credentials',
  '.npmrc',
  '.pypirc',
  '.password-store',
  '.local/share/keyrings',
  '.mozilla',
  '.config/google-chrome',
  '.config/chromium',
  '.config/BraveSoftware',
  '.config/microsoft-edge',
  'snap/firefox',
  'Library/Keychains',
  'Library/Application Support/Google/Chrome',
  'Library/Application Support/Firefox',
  'Library/Cookies',
  '.hearth/identity',
  '.hearth/state/secrets.enc.json',
];

/** Outside home, read only by root but agents may run as root (containers). */
const sensitiveSystemPaths = ['/etc/shadow', '/etc/gshadow', '/etc/sudoers'];

/** Programs that read a whole tree when given a folder above a sensitive one (`tar czf x ~`). */
const treeReaders = /^(tar|zip|7z|7za|cp|rsync|scp|rclone|rg|ag|grep|egrep|zgrep|restic|borg|duplicity)$/;

/**
 * A command (or a `<` redirect, base `<`) whose arguments name a sensitive path, a
 * path inside one, or a glob that could match one (`cat ~/.ss*\/id_*`). Working
 * folders count too: after `cd ~/.ssh`, `cat id_rsa` reads a key. Tree readers
 * given a folder above one (`tar czf out.tgz ~`, `grep -r key ~`) read it as well.
 */
export function sensitiveReadFindings(
  base: string,
  words: WordValues[],
  place: TargetPlace,
  extra: readonly string[],
): Finding[] {
  const roots = sensitiveRoots(place.home, extra);
  if (roots.length === 0) return [];
  const inside = (path: string) => roots.find((root) => covers(root, path));
  for (const cwd of place.cwds) {
    const root = inside(cwd);
    if (root) return [finding(`${base === '<' ? 'a redirect' : base} runs inside ${shown(root, place.home)}`)];
  }
  // cp/rsync/scp write to their last operand; only the others are read.
  const read = /^(cp|rsync|scp|rclone)$/.test(base) ? words.slice(0, -1) : words;
  for (const word of read) {
    for (const value of word.values) {
      if (value === '' || (value.startsWith('-') && !value.includes('='))) continue;
      // `--key-file=~/.ssh/x`, `-F f=@~/.ssh/id_rsa` (curl), `@path`, `host:path`: the path part too.
      const parts = new Set([value, value.slice(value.lastIndexOf('=') + 1), value.slice(value.indexOf(':') + 1)]);
      for (const absolute of [...parts].flatMap((part) => absolutes(part.replace(/^@/, ''), place))) {
        const root = inside(absolute);
        if (root)
          return [finding(`${base === '<' ? 'a redirect' : base} reads ${word.raw} (${shown(root, place.home)})`)];
        if (treeReaders.test(base) && roots.some((candidate) => covers(absolute, candidate)) && absolute !== '/')
          return [
            finding(
              `${base} reads ${word.raw}, which holds ${shown(roots.find((r) => covers(absolute, r)) ?? '', place.home)}`,
            ),
          ];
      }
    }
  }
  return [];
}

function finding(detail: string): Finding {
  return {
    code: 'sensitive-read',
    detail: `${detail}: keys and credentials, a person must allow it`,
    severity: 'person',
  };
}

function sensitiveRoots(home: string | undefined, extra: readonly string[]): string[] {
  const roots = [...sensitiveSystemPaths, ...extra.map((path) => posix.normalize(path))];
  if (home) roots.push(...sensitiveHomePaths.map((path) => posix.join(home, path)));
  return roots;
}

function absolutes(value: string, place: TargetPlace): string[] {
  if (value.startsWith('/')) return [posix.normalize(value)];
  if (value === '~' || value.startsWith('~/')) return place.home ? [posix.normalize(place.home + value.slice(1))] : [];
  return place.cwds.map((cwd) => posix.join(cwd, value));
}

/** `path` is `root` or inside it; glob segments in `path` match any name they could. */
function covers(root: string, path: string): boolean {
  const rootParts = root.split('/').filter(Boolean);
  const pathParts = path.split('/').filter(Boolean);
  if (pathParts.length < rootParts.length) {
    // A glob that ends early can still reach inside (`~/.s*` takes in ~/.ssh).
    if (!hasGlob(pathParts.at(-1) ?? '')) return false;
  }
  return rootParts.every((part, index) => {
    const candidate = pathParts[index];
    if (candidate === undefined) return index >= pathParts.length && hasGlob(pathParts.at(-1) ?? '');
    if (!hasGlob(candidate)) return candidate === part;
    // Bash globs skip dotfiles unless the pattern itself starts with a dot.
    if (part.startsWith('.') && !candidate.startsWith('.')) return false;
    return globRegExp(candidate).test(part);
  });
}

function shown(root: string, home: string | undefined): string {
  return home && root.startsWith(`${home}/`) ? `~${root.slice(home.length)}` : root;
}
