import { mkdir, rename } from 'node:fs/promises';
import { join } from 'node:path';
import type { Clock } from '../base/clock.js';
import type { Logger } from '../base/logger.js';
import type { Skill } from './skill-library.js';
import type { SkillState } from './skill-state.js';

const DAY_MS = 24 * 60 * 60 * 1000;
/** Unused this long (no skill_view since it was last read, or since Hearth first saw it): stale. */
export const STALE_AFTER_MS = 30 * DAY_MS;
/** Unused this long: moved to state/skills/archive/ (bundled skills stay; they are only marked stale). */
export const ARCHIVE_AFTER_MS = 90 * DAY_MS;

export interface CurationResult {
  stale: string[];
  archived: { name: string; to: string }[];
}

/**
 * The curator: a skill nobody read for 30 days is stale, after 90 it is archived (its folder
 * moved out of the skills folders, so it leaves every prompt; moving it back restores it).
 * A pinned skill is never touched. Usage is what skill_view counts (skill-state.ts).
 */
export async function curateSkills(deps: {
  skills(): Promise<readonly Skill[]>;
  state: SkillState;
  archiveDir: string;
  clock: Clock;
  log?: Logger;
}): Promise<CurationResult> {
  const now = deps.clock.now();
  const data = await deps.state.read();
  const result: CurationResult = { stale: [], archived: [] };
  const moved: { name: string; from: string; to: string }[] = [];
  for (const skill of await deps.skills()) {
    if (data.pinned.includes(skill.name)) continue;
    const usage = data.usage[skill.name];
    if (!usage) continue;
    const idle = now - (usage.lastUsedAt ?? usage.firstSeenAt);
    if (idle >= ARCHIVE_AFTER_MS && skill.origin !== 'bundled') {
      const to = join(deps.archiveDir, `${skill.origin}-${skill.name}-${new Date(now).toISOString().slice(0, 10)}`);
      await mkdir(deps.archiveDir, { recursive: true });
      await rename(skill.dir, to);
      moved.push({ name: skill.name, from: skill.dir, to });
      result.archived.push({ name: skill.name, to });
      deps.log?.info('skill archived', { name: skill.name, idleDays: Math.floor(idle / DAY_MS), to });
    } else if (idle >= STALE_AFTER_MS) result.stale.push(skill.name);
  }
  if (moved.length > 0)
    await deps.state.update((state) => {
      for (const { name, from, to } of moved) {
        state.archived.push({ name, from, to, at: now });
        // A skill of the same name made later starts its own clock.
        delete state.usage[name];
      }
    });
  return result;
}
