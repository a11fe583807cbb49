import type { Dirent } from 'node:fs';
import { readdir, readFile, stat } from 'node:fs/promises';
import { dirname, join, relative, sep } from 'node:path';
import ignore, { type Ignore } from 'ignore';
import { within } from './file-access.js';

/** One `.gitignore`: its rules apply to paths below its folder. */
interface IgnoreFile {
  base: string;
  rules: Ignore;
}

/** How far up `.gitignore` files are looked for when the walk starts inside a repository. */
const MAX_PARENT_LEVELS = 32;

export interface WalkEntry {
  /** Absolute. */
  path: string;
  /** From the walk's root, `/`-separated. */
  relativePath: string;
  isDirectory: boolean;
}

export interface WalkOptions {
  /** Folders never entered (the forbidden places). */
  skip: readonly string[];
  signal?: AbortSignal;
  /** Include what .gitignore rules exclude (the `.git` folder stays out). */
  includeIgnored?: boolean;
}

/**
 * Every file and folder under `root`, depth first in name order, as ripgrep sees them:
 * `.gitignore` rules (the root's own, those of parent folders up to the repository's top,
 * and nested ones) and `.git/info/exclude` are honoured, `.git` is never entered, symbolic
 * links are not followed (a link cannot lead a walk out of its folder).
 */
export async function* walk(root: string, options: WalkOptions): AsyncGenerator<WalkEntry> {
  const ignores = options.includeIgnored ? [] : await parentIgnores(root);
  yield* walkFolder(root, root, ignores, options);
}

async function* walkFolder(
  root: string,
  folder: string,
  ignores: readonly IgnoreFile[],
  options: WalkOptions,
): AsyncGenerator<WalkEntry> {
  options.signal?.throwIfAborted();
  let entries: Dirent[];
  try {
    entries = await readdir(folder, { withFileTypes: true });
  } catch {
    return; // unreadable folders are skipped, as rg does
  }
  const here = options.includeIgnored ? ignores : [...ignores, ...(await ignoreFileOf(folder))];
  entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  for (const entry of entries) {
    if (entry.isSymbolicLink()) continue;
    const path = join(folder, entry.name);
    const isDirectory = entry.isDirectory();
    if (isDirectory && entry.name === '.git') continue;
    if (options.skip.some((place) => within(place, path))) continue;
    if (isIgnored(here, path, isDirectory)) continue;
    const relativePath = relative(root, path).split(sep).join('/');
    yield { path, relativePath, isDirectory };
    if (isDirectory) yield* walkFolder(root, path, here, options);
  }
}

/** Deepest rule file first: a nested `!keep.log` re-includes what a parent ignored. */
export function isIgnored(ignores: readonly IgnoreFile[], path: string, isDirectory: boolean): boolean {
  for (let index = ignores.length - 1; index >= 0; index--) {
    const { base, rules } = ignores[index]!;
    if (!within(base, path) || base === path) continue;
    const rel = relative(base, path).split(sep).join('/') + (isDirectory ? '/' : '');
    const verdict = rules.test(rel);
    if (verdict.ignored) return true;
    if (verdict.unignored) return false;
  }
  return false;
}

async function ignoreFileOf(folder: string): Promise<IgnoreFile[]> {
  const texts: string[] = [];
  for (const name of ['.gitignore', '.ignore']) {
    const text = await readFile(join(folder, name), 'utf8').catch(() => undefined);
    if (text !== undefined) texts.push(text);
  }
  const exclude = await readFile(join(folder, '.git', 'info', 'exclude'), 'utf8').catch(() => undefined);
  if (exclude !== undefined) texts.unshift(exclude);
  return texts.length === 0 ? [] : [{ base: folder, rules: ignore().add(texts.join('\n')) }];
}

/** The rule files of the folders above `root`, up to the repository's top (the folder with `.git`). */
export async function parentIgnores(root: string): Promise<IgnoreFile[]> {
  const above: string[] = [];
  let current = root;
  for (let level = 0; level < MAX_PARENT_LEVELS; level++) {
    const isTop = await stat(join(current, '.git')).then(
      () => true,
      () => false,
    );
    if (isTop) return (await Promise.all(above.map(ignoreFileOf))).flat();
    const parent = dirname(current);
    if (parent === current) break;
    above.unshift(parent);
    current = parent;
  }
  return []; // not inside a repository: only the rules found from the root down apply
}

/** Rules that apply to the entries of `folder` (for list): those above it and its own. */
export async function ignoresFor(folder: string): Promise<IgnoreFile[]> {
  return [...(await parentIgnores(folder)), ...(await ignoreFileOf(folder))];
}
