import { randomUUID } from 'node:crypto';
import { constants } from 'node:fs';
import { lstat, mkdir, open, readdir, realpath, rename, rm } from 'node:fs/promises';
import { basename, extname, join, sep } from 'node:path';

/** Why a canvas path was refused; the tools turn it into an error result the model reads. */
export class CanvasPathError extends Error {}

/** What the canvas holds: pages, their styles and scripts, markdown, images. */
export const CANVAS_EXTENSIONS = [
  '.html',
  '.htm',
  '.css',
  '.js',
  '.mjs',
  '.json',
  '.md',
  '.txt',
  '.svg',
  '.png',
  '.jpg',
  '.jpeg',
  '.gif',
  '.webp',
] as const;

export const IMAGE_EXTENSIONS = new Set(['.png', '.jpg', '.jpeg', '.gif', '.webp']);

/**
 * The segments of a path relative to the canvas folder. Refused: absolute paths, `..` and `.`,
 * backslashes, NUL, empty names, hidden names (`.git`, `.env`): the canvas is served as it is.
 */
export function canvasSegments(path: string): string[] {
  if (path.includes('\0') || path.includes('\\'))
    throw new CanvasPathError(`"${path}": no NUL or backslash in a canvas path`);
  if (path.startsWith('/'))
    throw new CanvasPathError(`"${path}" is absolute: give a path inside the canvas, e.g. "index.html"`);
  const segments = path.split('/').filter((segment) => segment.length > 0);
  if (segments.length === 0) throw new CanvasPathError('the path is empty');
  for (const segment of segments) {
    if (segment === '..' || segment === '.') throw new CanvasPathError(`"${path}" leaves the canvas folder`);
    if (segment.startsWith('.')) throw new CanvasPathError(`"${path}": hidden names are not allowed on the canvas`);
  }
  return segments;
}

async function realRoot(root: string): Promise<string> {
  await mkdir(root, { recursive: true });
  return realpath(root);
}

/**
 * Walks `segments` under `root` without following symlinks: each existing component must be a
 * real folder (created when missing and `create`). A symlink anywhere is refused,
 * so nothing the tools do reaches outside the folder.
 */
async function walk(root: string, segments: readonly string[], create: boolean): Promise<string> {
  let current = root;
  for (const segment of segments) {
    current = join(current, segment);
    const info = await lstat(current).catch(() => undefined);
    if (!info) {
      if (!create) throw new CanvasPathError(`no such folder on the canvas: ${segments.join('/')}`);
      await mkdir(current);
      continue;
    }
    if (info.isSymbolicLink()) throw new CanvasPathError(`${segment} is a symbolic link: refused on the canvas`);
    if (!info.isDirectory()) throw new CanvasPathError(`${segment} is a file, not a folder`);
  }
  const real = await realpath(current);
  if (real !== root && !real.startsWith(root + sep)) throw new CanvasPathError('the path leaves the canvas folder');
  return real;
}

/** Writes a file atomically (a temp file renamed over it), so the watcher and the page never see half of it. */
export async function writeCanvasFile(canvasDir: string, path: string, data: Buffer): Promise<string> {
  const segments = canvasSegments(path);
  const name = segments.at(-1)!;
  const extension = extname(name).toLowerCase();
  if (!(CANVAS_EXTENSIONS as readonly string[]).includes(extension)) {
    throw new CanvasPathError(`"${name}": the canvas takes ${CANVAS_EXTENSIONS.join(' ')} files`);
  }
  const root = await realRoot(canvasDir);
  const folder = await walk(root, segments.slice(0, -1), true);
  const target = join(folder, name);
  const existing = await lstat(target).catch(() => undefined);
  if (existing?.isSymbolicLink()) throw new CanvasPathError(`${path} is a symbolic link: refused on the canvas`);
  if (existing && !existing.isFile()) throw new CanvasPathError(`${path} is a folder`);
  const temp = join(folder, `.${basename(name)}.${randomUUID().slice(0, 8)}.tmp`);
  const handle = await open(
    temp,
    constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW,
    0o644,
  );
  try {
    await handle.writeFile(data);
  } finally {
    await handle.close();
  }
  try {
    await rename(temp, target);
  } catch (error) {
    await rm(temp, { force: true });
    throw error;
  }
  return target;
}

/**
 * A file's bytes, refusing what the canvas's HTTP route refuses: symlinks, and files with more
 * than one hard link (a second name of a file elsewhere, e.g. a key; docs/SECURITY.md "Canvas").
 */
export async function readCanvasFile(
  canvasDir: string,
  path: string,
  maxBytes: number,
): Promise<{ data: Buffer; size: number }> {
  const segments = canvasSegments(path);
  const root = await realRoot(canvasDir);
  const folder = await walk(root, segments.slice(0, -1), false);
  const target = join(folder, segments.at(-1)!);
  let handle: Awaited<ReturnType<typeof open>>;
  try {
    handle = await open(target, constants.O_RDONLY | constants.O_NOFOLLOW);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') throw new CanvasPathError(`no such file on the canvas: ${path}`);
    if (code === 'ELOOP') throw new CanvasPathError(`${path} is a symbolic link: refused on the canvas`);
    throw error;
  }
  try {
    const info = await handle.stat();
    if (!info.isFile()) throw new CanvasPathError(`${path} is not a file`);
    if (info.nlink > 1) throw new CanvasPathError(`${path} has another name outside the canvas (a hard link): refused`);
    const size = info.size;
    const buffer = Buffer.alloc(Math.min(size, maxBytes));
    await handle.read(buffer, 0, buffer.length, 0);
    return { data: buffer, size };
  } finally {
    await handle.close();
  }
}

/** Removes one file or folder of the canvas (a symlink itself, never what it points to), or everything in it. */
export async function clearCanvas(canvasDir: string, path?: string): Promise<number> {
  const root = await realRoot(canvasDir);
  if (path === undefined) {
    const names = await readdir(root);
    for (const name of names) await rm(join(root, name), { recursive: true, force: true });
    return names.length;
  }
  const segments = canvasSegments(path);
  const folder = await walk(root, segments.slice(0, -1), false);
  const target = join(folder, segments.at(-1)!);
  if (!(await lstat(target).catch(() => undefined))) throw new CanvasPathError(`no such file on the canvas: ${path}`);
  await rm(target, { recursive: true, force: true });
  return 1;
}

/** Every file under the canvas, with sizes (symlinks shown as such, not followed). */
export async function listCanvas(
  canvasDir: string,
  limit: number,
): Promise<{ path: string; size: number; note?: string }[]> {
  const root = await realRoot(canvasDir);
  const out: { path: string; size: number; note?: string }[] = [];
  const visit = async (dir: string, prefix: string): Promise<void> => {
    const entries = (await readdir(dir, { withFileTypes: true })).sort((a, b) => a.name.localeCompare(b.name));
    for (const entry of entries) {
      if (out.length >= limit) return;
      const rel = prefix ? `${prefix}/${entry.name}` : entry.name;
      if (entry.name.startsWith('.')) continue;
      if (entry.isDirectory()) await visit(join(dir, entry.name), rel);
      else if (entry.isSymbolicLink()) out.push({ path: rel, size: 0, note: 'symbolic link, not served' });
      else if (entry.isFile()) {
        const info = await lstat(join(dir, entry.name));
        out.push({ path: rel, size: info.size, ...(info.nlink > 1 ? { note: 'hard link, not served' } : {}) });
      }
    }
  };
  await visit(root, '');
  return out;
}
