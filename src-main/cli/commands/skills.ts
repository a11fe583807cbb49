import type { Command } from 'commander';
import type { SkillInfo, SkillProposalInfo } from '../../protocol/methods/skills.js';
import type { CliContext } from '../cli-context.js';
import { type GatewayOptions, withGatewayClient, withGatewayOptions } from '../gateway-command.js';

interface SkillsOptions extends GatewayOptions {
  agent?: string;
}

const agentParam = (options: SkillsOptions) => (options.agent ? { agentId: options.agent } : {});

function skillLine(skill: SkillInfo): string {
  const flags = [
    skill.origin,
    skill.enabled ? undefined : 'disabled',
    skill.pinned ? 'pinned' : undefined,
    skill.stale ? 'stale' : undefined,
    skill.hasScripts ? 'scripts' : undefined,
  ].filter(Boolean);
  return `${skill.name.padEnd(24)} ${`${skill.uses} uses`.padEnd(9)} [${flags.join(', ')}]  ${skill.description}`;
}

export function formatSkillsList(result: {
  agentId: string;
  skills: SkillInfo[];
  proposals: SkillProposalInfo[];
}): string {
  const lines = [`Skills of agent ${result.agentId}:`];
  if (result.skills.length === 0) lines.push('  (none)');
  for (const skill of result.skills) lines.push(`  ${skillLine(skill)}`);
  if (result.proposals.length > 0) {
    lines.push('', 'Proposed, waiting for approval (approve in the Skills view):');
    for (const p of result.proposals) lines.push(`  ${p.id}  ${p.name} (agent ${p.agentId}): ${p.reasons.join('; ')}`);
  }
  return `${lines.join('\n')}\n`;
}

/** `hearth skills list | show | enable | disable` (docs/TOOLS.md "Skills"). */
export function registerSkillsCommands(program: Command, context: CliContext): void {
  const skills = program
    .command('skills')
    .description('Skills the agents read (SKILL.md folders) and the ones they propose');

  withGatewayOptions(
    skills.command('list').description('Every skill an agent has, with its use count, and the proposals waiting'),
  )
    .option('--agent <id>', 'the agent (default: main)')
    .action(async (options: SkillsOptions) => {
      const result = await withGatewayClient(context, options, ['operator.read'], (client) =>
        client.request('skills.list', agentParam(options)),
      );
      context.stdout(options.json ? `${JSON.stringify(result, null, 2)}\n` : formatSkillsList(result));
    });

  withGatewayOptions(skills.command('show').description("Print a skill's SKILL.md").argument('<name>', 'the skill'))
    .option('--agent <id>', 'the agent (default: main)')
    .action(async (name: string, options: SkillsOptions) => {
      const result = await withGatewayClient(context, options, ['operator.read'], (client) =>
        client.request('skills.get', { name, ...agentParam(options) }),
      );
      if (options.json) context.stdout(`${JSON.stringify(result, null, 2)}\n`);
      else {
        const files = result.skill.files.length > 0 ? `files: ${result.skill.files.join(', ')}\n` : '';
        context.stdout(`# ${skillLine(result.skill)}\n${files}\n${result.text.trimEnd()}\n`);
      }
    });

  for (const [verb, method] of [
    ['enable', 'skills.enable'],
    ['disable', 'skills.disable'],
  ] as const)
    withGatewayOptions(
      skills
        .command(verb)
        .description(`${verb === 'enable' ? 'Turn a skill back on' : 'Turn a skill off'} for an agent`)
        .argument('<name>', 'the skill'),
    )
      .option('--agent <id>', 'the agent (default: main)')
      .action(async (name: string, options: SkillsOptions) => {
        const result = await withGatewayClient(context, options, ['operator.admin'], (client) =>
          client.request(method, { name, ...agentParam(options) }),
        );
        context.stdout(
          options.json
            ? `${JSON.stringify(result, null, 2)}\n`
            : `${result.skill.name}: ${result.skill.enabled ? 'enabled' : 'disabled'} for agent ${options.agent ?? 'main'}\n`,
        );
      });
}
