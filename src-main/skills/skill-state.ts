import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';

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

export function createSkillState(file: string): SkillState {
  let cached: SkillStateData | undefined;
  let queue: Promise<unknown> = Promise.resolve();
  const load = async (): Promise<SkillStateData> => {
    if (cached) return cached;
    try {
      cached = { ...empty(), ...(JSON.parse(await readFile(file, 'utf8')) as Partial<SkillStateData>) };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
      cached = empty();
    }
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
