/**
 * Which workspace files a run injects (ARCHITECTURE.md "Constants from the seed").
 * Order is fixed (identity first, memory last) so the system prompt is byte-stable turn to turn.
 */
export const BOOTSTRAP_FILE_ORDER = [
  'IDENTITY.md',
  'SOUL.md',
  'USER.md',
  'AGENTS.md',
  'TOOLS.md',
  'MEMORY.md',
  'HEARTBEAT.md',
  'BOOTSTRAP.md',
] as const;

/** Every template seeded into a new workspace (DREAMS.md is written by Dreaming, read on demand). */
export const WORKSPACE_TEMPLATE_FILES = [...BOOTSTRAP_FILE_ORDER, 'DREAMS.md'] as const;

/** Files about a person rather than the agent: per-user memory reads them from the person's folder. */
export const PERSONAL_BOOTSTRAP_FILES: readonly string[] = ['USER.md', 'MEMORY.md'];

/**
 * Puts each personal file (USER.md, MEMORY.md) in the session's personal folders, in order:
 * `['']` is the workspace root (the default), `['users/alice']` a person's own copy, `[]` none at
 * all. Other files stay at the root, where they describe the agent.
 */
export function placePersonalFiles(files: readonly string[], folders: readonly string[] = ['']): string[] {
  for (const folder of folders) if (folder) assertWorkspaceRelative(folder);
  return files.flatMap((file) =>
    PERSONAL_BOOTSTRAP_FILES.includes(file) ? folders.map((folder) => (folder ? `${folder}/${file}` : file)) : [file],
  );
}

/** Subagent and cron sessions see only these: who they are and how to work, nothing personal-history. */
export const MINIMAL_BOOTSTRAP_ALLOWLIST: readonly string[] = [
  'AGENTS.md',
  'TOOLS.md',
  'SOUL.md',
  'IDENTITY.md',
  'USER.md',
];

export type BootstrapRunKind = 'default' | 'heartbeat' | 'cron';
export type BootstrapSessionKind = 'main' | 'subagent' | 'cron';

export interface BootstrapSelection {
  agentId: string;
  runKind: BootstrapRunKind;
  sessionKind: BootstrapSessionKind;
}

/** Lets plugins add, drop or reorder files; must return file names relative to the workspace. */
export type BootstrapFilesHook = (files: readonly string[], selection: BootstrapSelection) => readonly string[];

export interface SelectBootstrapFilesOptions {
  /** Files a cron run injects (default none: a cron job's prompt says what it needs). */
  cronFiles?: readonly string[];
  hooks?: readonly BootstrapFilesHook[];
}

export function selectBootstrapFiles(
  selection: BootstrapSelection,
  options: SelectBootstrapFilesOptions = {},
): string[] {
  let files: string[];
  switch (selection.runKind) {
    case 'default':
      files = [...BOOTSTRAP_FILE_ORDER];
      break;
    case 'heartbeat':
      files = ['HEARTBEAT.md'];
      break;
    case 'cron':
      files = [...(options.cronFiles ?? [])];
      break;
    default:
      throw new RangeError(
        `unknown bootstrap run kind: ${String(selection.runKind)} (expected default, heartbeat or cron)`,
      );
  }
  for (const hook of options.hooks ?? []) files = [...hook(files, selection)];
  if (selection.sessionKind === 'subagent' || selection.sessionKind === 'cron') {
    files = files.filter((file) => MINIMAL_BOOTSTRAP_ALLOWLIST.includes(file));
  }
  for (const file of files) assertWorkspaceRelative(file);
  return [...new Set(files)];
}

/** Hooks come from plugins: a path that leaves the workspace is refused, not followed. */
export function assertWorkspaceRelative(file: string): void {
  if (
    file.length === 0 ||
    file.startsWith('/') ||
    file.startsWith('\\') ||
    /^[A-Za-z]:/.test(file) ||
    file.split(/[\\/]/).includes('..')
  ) {
    throw new RangeError(`bootstrap file must be a path inside the workspace, got "${file}"`);
  }
}
