import { scrubSecrets } from '../base/secret-redaction.js';
import { analyzeText } from '../memory/index.js';
import { scanSourceText } from '../plugins/index.js';
import { skillNameProblem } from './skill-file.js';
import { isScriptPath, type Skill } from './skill-library.js';

/** What the agent proposes (skill_propose, /learn): the front matter is written from these, never by the model. */
export interface SkillProposal {
  name: string;
  description: string;
  /** The markdown body: what it is for, the steps, and a `## Verification` section. */
  body: string;
  /** Files beside SKILL.md (`scripts/check.sh`, `reference.md`), relative paths. */
  files?: { path: string; content: string }[];
}

export type GateVerdict = 'kept' | 'pending' | 'refused';

export interface GateResult {
  verdict: GateVerdict;
  /** Why it was refused, or why it waits for a person; empty when kept outright. */
  reasons: string[];
  /** The existing skill this one replaces (a patch of the agent's own workspace skill). */
  replaces?: string;
  /** Highest similarity to another skill, and which (for the record, also when it passes). */
  closest?: { name: string; similarity: number };
}

export interface GateOptions {
  /** Skills the agent has now (any origin, enabled or not). */
  existing: readonly Skill[];
  /** Secret values of this install that must never be in a skill (the secret store's). */
  knownSecrets?: readonly string[];
  /** `scripts` (default): a person approves skills with scripts; `always`; `never`. */
  approval?: 'scripts' | 'always' | 'never';
  /** Jaccard similarity of term sets at or above which a proposal is a near-duplicate. */
  duplicateAt?: number;
}

export const DUPLICATE_SIMILARITY = 0.6;
const MAX_FILES = 20;
const MAX_FILE_CHARS = 100_000;
const MAX_BODY_CHARS = 40_000;

/** Distinct terms (memory's tokenizer: stemmed, stop words out, Chinese words) of a text. */
export function termSet(text: string): Set<string> {
  return new Set(analyzeText(text.toLowerCase()).primary);
}

export function jaccard(a: ReadonlySet<string>, b: ReadonlySet<string>): number {
  if (a.size === 0 && b.size === 0) return 1;
  let shared = 0;
  for (const term of a) if (b.has(term)) shared++;
  return shared / (a.size + b.size - shared);
}

const skillTerms = (skill: { description: string; body: string }) => termSet(`${skill.description}\n${skill.body}`);

