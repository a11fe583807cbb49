import { constants } from 'node:fs';
import { copyFile, mkdir, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { WORKSPACE_TEMPLATE_FILES } from './workspace-files.js';

export interface SeedWorkspaceResult {
  created: string[];
  /** True when the workspace had none of the files: first run, onboarding applies. */
  firstRun: boolean;
}

/**
 * Creates missing workspace files from the templates. Never overwrites: COPYFILE_EXCL makes
 * "exists" a refusal at the filesystem, so a user's edit is safe even against a racing seed.
 * BOOTSTRAP.md (onboarding) is seeded only into a brand-new workspace.
 */
export async function seedWorkspace(input: {
  workspaceDir: string;
  templatesDir: string;
}): Promise<SeedWorkspaceResult> {
  const { workspaceDir, templatesDir } = input;
  const templates = await readdir(templatesDir).catch((error: NodeJS.ErrnoException) => {
    throw new Error(`workspace templates folder ${templatesDir} cannot be read: ${error.code ?? error.message}`);
  });
  await mkdir(join(workspaceDir, 'memory'), { recursive: true });
  const existing = new Set(await readdir(workspaceDir));
  const firstRun = !WORKSPACE_TEMPLATE_FILES.some((file) => existing.has(file));
  const created: string[] = [];
  for (const file of WORKSPACE_TEMPLATE_FILES) {
    if (!templates.includes(file)) continue;
    if (file === 'BOOTSTRAP.md' && !firstRun) continue;
    try {
      await copyFile(join(templatesDir, file), join(workspaceDir, file), constants.COPYFILE_EXCL);
      created.push(file);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
  }
  return { created, firstRun };
}
