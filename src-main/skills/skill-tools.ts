import { z } from 'zod';
import type { ToolDefinition, ToolOutput } from '../tools/tool.js';
import type { SkillService } from './skill-service.js';
import { SkillError } from './skill-service.js';

export const SKILL_VIEW = 'skill_view';

const SKILLS_LINE =
  'Skills hold tested steps: read one with skill_view before a task it fits; after a long task, propose one with skill_propose.';

function failure(error: unknown): ToolOutput {
  if (error instanceof SkillError) return { output: error.message, isError: true };
  return { output: `skill error: ${(error as Error).message}`, isError: true };
}

/**
 * The skill tools (issue 19): `skill_view` reads a skill's SKILL.md (each read is a use the
 * curator counts), `skill_file` reads a file beside it, `skill_propose` hands a new skill to the
 * quality gate. A skill's scripts are run with the exec tool, under its usual policy.
 */
export function createSkillTools(skills: SkillService): ToolDefinition[] {
  const viewInput = z.object({ name: z.string().max(64).optional().describe('omit to list every skill') }).strict();
  const view: ToolDefinition<z.infer<typeof viewInput>> = {
    name: SKILL_VIEW,
    description: "Read a skill's instructions (SKILL.md), or list the skills without a name.",
    promptLine: SKILLS_LINE,
    inputSchema: viewInput,
    async execute(input, context) {
      try {
        if (!input.name) {
          const all = (await skills.list(context.agentId)).filter((skill) => skill.enabled);
          if (all.length === 0) return { output: 'No skills yet.' };
          return { output: all.map((skill) => `${skill.name}: ${skill.description}`).join('\n') };
        }
        const { skill, text } = await skills.view(context.agentId, input.name, { count: true });
        const files =
          skill.files.length === 0
            ? ''
            : `\n\n[Folder: ${skill.dir}\nFiles: ${skill.files.join(', ')}\nRead one with skill_file; run a script with exec (e.g. bash ${skill.dir}/${skill.files.find((f) => f.startsWith('scripts/')) ?? skill.files[0]}).]`;
        return { output: `${text.trimEnd()}${files}` };
      } catch (error) {
        return failure(error);
      }
    },
  };

  const fileInput = z
    .object({ name: z.string().max(64), path: z.string().min(1).max(300).describe('relative to the skill folder') })
    .strict();
  const file: ToolDefinition<z.infer<typeof fileInput>> = {
    name: 'skill_file',
    description: 'Read a file of a skill (a script, a reference) by its path inside the skill folder.',
    inputSchema: fileInput,
    async execute(input, context) {
      try {
        return { output: await skills.readFile(context.agentId, input.name, input.path) };
      } catch (error) {
        return failure(error);
      }
    },
  };

  const proposeInput = z
    .object({
      name: z.string().max(64).describe('lowercase-with-hyphens'),
      description: z.string().max(1024).describe('one line: what it is for and when to use it'),
      body: z.string().max(40_000).describe('markdown with "## Steps" (numbered) and "## Verification"'),
      files: z
        .array(z.object({ path: z.string().max(200), content: z.string().max(100_000) }).strict())
        .max(20)
        .optional()
        .describe('e.g. scripts/check.sh'),
    })
    .strict();
  const propose: ToolDefinition<z.infer<typeof proposeInput>> = {
    name: 'skill_propose',
    description:
      'Propose a skill from what this task taught: steps and a verification section. A quality gate decides if it is kept.',
    inputSchema: proposeInput,
    async execute(input, context) {
      try {
        const result = await skills.propose(context.agentId, input);
        if (result.verdict === 'refused')
          return {
            output: `Not kept: the skill "${input.name}" failed the quality gate:\n${result.reasons.map((r) => `- ${r}`).join('\n')}`,
            isError: true,
          };
        if (result.verdict === 'pending')
          return {
            output: `Proposed (id ${result.id}): the skill "${input.name}" passed the gate and waits for a person's approval in the Skills view, because ${result.reasons.join('; ')}.`,
          };
        return {
          output: `Kept: the skill "${input.name}"${result.replaces ? ' (replacing the earlier version)' : ''} is in ${result.dir}.`,
        };
      } catch (error) {
        return failure(error);
      }
    },
  };

  return [view, file, propose] as ToolDefinition[];
}
