/**
 * The system prompt, kept small and byte-stable: no timestamps, no per-turn data, no tool
 * catalogue (tool schemas already carry their descriptions) and no skill descriptions —
 * skills are listed by name and read on demand (progressive disclosure). What changes per
 * turn belongs in the turn's messages, where it does not break the cached prefix.
 */
export interface SystemPromptInput {
  /** Display name from IDENTITY.md or config; the workspace files say the rest. */
  agentName?: string;
  /** `BootstrapResult.text` from the bootstrap loader. */
  bootstrapText: string;
  /** Skill names only; the model reads `skills/<name>/SKILL.md` when one looks useful. */
  skillNames?: readonly string[];
  /** Where skills live, as the model's file tools see it. */
  skillsDir?: string;
  /** Tool names whose use the base guidance refers to; absent tools are simply not mentioned. */
  memoryTools?: { search?: string; write?: string };
  /** Stable facts about the host (OS, shell), never the time. */
  runtime?: string;
  /** Extra stable lines from config (e.g. a channel's formatting rules). */
  extra?: readonly string[];
}

export const MAX_LISTED_SKILLS = 40;

export function buildSystemPrompt(input: SystemPromptInput): string {
  const name = input.agentName?.trim() || 'Hearth';
  const lines: string[] = [
    `You are ${name}, the user's personal assistant running on their own computer.`,
    'Be direct and brief. Use tools when they help; never invent tool results.',
    'Ask before actions that are destructive, cost money, or speak for the user.',
  ];
  const { search, write } = input.memoryTools ?? {};
  if (search) lines.push(`For anything about past conversations, preferences or decisions, call ${search} first.`);
  if (write) lines.push(`When the user tells you something worth keeping, save it with ${write}.`);
  const skills = input.skillNames ?? [];
  if (skills.length > 0) {
    const listed = [...skills].sort().slice(0, MAX_LISTED_SKILLS);
    const more = skills.length > listed.length ? ` (+${skills.length - listed.length} more in the folder)` : '';
    const where = input.skillsDir ?? 'skills';
    lines.push(`Skills: ${listed.join(', ')}${more}. Before using one, read ${where}/<name>/SKILL.md.`);
  }
  if (input.runtime) lines.push(`Runtime: ${input.runtime}.`);
  for (const line of input.extra ?? []) lines.push(line);
  const base = lines.join('\n');
  return input.bootstrapText ? `${base}\n\n${input.bootstrapText}` : base;
}
