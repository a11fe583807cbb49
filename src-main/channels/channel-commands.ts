import type { ChannelCommand } from '../plugins/sdk/channels.js';

/**
 * The chat commands a person can use in a channel, for platforms that register native commands
 * (Discord slash commands). Each one, invoked, reaches the host as the text a person would type, so
 * it passes the same gate (pairing, allowlist) and the same rules (`/approve` counts only from the
 * owner) as a typed command. `/new`, `/approve` and `/learn` are chat.send's commands; `/status`
 * and `/dock_<channel>` the host's own (channel-host.ts). One `/dock_<id>` per other installed channel.
 */
export function channelCommands(others: readonly { id: string; name: string }[]): ChannelCommand[] {
  const commands: ChannelCommand[] = [
    { name: 'new', description: 'Start a new conversation (the current one is kept in memory)' },
    {
      name: 'approve',
      description: 'Answer an exec approval offered here (owner only)',
      options: [
        { name: 'code', description: 'The approval code shown in the request', required: true },
        {
          name: 'answer',
          description: 'allow once, allow for this chat, always, or deny',
          required: true,
          // The full names: both the owner's answer here and chat.send's /approve read them.
          choices: ['allow-once', 'allow-session', 'allow-always', 'deny'],
        },
      ],
    },
    { name: 'status', description: 'The model, this session and today’s usage' },
    {
      name: 'learn',
      description: 'Turn what this conversation taught into a skill',
      options: [{ name: 'focus', description: 'What the skill should be about (optional)' }],
    },
  ];
  for (const other of others) {
    // Discord's rule for command names: lower case letters, digits, `-` and `_`, at most 32.
    const name = `dock_${other.id.toLowerCase()}`;
    if (!/^[a-z0-9_-]{1,32}$/.test(name)) continue;
    commands.push({
      name,
      description: `Continue this conversation on your linked ${other.name} account`.slice(0, 100),
    });
  }
  return commands;
}
