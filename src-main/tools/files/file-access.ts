import { realpath } from 'node:fs/promises';
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import type { ToolContext } from '../tool.js';

/** What a file tool is about to do with a path; the person sees it when asked. */
export type FileAccessMode = 'read' | 'write';

/** A refusal or an unusable path: the tool answers with the message, as an error result. */
export class FileToolError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'FileToolError';
  }
}

/** A place no file tool ever touches, with the name the model is told. */
export interface ForbiddenPlace {
  path: string;
  label: string;
}

/** One question to a person: may this tool touch this path outside the workspace? */
export interface FileAccessQuestion {
  agentId: string;
  sessionKey: string;
  tool: string;
  mode: FileAccessMode;
  /** Absolute, with symlinks and `..` resolved. */
  path: string;
  workspaceDir: string;
}

export interface FileAccessDeps {
  /** Never read, written or walked into: the identity folder, the secret store, `~/.ssh`. */
  forbidden: readonly ForbiddenPlace[];
  /** Where a person is asked every time, even inside the workspace or a granted folder (other credentials). */
  askAlways?: readonly string[];
  /** Folders beyond the workspace the person granted (`tools.files.roots`), read at each call. */
  grantedRoots?(agentId: string): readonly string[];
  /** The approval system: resolves true when a person (or their policy) allowed it. */
  ask(question: FileAccessQuestion, signal: AbortSignal): Promise<{ allowed: boolean; reason?: string }>;
  /** The user's home, for `~/` in paths. */
  home?: string;
}

/** A path a tool may use now: absolute and real (symlinks resolved). */
export interface AllowedPath {
  path: string;
  /** How the model named it, for messages: relative to the workspace when inside it. */
  shown: string;
  /** Where walks must not go (find, grep): real paths of the forbidden places. */
  forbidden: readonly string[];
}

/**
 * The one gate of every file tool. The path is made absolute (relative to the workspace,
 * `~/` expanded), `..` and symlinks resolved (for a file not yet there, its nearest existing
 * folder), and only then judged: a forbidden place is refused whatever anyone says; inside
 * the workspace or a granted folder it goes; anywhere else a person is asked.
 */
export class FileAccess {
  constructor(private readonly deps: FileAccessDeps) {}

  async check(rawPath: string, mode: FileAccessMode, tool: string, context: ToolContext): Promise<AllowedPath> {
    if (rawPath.includes('\0')) throw new FileToolError('path must not contain a NUL character');
    const workspace = await realOrSelf(resolve(context.workspaceDir));
    const path = await realPath(this.absolute(rawPath, workspace));
    const forbidden = await this.forbiddenReal();
    const place = forbidden.find((entry) => within(entry.path, path));
    if (place) throw new FileToolError(`refused: ${rawPath} is inside ${place.label}; file tools never touch it`);
    const shown = within(workspace, path) ? relative(workspace, path) || '.' : path;
    const forbiddenPaths = forbidden.map((entry) => entry.path);
    // Keys and credentials (~/.aws, browser profiles…): a person is asked even inside a granted folder.
    const sensitive = (this.deps.askAlways ?? []).map((root) => resolve(this.expand(root)));
    if (!sensitive.some((root) => within(root, path))) {
      if (within(workspace, path)) return { path, shown, forbidden: forbiddenPaths };
      const granted = await Promise.all(
        (this.deps.grantedRoots?.(context.agentId) ?? []).map((root) => realOrSelf(resolve(this.expand(root)))),
      );
      if (granted.some((root) => within(root, path))) return { path, shown, forbidden: forbiddenPaths };
    }
    const answer = await this.deps.ask(
      { agentId: context.agentId, sessionKey: context.sessionKey, tool, mode, path, workspaceDir: workspace },
      context.signal,
    );
    if (!answer.allowed)
      throw new FileToolError(
        `refused: ${path} is outside the workspace (or holds credentials) and was not allowed${answer.reason ? ` (${answer.reason})` : ''}`,
      );
    return { path, shown, forbidden: forbiddenPaths };
  }

  private absolute(rawPath: string, workspace: string): string {
    const expanded = this.expand(rawPath.trim() === '' ? '.' : rawPath);
    return isAbsolute(expanded) ? resolve(expanded) : resolve(workspace, expanded);
  }

  private expand(path: string): string {
    if (this.deps.home && (path === '~' || path.startsWith('~/'))) return join(this.deps.home, path.slice(1));
    return path;
  }

  private async forbiddenReal(): Promise<ForbiddenPlace[]> {
    const out: ForbiddenPlace[] = [];
    for (const place of this.deps.forbidden) {
      const lexical = resolve(place.path);
      out.push({ path: lexical, label: place.label });
      const real = await realPath(lexical);
      if (real !== lexical) out.push({ path: real, label: place.label });
    }
    return out;
  }
}

/** `path` is `root` or inside it (both absolute and normalised). */
export function within(root: string, path: string): boolean {
  return path === root || path.startsWith(root.endsWith(sep) ? root : root + sep);
}

async function realOrSelf(path: string): Promise<string> {
  try {
    return await realpath(path);
  } catch {
    return path;
  }
}

/**
 * The real path of `path`: symlinks resolved through its nearest existing ancestor, the
 * part that does not exist yet appended as written (already free of `..` by `resolve`).
 */
async function realPath(path: string): Promise<string> {
  const rest: string[] = [];
  let current = path;
  for (;;) {
    try {
      const real = await realpath(current);
      return rest.length === 0 ? real : join(real, ...rest.reverse());
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code !== 'ENOENT' && code !== 'ENOTDIR') throw error;
      const parent = dirname(current);
      if (parent === current) return path;
      rest.push(basename(current));
      current = parent;
    }
  }
}
