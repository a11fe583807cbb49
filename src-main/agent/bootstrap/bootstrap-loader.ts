import { statSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import {
  DEFAULT_BOOTSTRAP_MAX_CHARS,
  DEFAULT_BOOTSTRAP_TOTAL_MAX_CHARS,
  truncateBootstrapText,
} from './truncate-bootstrap.js';
import {
  type BootstrapSelection,
  placePersonalFiles,
  type SelectBootstrapFilesOptions,
  selectBootstrapFiles,
} from './workspace-files.js';

/** Below this many characters of budget, an oversized file is left out rather than cut to a stub. */
export const MIN_TRUNCATED_FILE_CHARS = 200;

export interface BootstrapFile {
  name: string;
  /** Missing files are simply absent from the prompt (BOOTSTRAP.md after onboarding, for instance). */
  missing: boolean;
  rawChars: number;
  injectedChars: number;
  truncated: boolean;
  /** Left out entirely because the total budget was spent. */
  omitted: boolean;
  content: string;
}

export interface BootstrapResult {
  files: BootstrapFile[];
  /** The block for the system prompt; identical bytes while the files are unchanged. */
  text: string;
  /** Which files were cut by how much; drives the "once" truncation warning. Empty when nothing was cut. */
  truncationSignature: string;
}

export interface FileProbe {
  stat(path: string): Promise<{ mtimeMs: number; size: number } | undefined>;
  readFile(path: string): Promise<string>;
}

export const nodeFileProbe: FileProbe = {
  // Every turn stats each workspace file: a local stat takes microseconds, while the promise form's
  // thread-pool round trip cost ~0.05 ms of CPU per file, the largest share of a warm turn's file work.
  stat: async (path) => {
    try {
      const s = statSync(path, { throwIfNoEntry: false });
      return s && { mtimeMs: s.mtimeMs, size: s.size };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOTDIR') return undefined;
      throw error;
    }
  },
  readFile: (path) => readFile(path, 'utf8'),
};

export interface BootstrapLoaderOptions extends SelectBootstrapFilesOptions {
  workspaceDir: string;
  maxChars?: number;
  totalMaxChars?: number;
  probe?: FileProbe;
}

export interface BootstrapLoadInput extends BootstrapSelection {
  sessionKey: string;
  /**
   * Workspace-relative folders whose USER.md and MEMORY.md this session sees (`placePersonalFiles`);
   * default the workspace root. Must be the same for every load of a session key.
   */
  personalFolders?: readonly string[];
}

export interface BootstrapLoader {
  load(input: BootstrapLoadInput): Promise<BootstrapResult>;
  /** For a file watcher: drop one session's cache, or all. */
  invalidate(sessionKey?: string): void;
}

interface CacheEntry {
  key: string;
  result: BootstrapResult;
}

/**
 * Loads the workspace files for a session under the per-file and total budgets. Results are
 * cached per session key and re-read only when a file's mtime or size changes (one stat per
 * file per turn), so an unchanged workspace yields the same prompt bytes every turn.
 */
export function createBootstrapLoader(options: BootstrapLoaderOptions): BootstrapLoader {
  const maxChars = options.maxChars ?? DEFAULT_BOOTSTRAP_MAX_CHARS;
  const totalMaxChars = options.totalMaxChars ?? DEFAULT_BOOTSTRAP_TOTAL_MAX_CHARS;
  if (!Number.isInteger(maxChars) || maxChars <= 0)
    throw new RangeError(`maxChars must be a positive integer, got ${String(maxChars)}`);
  if (!Number.isInteger(totalMaxChars) || totalMaxChars <= 0) {
    throw new RangeError(`totalMaxChars must be a positive integer, got ${String(totalMaxChars)}`);
  }
  const probe = options.probe ?? nodeFileProbe;
  const cache = new Map<string, CacheEntry>();

  return {
    async load(input) {
      const names = placePersonalFiles(selectBootstrapFiles(input, options), input.personalFolders);
      const stats = await Promise.all(names.map((name) => probe.stat(join(options.workspaceDir, name))));
      const key = names.map((name, i) => `${name}:${stats[i]?.mtimeMs ?? '-'}:${stats[i]?.size ?? '-'}`).join('|');
      const cached = cache.get(input.sessionKey);
      if (cached && cached.key === key) return cached.result;

      const files: BootstrapFile[] = [];
      let remaining = totalMaxChars;
      for (const [i, name] of names.entries()) {
        if (!stats[i]) {
          files.push({
            name,
            missing: true,
            rawChars: 0,
            injectedChars: 0,
            truncated: false,
            omitted: false,
            content: '',
          });
          continue;
        }
        const raw = (await probe.readFile(join(options.workspaceDir, name))).trim();
        const budget = Math.min(maxChars, remaining);
        // A few dozen characters of a cut file mislead more than they help: leave it out and say so.
        if (raw.length > budget && budget < MIN_TRUNCATED_FILE_CHARS) {
          files.push({
            name,
            missing: false,
            rawChars: raw.length,
            injectedChars: 0,
            truncated: true,
            omitted: true,
            content: '',
          });
          continue;
        }
        const cut = truncateBootstrapText(name, raw, budget);
        remaining -= cut.keptChars;
        files.push({
          name,
          missing: false,
          rawChars: cut.rawChars,
          injectedChars: cut.keptChars,
          truncated: cut.truncated,
          omitted: false,
          content: cut.text,
        });
      }
      const result: BootstrapResult = {
        files,
        text: renderBootstrap(files),
        truncationSignature: truncationSignature(files),
      };
      cache.set(input.sessionKey, { key, result });
      return result;
    },
    invalidate(sessionKey) {
      if (sessionKey === undefined) cache.clear();
      else cache.delete(sessionKey);
    },
  };
}

export function renderBootstrap(files: readonly BootstrapFile[]): string {
  const present = files.filter((f) => !f.missing && !f.omitted && f.content.length > 0);
  if (present.length === 0) return '';
  return [
    '# Workspace files',
    'Your files; edit them with tools to change who you are or what you remember.',
    ...present.map((f) => `## ${f.name}\n${f.content}`),
  ].join('\n\n');
}

export function truncationSignature(files: readonly BootstrapFile[]): string {
  return files
    .filter((f) => f.truncated)
    .map((f) => `${f.name}:${f.rawChars}>${f.injectedChars}`)
    .join(';');
}
