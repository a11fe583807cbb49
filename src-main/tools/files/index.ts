import type { ToolDefinition } from '../tool.js';
import { createApplyPatchTool } from './apply-patch-tool.js';
import { createEditTool } from './edit-tool.js';
import { FileAccess, type FileAccessDeps } from './file-access.js';
import { createFindTool } from './find-tool.js';
import { createGrepTool } from './grep-tool.js';
import { createListTool } from './list-tool.js';
import { createReadTool, type ReadToolOptions } from './read-tool.js';
import { createWriteTool } from './write-tool.js';

export {
  FileAccess,
  type FileAccessDeps,
  type FileAccessMode,
  type FileAccessQuestion,
  FileToolError,
  type ForbiddenPlace,
} from './file-access.js';
export { askThroughApprovals } from './file-approval.js';
export { type FilesToolsConfig, filesToolsConfigSchema } from './files-config.js';

/** The stable names of the file tools, for the catalogue and config. */
export const fileToolNames = ['read', 'write', 'edit', 'apply_patch', 'list', 'find', 'grep'] as const;

/** read, write, edit, apply_patch, list, find, grep: one gate (FileAccess) for all of them. */
export function createFileTools(deps: FileAccessDeps & ReadToolOptions): ToolDefinition[] {
  const access = new FileAccess(deps);
  return [
    createReadTool(access, deps),
    createWriteTool(access),
    createEditTool(access),
    createApplyPatchTool(access),
    createListTool(access),
    createFindTool(access),
    createGrepTool(access),
  ] as ToolDefinition[];
}
