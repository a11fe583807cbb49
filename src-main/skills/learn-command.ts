/** `/learn` or `/learn <focus>`, at the start of a chat message (any case). */
const LEARN = /^\/learn(?:\s+([\s\S]*))?$/i;

/**
 * The turn `/learn` becomes: the person's words as they typed them, then what Hearth asks of the
 * model. It runs as an ordinary turn in the same session (the conversation so far is the
 * material), so the proposal goes through skill_propose and its quality gate like any other, and
 * the outcome reaches the person as the reply, on every surface (a channel shows only the reply).
 * Undefined when the text is not the command.
 */
export function learnTurnMessage(text: string): string | undefined {
  const match = LEARN.exec(text.trim());
  if (!match) return undefined;
  const focus = match[1]?.trim();
  return [
    text.trim(),
    '',
    `[/learn: turn what this conversation taught into a skill${focus ? `, focused on: ${focus}` : ''}.`,
    'Call skill_propose (load it with tools_load if it is not among your tools) with a lowercase-with-hyphens name, a one-line description of what it is for and when to use it, and a markdown body with "## Steps" (numbered; the commands, paths and fixes as they worked here) and "## Verification" (how to check it worked). Never put a secret in it.',
    'If the quality gate refuses it for something you can fix, fix it and propose once more. If nothing here is worth a skill, propose nothing and say why.',
    'Then tell the person the outcome in a sentence or two: kept (and where), not kept (with the reasons the gate gave), or waiting for their approval in the Skills view.]',
  ].join('\n');
}
