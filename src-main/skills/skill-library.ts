import type { Dirent } from 'node:fs';
import { readdirSync, statSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Logger } from '../base/logger.js';
import { type ParsedSkill, parseSkillFile, SKILL_FILE } from './skill-file.js';

/** Where a skill comes from; a later origin overrides an earlier one of the same name. */
export type SkillOrigin = 'bundled' | 'user' | 'workspace';
export const SKILL_ORIGINS: readonly SkillOrigin[] = ['bundled', 'user', 'workspace'];

export interface Skill extends ParsedSkill {
  origin: SkillOrigin;
  /** The skill's folder (absolute). */
  dir: string;
  /** Files beside SKILL.md, relative, `/`-separated (at most 200 listed). */
  files: string[];
  /** Whether any of them is a script (under scripts/, or a script extension such as .sh or .py). */
  hasScripts: boolean;
}

export interface SkillFolders {
  bundled: string;
  user: string;
  /** The agent's workspace `skills/` folder. */
  workspace(agentId: string): string;
}

const SCRIPT = /(^|\/)scripts\/|\.(sh|bash|zsh|py|js|mjs|cjs|ts|rb|pl|ps1)$/i;
const MAX_LISTED_FILES = 200;

export function isScriptPath(path: string): boolean {
  return SCRIPT.test(path);
}

// Every turn lists the skill folders for the system prompt. Reading these small local folders and
// stat'ing SKILL.md synchronously takes microseconds; the promise forms' thread-pool round trips
// cost ~0.4 ms of CPU a turn in the turn profile (issue 23).
async function entries(dir: string): Promise<Dirent[]> {
  try {
    return readdirSync(dir, { withFileTypes: true });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
}

/** Files under a skill folder, relative; symbolic links and hidden names are left out (skill_file refuses them too). */
export async function skillFilesOf(dir: string): Promise<string[]> {
  const out: string[] = [];
  const walk = async (relative: string, depth: number): Promise<void> => {
    if (depth > 4 || out.length >= MAX_LISTED_FILES) return;
    for (const entry of await entries(join(dir, relative))) {
      if (entry.name.startsWith('.')) continue;
      const path = relative ? `${relative}/${entry.name}` : entry.name;
      if (entry.isDirectory()) await walk(path, depth + 1);
      else if (entry.isFile() && path !== SKILL_FILE) out.push(path);
      if (out.length >= MAX_LISTED_FILES) return;
    }
  };
  await walk('', 0);
  return out.sort();
}

/** Reads one skill folder; undefined (and a warning) when its SKILL.md is missing or malformed. */
// Every turn lists the agent's skills for its system prompt: a SKILL.md whose size and times did
// not change since it was last read is not read and parsed (YAML front matter) again.
const parsedFiles = new Map<string, { stamp: string; parsed: ParsedSkill }>();

async function parsedSkillFile(path: string): Promise<ParsedSkill | undefined> {
  let stamp: string;
  try {
    const info = statSync(path);
    stamp = `${info.size}:${info.mtimeMs}:${info.ctimeMs}:${info.ino}`;
  } catch {
    parsedFiles.delete(path);
    return undefined;
  }
  const known = parsedFiles.get(path);
  if (known?.stamp === stamp) return known.parsed;
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch {
    return undefined;
  }
  const parsed = parseSkillFile(text);
  parsedFiles.set(path, { stamp, parsed });
  return parsed;
}

export async function readSkillFolder(dir: string, origin: SkillOrigin, log?: Logger): Promise<Skill | undefined> {
  try {
    const parsed = await parsedSkillFile(join(dir, SKILL_FILE));
    if (!parsed) return undefined;
    const files = await skillFilesOf(dir);
    return { ...parsed, origin, dir, files, hasScripts: files.some(isScriptPath) };
  } catch (error) {
    log?.warn('skill skipped', { dir, error: (error as Error).message });
    return undefined;
  }
}

/**
 * Every skill an agent sees, by name: bundled, then the user's (HEARTH_HOME/skills), then the
 * agent's workspace `skills/`; a later folder's skill replaces an earlier one of the same name.
 * A skill's folder name need not match its `name` (the front matter is the name).
 */
export async function discoverSkills(folders: SkillFolders, agentId: string, log?: Logger): Promise<Skill[]> {
  const byName = new Map<string, Skill>();
  const roots: [SkillOrigin, string][] = [
    ['bundled', folders.bundled],
    ['user', folders.user],
    ['workspace', folders.workspace(agentId)],
  ];
  for (const [origin, root] of roots) {
    const dirs = (await entries(root)).filter((entry) => entry.isDirectory() && !entry.name.startsWith('.'));
    const found = await Promise.all(dirs.map((entry) => readSkillFolder(join(root, entry.name), origin, log)));
    for (const skill of found) if (skill) byName.set(skill.name, skill);
  }
  return [...byName.values()].sort((a, b) => a.name.localeCompare(b.name));
}