/** A `## Heading` (any level 1–3) and what follows it up to the next heading of that level or higher. */
function section(body: string, heading: RegExp): string | undefined {
  const lines = body.split('\n');
  const start = lines.findIndex((line) => /^#{1,3}\s/.test(line) && heading.test(line.replace(/^#+\s*/, '')));
  if (start < 0) return undefined;
  const level = /^#+/.exec(lines[start]!)![0].length;
  const rest = lines.slice(start + 1);
  const end = rest.findIndex((line) => {
    const hashes = /^(#+)\s/.exec(line);
    return hashes !== null && hashes[1]!.length <= level;
  });
  return (end < 0 ? rest : rest.slice(0, end)).join('\n').trim();
}

/** Why a file path of a proposal is not allowed (undefined when it is). */
export function proposalPathProblem(path: string): string | undefined {
  if (path.length === 0 || path.length > 200) return `file path "${path}" must be 1–200 characters`;
  if (path.startsWith('/') || /^[A-Za-z]:/.test(path) || path.includes('\\') || path.includes('\0'))
    return `file path "${path}" must be relative, with "/" separators`;
  const parts = path.split('/');
  if (parts.some((part) => part === '' || part === '.' || part === '..' || part.startsWith('.')))
    return `file path "${path}" may not have empty, ".", ".." or hidden parts`;
  if (path === 'SKILL.md') return 'SKILL.md is written from name, description and body; do not send it as a file';
  return undefined;
}

/**
 * The quality gate a proposed skill passes before it is kept (issue 19): the required sections,
 * not a near-duplicate of a skill the agent has, no secrets, scripts that pass the plugin safety
 * scan. Every reason is collected, so one answer says all that must change. A skill with scripts
 * that passes waits for a person's approval (by default).
 */
export function gateSkillProposal(proposal: SkillProposal, options: GateOptions): GateResult {
  const reasons: string[] = [];
  const nameProblem = skillNameProblem(proposal.name);
  if (nameProblem) reasons.push(nameProblem);
  const description = proposal.description.trim();
  if (description.length === 0) reasons.push('the description is empty: say in one line what the skill is for');
  else if (description.length > 300) reasons.push('the description is over 300 characters: one line is enough');
  if (proposal.body.length > MAX_BODY_CHARS) reasons.push(`the body is over ${MAX_BODY_CHARS} characters`);

  // Required sections: the steps, and how to check the result.
  const steps = section(proposal.body, /^(steps|procedure|how to|instructions)\b/i);
  const numbered = /^\s*1[.)]\s+\S/m.test(proposal.body);
  if ((steps === undefined || steps === '') && !numbered)
    reasons.push('missing steps: add a "## Steps" section (a numbered list of what to do)');
  const verification = section(proposal.body, /^verification\b/i);
  if (verification === undefined)
    reasons.push('missing verification: add a "## Verification" section saying how to check the result');
  else if (verification === '') reasons.push('the "## Verification" section is empty: say how to check the result');

  // Same name: a patch of the agent's own workspace skill; the other folders' names are taken.
  const same = options.existing.find((skill) => skill.name === proposal.name);
  if (same && same.origin !== 'workspace')
    reasons.push(`the name "${proposal.name}" is taken by a ${same.origin} skill: choose another name`);
  const replaces = same?.origin === 'workspace' ? same.name : undefined;

  // Near-duplicates of another skill.
  const terms = skillTerms(proposal);
  let closest: GateResult['closest'];
  for (const skill of options.existing) {
    if (skill.name === proposal.name) continue;
    const similarity = jaccard(terms, skillTerms(skill));
    if (!closest || similarity > closest.similarity) closest = { name: skill.name, similarity };
  }
  const duplicateAt = options.duplicateAt ?? DUPLICATE_SIMILARITY;
  if (closest && closest.similarity >= duplicateAt)
    reasons.push(
      `near-duplicate of the skill "${closest.name}" (similarity ${closest.similarity.toFixed(2)} ≥ ${duplicateAt}): improve that one instead (propose it under the name "${closest.name}" if it is the agent's own)`,
    );

  // Files: safe paths, sizes, and the plugin safety scan over every one.
  const files = proposal.files ?? [];
  if (files.length > MAX_FILES) reasons.push(`${files.length} files; a skill has at most ${MAX_FILES}`);
  const seen = new Set<string>();
  for (const file of files) {
    const problem = proposalPathProblem(file.path);
    if (problem) reasons.push(problem);
    if (seen.has(file.path)) reasons.push(`file "${file.path}" is given twice`);
    seen.add(file.path);
    if (file.content.length > MAX_FILE_CHARS) reasons.push(`file "${file.path}" is over ${MAX_FILE_CHARS} characters`);
    for (const reason of scanSourceText(file.content))
      reasons.push(`file "${file.path}" fails the safety scan: it ${reason}`);
  }

  // Secrets, anywhere (the redaction catalogue's kinds, and this install's own secret values).
  const places: [string, string][] = [
    ['the description', proposal.description],
    ['the body', proposal.body],
    ...files.map((file): [string, string] => [`file "${file.path}"`, file.content]),
  ];
  for (const [place, text] of places) {
    const { kinds } = scrubSecrets(text, options.knownSecrets);
    if (kinds.length > 0)
      reasons.push(
        `${place} contains a secret (${[...new Set(kinds)].join(', ')}): remove it; a skill names where a secret is kept, never its value`,
      );
  }

  if (reasons.length > 0) return { verdict: 'refused', reasons, replaces, closest };
  const approval = options.approval ?? 'scripts';
  const scripts = files.filter((file) => isScriptPath(file.path)).map((file) => file.path);
  if (approval === 'always')
    return { verdict: 'pending', reasons: ['every new skill waits for approval'], replaces, closest };
  if (approval === 'scripts' && scripts.length > 0)
    return {
      verdict: 'pending',
      reasons: [`it has scripts (${scripts.join(', ')}): a person approves it in the Skills view first`],
      replaces,
      closest,
    };
  return { verdict: 'kept', reasons: [], replaces, closest };
}
