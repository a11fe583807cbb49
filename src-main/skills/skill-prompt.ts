/** Tokens the skills listing may take in the system prompt by default (it is paid on every call). */
export const SKILLS_PROMPT_BUDGET = 200;
const MAX_LINE_DESCRIPTION = 100;

/** ~4 characters a token (o200k on English prose is close; the bench counts the real figure). */
const estimateTokens = (text: string) => Math.ceil(text.length / 4);

function oneLine(description: string): string {
  const first = description.trim().split('\n')[0] ?? '';
  const sentence = /^(.+?[.!?])(\s|$)/.exec(first)?.[1] ?? first;
  return sentence.length <= MAX_LINE_DESCRIPTION
    ? sentence
    : `${sentence.slice(0, MAX_LINE_DESCRIPTION - 1).trimEnd()}…`;
}

/**
 * The system prompt's list of skills: names and one-line descriptions only (progressive
 * disclosure: skill_view reads one). In name order, so it keeps its bytes while the skills do
 * (prompt caching); over `budgetTokens` it is cut, and the last line says how many are left out
 * and how to see them all.
 */
export function listSkillsForPrompt(
  skills: readonly { name: string; description: string }[],
  budgetTokens = SKILLS_PROMPT_BUDGET,
): string | undefined {
  if (skills.length === 0) return undefined;
  const header = 'Skills (skill_view reads one):';
  const lines = [header];
  let used = estimateTokens(header);
  const sorted = [...skills].sort((a, b) => a.name.localeCompare(b.name));
  for (const [index, skill] of sorted.entries()) {
    const line = `- ${skill.name}: ${oneLine(skill.description)}`;
    const left = sorted.length - index;
    // Keep room for the note that ends a cut list.
    const note = `- … ${left} more: skill_view without a name lists every skill`;
    const cost = estimateTokens(line) + 1;
    if (used + cost + (left > 1 ? estimateTokens(note) + 1 : 0) > budgetTokens) {
      lines.push(note);
      break;
    }
    lines.push(line);
    used += cost;
  }
  return lines.join('\n');
}
