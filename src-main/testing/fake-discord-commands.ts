/**
 * Test support (never shipped): Discord's checks of application commands, as the fake Discord
 * server (fake-discord-server.ts) applies them to a bulk overwrite
 * (PUT /applications/{id}/commands, https://discord.com/developers/docs/interactions/application-commands):
 * at most 100 CHAT_INPUT commands with unique names, names `^[-_\p{L}\p{N}]{1,32}$` in lower
 * case, descriptions 1–100 characters, at most 25 options each (required before optional), at
 * most 25 choices an option. Undefined when valid; else the first fault, named by its path.
 */
export function applicationCommandsFault(commands: unknown): string | undefined {
  if (!Array.isArray(commands)) return 'the body must be an array of application commands';
  if (commands.length > 100) return 'at most 100 commands';
  const names = new Set<string>();
  const nameRule = /^[-_\p{L}\p{N}]{1,32}$/u;
  for (const [i, command] of (commands as Record<string, unknown>[]).entries()) {
    const at = `${i}`;
    if (!command || typeof command !== 'object') return `${at}: must be an object`;
    const type = command.type ?? 1;
    if (type !== 1) return `${at}.type: only CHAT_INPUT (1) commands are modelled by the fake`;
    const name = command.name;
    if (typeof name !== 'string' || !nameRule.test(name) || name !== name.toLowerCase())
      return `${at}.name: APPLICATION_COMMAND_INVALID_NAME (${JSON.stringify(name)})`;
    if (names.has(name)) return `${at}.name: APPLICATION_COMMANDS_DUPLICATE_NAME (${name})`;
    names.add(name);
    const description = command.description;
    if (typeof description !== 'string' || description.length < 1 || description.length > 100)
      return `${at}.description: must be 1 to 100 characters`;
    const options = command.options ?? [];
    if (!Array.isArray(options) || options.length > 25) return `${at}.options: at most 25`;
    let optional = false;
    const optionNames = new Set<string>();
    for (const [j, option] of (options as Record<string, unknown>[]).entries()) {
      const o = `${at}.options.${j}`;
      if (typeof option?.type !== 'number' || option.type < 1 || option.type > 11) return `${o}.type: 1 to 11`;
      if (typeof option.name !== 'string' || !nameRule.test(option.name) || option.name !== option.name.toLowerCase())
        return `${o}.name: APPLICATION_COMMAND_INVALID_NAME`;
      if (optionNames.has(option.name)) return `${o}.name: APPLICATION_COMMAND_OPTIONS_NAME_ALREADY_EXISTS`;
      optionNames.add(option.name);
      if (typeof option.description !== 'string' || option.description.length < 1 || option.description.length > 100)
        return `${o}.description: must be 1 to 100 characters`;
      if (option.required === true && optional) return `${o}.required: APPLICATION_COMMAND_OPTIONS_REQUIRED_INVALID`;
      if (option.required !== true) optional = true;
      const choices = option.choices;
      if (choices !== undefined) {
        if (!Array.isArray(choices) || choices.length > 25) return `${o}.choices: at most 25`;
        for (const [k, choice] of (choices as Record<string, unknown>[]).entries())
          if (
            typeof choice?.name !== 'string' ||
            choice.name.length < 1 ||
            choice.name.length > 100 ||
            choice.value === undefined
          )
            return `${o}.choices.${k}: a name of 1 to 100 characters and a value`;
      }
    }
  }
  return undefined;
}
