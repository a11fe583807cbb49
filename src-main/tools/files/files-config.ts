import { z } from 'zod';

/** `tools.files` in hearth.json. */
export const filesToolsConfigSchema = z
  .object({
    /** Folders beyond the workspace the tools use without asking (absolute or `~/…`). */
    roots: z.array(z.string().min(1)).default([]),
  })
  .strict();

export type FilesToolsConfig = z.infer<typeof filesToolsConfigSchema>;
