import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import { writeFileAtomic } from '../fs/atomic-write.js';
import { type AllowlistEntry, allowlistEntrySchema } from './exec-policy.js';

const storeFileSchema = z.object({
  version: z.literal(1),
  agents: z.record(z.string(), z.object({ allowlist: z.array(allowlistEntrySchema) })),
});

type StoreFile = z.infer<typeof storeFileSchema>;

/**
 * "Allow always" answers, per agent, in `state/exec-approvals.json`. Kept apart
 * from hearth.json so an approval never rewrites the user's hand-edited config;
 * the effective allowlist is config entries plus these.
 */
export interface AllowlistStore {
  entries(agentId: string): AllowlistEntry[];
  /** Adds (once) and persists before resolving, so a crash right after cannot lose it. */
  add(agentId: string, entry: AllowlistEntry): Promise<void>;
}

export function approvalsFilePath(stateDir: string): string {
  return join(stateDir, 'exec-approvals.json');
}

export async function openAllowlistStore(stateDir: string): Promise<AllowlistStore> {
  const path = approvalsFilePath(stateDir);
  let data: StoreFile = { version: 1, agents: {} };
  let text: string | undefined;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  if (text !== undefined) {
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      throw new Error(`${path} is not valid JSON`);
    }
    const parsed = storeFileSchema.safeParse(json);
    if (!parsed.success) throw new Error(`${path} is not an exec approvals file: ${parsed.error.issues[0]?.message}`);
    data = parsed.data;
  }
  // Serialise writes: two quick "allow always" answers must both land.
  let writing: Promise<void> = Promise.resolve();
  return {
    entries: (agentId) => [...(data.agents[agentId]?.allowlist ?? [])],
    add(agentId, entry) {
      data.agents[agentId] ??= { allowlist: [] };
      const agent = data.agents[agentId];
      const exists = agent.allowlist.some(
        (existing) => existing.pattern === entry.pattern && existing.argPattern === entry.argPattern,
      );
      if (!exists) agent.allowlist.push({ ...entry });
      const snapshot = `${JSON.stringify(data, null, 2)}\n`;
      writing = writing.catch(() => undefined).then(() => writeFileAtomic(path, snapshot));
      return writing;
    },
  };
}
