import { appendFile, mkdir, open, readdir, readFile, stat } from 'node:fs/promises';
import { dirname, join, normalize, sep } from 'node:path';
import { writeFileAtomic } from '../fs/atomic-write.js';
import type { MemoryScope } from './memory-scope.js';

/** The two layers on disk: daily notes under memory/ (recall) and MEMORY.md / USER.md (static). */
export const STATIC_FILES = ['MEMORY.md', 'USER.md'] as const;
const DAILY = /^(\d{4}-\d{2}-\d{2})(?:-[a-z0-9][a-z0-9-]*)?\.md$/;

export interface MemoryFileEntry {
  /** Workspace-relative, forward slashes. */
  path: string;
  size: number;
  mtimeMs: number;
  kind: 'static' | 'daily';
  date?: string;
}

/** The local calendar date of an instant (daily files follow the user's day, not UTC's). */
export function localDate(epochMs: number): string {
  const date = new Date(epochMs);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
}

/** YYYY-MM-DD for a dated daily note, undefined for evergreen files. */
export function dateOfPath(path: string): string | undefined {
  const name = path.split('/').pop() ?? '';
  return /(^|\/)memory\/[^/]+$/.test(path) ? DAILY.exec(name)?.[1] : undefined;
}

export function dailyPath(scope: MemoryScope, date: string, slug?: string): string {
  const cleanSlug = slug
    ?.toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 48);
  const name = cleanSlug ? `${date}-${cleanSlug}.md` : `${date}.md`;
  return join(scope.root, 'memory', name).split(sep).join('/');
}

export function staticPath(scope: MemoryScope, name: (typeof STATIC_FILES)[number] = 'MEMORY.md'): string {
  return join(scope.root, name).split(sep).join('/');
}

/**
 * Resolves a client-supplied relative path inside the workspace; only memory markdown is
 * reachable (MEMORY.md, USER.md, memory/*.md, and the same under users/<id>/).
 */
export function resolveMemoryPath(workspaceDir: string, relativePath: string): string {
  const clean = normalize(relativePath).split(sep).join('/');
  if (clean.startsWith('..') || clean.startsWith('/') || relativePath.includes('\0'))
    throw new Error(`memory path escapes the workspace: ${relativePath}`);
  if (!isMemoryPath(clean))
    throw new Error(`not a memory file: ${relativePath} (expected MEMORY.md, USER.md or memory/*.md)`);
  return join(workspaceDir, clean);
}

export function isMemoryPath(path: string): boolean {
  const inner = path.replace(/^users\/[A-Za-z0-9][A-Za-z0-9_.-]*\//, '');
  return (STATIC_FILES as readonly string[]).includes(inner) || /^memory\/[^/]+\.md$/.test(inner);
}

/** Every memory file of the workspace (all scopes); dreaming reports and state are not memory. */
export async function listMemoryFiles(workspaceDir: string): Promise<MemoryFileEntry[]> {
  const roots = [''];
  for (const entry of await readdirSafe(join(workspaceDir, 'users')))
    if (entry.isDirectory()) roots.push(`users/${entry.name}`);
  const out: MemoryFileEntry[] = [];
  for (const root of roots) {
    const prefix = root ? `${root}/` : '';
    for (const name of STATIC_FILES) {
      const info = await statSafe(join(workspaceDir, root, name));
      if (info?.isFile())
        out.push({ path: `${prefix}${name}`, size: info.size, mtimeMs: info.mtimeMs, kind: 'static' });
    }
    for (const entry of await readdirSafe(join(workspaceDir, root, 'memory'))) {
      if (!entry.isFile() || !entry.name.endsWith('.md')) continue;
      const path = `${prefix}memory/${entry.name}`;
      const info = await statSafe(join(workspaceDir, path));
      if (info) out.push({ path, size: info.size, mtimeMs: info.mtimeMs, kind: 'daily', date: dateOfPath(path) });
    }
  }
  return out.sort((a, b) => a.path.localeCompare(b.path));
}

/** Dreaming's own output: readable (the Dreams view shows it), never written through the memory API. */
function isDreamingOutput(path: string): boolean {
  return path === 'DREAMS.md' || /^memory\/dreaming\/(light|rem|deep)\/[^/]+\.md$/.test(path);
}

export async function readMemoryFile(workspaceDir: string, relativePath: string): Promise<string> {
  const clean = normalize(relativePath).split(sep).join('/');
  if (isDreamingOutput(clean) && !relativePath.includes('\0')) return readFile(join(workspaceDir, clean), 'utf8');
  return readFile(resolveMemoryPath(workspaceDir, relativePath), 'utf8');
}

export async function writeMemoryFile(workspaceDir: string, relativePath: string, content: string): Promise<void> {
  await writeFileAtomic(resolveMemoryPath(workspaceDir, relativePath), content, 0o600);
}

/** Append-only: a note added while the user edits the file by hand never overwrites their edit. */
export async function appendMemoryFile(workspaceDir: string, relativePath: string, text: string): Promise<void> {
  const absolute = resolveMemoryPath(workspaceDir, relativePath);
  await mkdir(dirname(absolute), { recursive: true });
  const existing = await statSafe(absolute);
  let prefix = '';
  if (existing && existing.size > 0) {
    const tail = await readTail(absolute, existing.size);
    prefix = tail.endsWith('\n') ? '' : '\n';
  }
  await appendFile(absolute, `${prefix}${text.endsWith('\n') ? text : `${text}\n`}`, { mode: 0o600 });
}

async function readTail(path: string, size: number): Promise<string> {
  const handle = await open(path, 'r');
  try {
    const buffer = Buffer.alloc(1);
    await handle.read(buffer, 0, 1, size - 1);
    return buffer.toString('utf8');
  } finally {
    await handle.close();
  }
}

async function readdirSafe(dir: string) {
  try {
    return await readdir(dir, { withFileTypes: true });
  } catch {
    return [];
  }
}

async function statSafe(path: string) {
  try {
    return await stat(path);
  } catch {
    return undefined;
  }
}
