import { readdir, readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';

/** Why a file of the other tool could not be used; `detail` is the OS's or the parser's own words. */
export interface SourceFileProblem {
  state: 'bad';
  problem: 'unreadable' | 'invalid-json';
  detail: string;
}

/** A file of the other tool: absent, read, or unusable and why (for the report: import-reasons.ts fileReason). */
export type SourceFile<T> = { state: 'missing' } | { state: 'ok'; value: T } | SourceFileProblem;

export async function readSourceText(path: string): Promise<SourceFile<string>> {
  try {
    return { state: 'ok', value: await readFile(path, 'utf8') };
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return { state: 'missing' };
    return { state: 'bad', problem: 'unreadable', detail: code ?? (error as Error).message };
  }
}

export async function readSourceJson(
  path: string,
  parse: (text: string) => unknown = JSON.parse,
): Promise<SourceFile<unknown>> {
  const text = await readSourceText(path);
  if (text.state !== 'ok') return text;
  try {
    return { state: 'ok', value: parse(text.value) };
  } catch (error) {
    return { state: 'bad', problem: 'invalid-json', detail: (error as Error).message };
  }
}

/** Names of the entries of a folder; none when it does not exist. */
export async function listFolder(dir: string): Promise<{ name: string; isDirectory: boolean }[]> {
  try {
    const entries = await readdir(dir, { withFileTypes: true });
    return entries
      .map((entry) => ({ name: entry.name, isDirectory: entry.isDirectory() }))
      .sort((a, b) => a.name.localeCompare(b.name));
  } catch {
    return [];
  }
}

export async function isFolder(path: string): Promise<boolean> {
  return (await stat(path).catch(() => undefined))?.isDirectory() ?? false;
}

export async function isFile(path: string): Promise<boolean> {
  return (await stat(path).catch(() => undefined))?.isFile() ?? false;
}

export function record(value: unknown): Record<string, unknown> | undefined {
  return value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
}

export function text(value: unknown): string | undefined {
  return typeof value === 'string' && value.trim() !== '' ? value : undefined;
}

export function epochMs(value: unknown): number | undefined {
  if (typeof value === 'number' && Number.isFinite(value)) return value < 1e11 ? value * 1000 : value;
  if (typeof value === 'string') {
    const parsed = Date.parse(value);
    return Number.isNaN(parsed) ? undefined : parsed;
  }
  return undefined;
}

/** The workspace files both tools share with Hearth (BOOTSTRAP.md is Hearth's own first-run script). */
export const workspaceFileNames = [
  'IDENTITY.md',
  'SOUL.md',
  'USER.md',
  'AGENTS.md',
  'TOOLS.md',
  'MEMORY.md',
  'HEARTBEAT.md',
  'DREAMS.md',
] as const;

/** Daily notes and session archives: `memory/YYYY-MM-DD.md`, `memory/YYYY-MM-DD-slug.md`. */
export async function dailyNotes(workspace: string): Promise<string[]> {
  const entries = await listFolder(join(workspace, 'memory'));
  return entries
    .filter((entry) => !entry.isDirectory && /^\d{4}-\d{2}-\d{2}.*\.md$/.test(entry.name))
    .map((e) => e.name);
}

/** A Hearth session label from another tool's session id (lowercase, the label charset). */
export function sessionLabel(prefix: string, sourceId: string): string {
  const cleaned = sourceId
    .toLowerCase()
    .replace(/[^a-z0-9._@+-]+/g, '-')
    .replace(/\.{2,}/g, '.')
    .replace(/^[^a-z0-9]+/, '');
  return `${prefix}-${cleaned}`.slice(0, 128);
}

/**
 * The JSON-object lines of a JSONL transcript, each with its 1-based line number. Blank lines are
 * skipped; a line that is not a JSON object is counted in `malformedLines`, never fatal.
 */
export function jsonlRecords(content: string): {
  records: Array<{ entry: Record<string, unknown>; lineNumber: number }>;
  malformedLines: number;
} {
  const records: Array<{ entry: Record<string, unknown>; lineNumber: number }> = [];
  let malformedLines = 0;
  let lineNumber = 0;
  for (const line of content.split('\n')) {
    lineNumber += 1;
    if (!line.trim()) continue;
    let entry: Record<string, unknown> | undefined;
    try {
      entry = record(JSON.parse(line));
    } catch {
      entry = undefined;
    }
    if (entry) records.push({ entry, lineNumber });
    else malformedLines += 1;
  }
  return { records, malformedLines };
}
