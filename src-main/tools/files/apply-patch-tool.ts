import { randomBytes } from 'node:crypto';
import { mkdir, open, readFile, rename, rm, stat, unlink } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { z } from 'zod';
import type { ToolContext, ToolDefinition } from '../tool.js';
import { type FileAccess, FileToolError } from './file-access.js';
import { fileToolResult } from './file-tool-result.js';
import { assertTextFile } from './text-file.js';
import { nonEmpty } from './tool-input.js';
import { applyHunks, parseUnifiedDiff } from './unified-diff.js';

export const applyPatchToolInputSchema = z.object({ patch: nonEmpty('patch') });
export type ApplyPatchToolInput = z.infer<typeof applyPatchToolInputSchema>;

/** What one file becomes: new text, or removed (`text` undefined). */
interface Planned {
  path: string;
  shown: string;
  text?: string;
  /** The content before, to put back if a later file fails; undefined when the file is new. */
  original?: string;
  mode: number;
  verb: 'created' | 'patched' | 'deleted';
}

/**
 * `apply_patch`: a unified diff over one or more files, all or none. Every hunk of every file
 * is matched first (the same path rules as write and edit); only when all fit is anything
 * written, and a failure while writing puts back the files already changed.
 */
export function createApplyPatchTool(access: FileAccess): ToolDefinition<ApplyPatchToolInput> {
  return {
    name: 'apply_patch',
    description: 'Apply a unified diff (--- a/f, +++ b/f, @@ hunks) to one or more files; all or none.',
    inputSchema: applyPatchToolInputSchema,
    execute: (input, context) =>
      fileToolResult('patch', async () => {
        const plans = await plan(input.patch, access, context);
        await commit(plans);
        return plans.map((entry) => `${entry.verb} ${entry.shown}`).join('\n');
      }),
  };
}

async function plan(patch: string, access: FileAccess, context: ToolContext): Promise<Planned[]> {
  const plans: Planned[] = [];
  const seen = new Set<string>();
  for (const file of parseUnifiedDiff(patch)) {
    const target = file.newPath ?? file.oldPath!;
    const { path, shown } = await access.check(target, 'write', 'apply_patch', context);
    if (seen.has(path))
      throw new FileToolError(`apply_patch: ${shown} appears twice in the patch; give each file one diff`);
    seen.add(path);
    if (file.oldPath && file.newPath && file.oldPath !== file.newPath)
      throw new FileToolError(
        `apply_patch: ${file.oldPath} → ${file.newPath} is a rename; patch the file in place and rename it with exec`,
      );
    const info = await stat(path).catch(() => undefined);
    if (info?.isDirectory()) throw new FileToolError(`apply_patch: ${shown} is a folder`);
    if (!file.oldPath) {
      if (info)
        throw new FileToolError(`apply_patch: ${shown} already exists, but the patch creates it (--- /dev/null)`);
      plans.push({ path, shown, text: applyHunks('', file.hunks, shown), mode: 0o644, verb: 'created' });
      continue;
    }
    if (!info)
      throw new FileToolError(`apply_patch: ${shown}: no such file (a new file's diff starts with --- /dev/null)`);
    await assertTextFile(path, shown, 'apply_patch');
    const original = await readFile(path, 'utf8');
    const text = applyHunks(original, file.hunks, shown);
    if (!file.newPath) {
      if (text !== '')
        throw new FileToolError(`apply_patch: the patch deletes ${shown} but does not remove all of its lines`);
      plans.push({ path, shown, original, mode: info.mode & 0o7777, verb: 'deleted' });
    } else plans.push({ path, shown, text, original, mode: info.mode & 0o7777, verb: 'patched' });
  }
  return plans;
}

/** Temp files for all first (nothing visible yet), then the renames; a failed rename puts back the rest. */
async function commit(plans: readonly Planned[]): Promise<void> {
  const temps = new Map<Planned, string>();
  try {
    for (const entry of plans) if (entry.text !== undefined) temps.set(entry, await stage(entry));
  } catch (error) {
    await Promise.all([...temps.values()].map((temp) => rm(temp, { force: true })));
    throw error;
  }
  const done: Planned[] = [];
  try {
    for (const entry of plans) {
      const temp = temps.get(entry);
      if (temp) await rename(temp, entry.path);
      else await unlink(entry.path);
      temps.delete(entry);
      done.push(entry);
    }
  } catch (error) {
    await Promise.all([...temps.values()].map((temp) => rm(temp, { force: true })));
    for (const entry of done.reverse()) {
      if (entry.original === undefined) await rm(entry.path, { force: true });
      else await writeBack(entry);
    }
    throw error;
  }
}

async function stage(entry: Planned): Promise<string> {
  const dir = dirname(entry.path);
  await mkdir(dir, { recursive: true });
  const temp = join(dir, `.${randomBytes(6).toString('hex')}.tmp`);
  const handle = await open(temp, 'w', entry.mode);
  try {
    await handle.writeFile(entry.text ?? '');
    await handle.sync();
  } finally {
    await handle.close();
  }
  return temp;
}

async function writeBack(entry: Planned): Promise<void> {
  const temp = await stage({ ...entry, text: entry.original });
  await rename(temp, entry.path);
}
