import { parse } from 'yaml';

/** The file every skill folder holds (the agentskills format). */
export const SKILL_FILE = 'SKILL.md';

/** agentskills: lowercase letters, digits and hyphens, at most 64, no leading, trailing or double hyphen. */
const NAME = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
const MAX_NAME = 64;
const MAX_DESCRIPTION = 1024;

export interface ParsedSkill {
  name: string;
  description: string;
  /** Every front-matter field (license, compatibility, metadata, allowed-tools, …) as parsed. */
  meta: Record<string, unknown>;
  /** The markdown after the front matter. */
  body: string;
}

export class SkillFormatError extends Error {}

/** Why a skill name is not one (undefined when it is). */
export function skillNameProblem(name: string): string | undefined {
  if (name.length === 0) return 'the name is empty';
  if (name.length > MAX_NAME) return `the name is ${name.length} characters; at most ${MAX_NAME}`;
  if (!NAME.test(name)) return `"${name}" is not a skill name: lowercase letters, digits and single hyphens only`;
  return undefined;
}

/**
 * Parses a SKILL.md: YAML front matter between `---` lines (`name` and `description` required),
 * then the markdown body. Throws SkillFormatError saying what is wrong.
 */
export function parseSkillFile(text: string): ParsedSkill {
  const normalized = text.replace(/^\uFEFF/, '').replace(/\r\n/g, '\n');
  const match = /^---\n([\s\S]*?)\n---[ \t]*(?:\n|$)/.exec(normalized);
  if (!match) throw new SkillFormatError('SKILL.md must start with YAML front matter between "---" lines');
  let meta: unknown;
  try {
    meta = parse(match[1]!);
  } catch (error) {
    throw new SkillFormatError(`the front matter is not valid YAML: ${(error as Error).message.split('\n')[0]}`);
  }
  if (typeof meta !== 'object' || meta === null || Array.isArray(meta))
    throw new SkillFormatError('the front matter must be a YAML mapping (name: …, description: …)');
  const fields = meta as Record<string, unknown>;
  if (typeof fields.name !== 'string') throw new SkillFormatError('the front matter has no "name"');
  const nameProblem = skillNameProblem(fields.name);
  if (nameProblem) throw new SkillFormatError(nameProblem);
  if (typeof fields.description !== 'string' || fields.description.trim() === '')
    throw new SkillFormatError('the front matter has no "description"');
  if (fields.description.length > MAX_DESCRIPTION)
    throw new SkillFormatError(
      `the description is ${fields.description.length} characters; at most ${MAX_DESCRIPTION}`,
    );
  return {
    name: fields.name,
    description: fields.description.trim(),
    meta: fields,
    body: normalized.slice(match[0].length),
  };
}

/** A SKILL.md from its parts (what a proposal is written as). */
export function formatSkillFile(skill: { name: string; description: string; body: string }): string {
  const description = JSON.stringify(skill.description.replace(/\s+/g, ' ').trim());
  return `---\nname: ${skill.name}\ndescription: ${description}\n---\n\n${skill.body.trim()}\n`;
}
