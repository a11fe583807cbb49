import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { z } from 'zod';
import { HearthError } from '../base/errors.js';

export interface SkillUsage {
  /** Times skill_view read it. */
  count: number;
  lastUsedAt?: number;
  /** When Hearth first saw it: the curator's clock starts here for a skill never used. */
  firstSeenAt: number;
}

export interface ArchivedSkill {
  name: string;
  from: string;
  to: string;
  at: number;
}

/** What the skills keep across restarts (state/skills/state.json). */
export interface SkillStateData {
  usage: Record<string, SkillUsage>;
  pinned: string[];
  /** Per agent: the skill names switched off for it. */
  disabled: Record<string, string[]>;
  archived: ArchivedSkill[];
}

export interface SkillState {
  read(): Promise<SkillStateData>;
  /** Runs `change` on the current data and writes it atomically; calls are serialized. */
  update<T>(change: (data: SkillStateData) => T): Promise<T>;
}

const empty = (): SkillStateData => ({ usage: {}, pinned: [], disabled: {}, archived: [] });

// Typed by the interfaces they decode, so a field added to one without its schema breaks the build.
// `loose`: a key a newer Hearth adds still reads, and is written back as it was.
const usageSchema: z.ZodType<SkillUsage> = z.looseObject({
  count: z.number().int().nonnegative(),
  lastUsedAt: z.number().optional(),
  firstSeenAt: z.number(),
});
const archivedSchema: z.ZodType<ArchivedSkill> = z.looseObject({
  name: z.string(),
  from: z.string(),
  to: z.string(),
  at: z.number(),
});
/** A section missing from the file is empty (as it always was); a section that is there must be right. */
const stateSchema: z.ZodType<SkillStateData> = z.looseObject({
  usage: z.record(z.string(), usageSchema).default({}),
  pinned: z.array(z.string()).default([]),
  disabled: z.record(z.string(), z.array(z.string())).default({}),
  archived: z.array(archivedSchema).default([]),
});

/** The file cannot be used as it is; it is left untouched (the next write would otherwise lose it). */
function unreadable(file: string, why: string): HearthError {
  return new HearthError(
    'unavailable',
    `skills state ${file} cannot be read (${why}); it was left as it is: fix or move it`,
  );
}

export function createSkillState(file: string): SkillState {
  let cached: SkillStateData | undefined;
  let queue: Promise<unknown> = Promise.resolve();
  const load = async (): Promise<SkillStateData> => {
    if (cached) return cached;
    let text: string;
    try {
      text = await readFile(file, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
      cached = empty();
      return cached;
    }
    let raw: unknown;
    try {
      raw = JSON.parse(text);
    } catch (error) {
      throw unreadable(file, `not JSON: ${(error as Error).message}`);
    }
    const parsed = stateSchema.safeParse(raw);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      throw unreadable(file, `${issue?.path.join('.') || 'file'}: ${issue?.message ?? 'invalid'}`);
    }
    cached = parsed.data;
    return cached;
  };
  return {
    read: load,
    update(change) {
      const run = queue.then(async () => {
        const data = await load();
        const result = change(data);
        await mkdir(dirname(file), { recursive: true });
        const temp = join(dirname(file), `.state-${process.pid}.tmp`);
        await writeFile(temp, `${JSON.stringify(data, null, 2)}\n`);
        await rename(temp, file);
        return result;
      });
      queue = run.catch(() => {});
      return run;
    },
  };
}
