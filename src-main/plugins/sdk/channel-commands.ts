// The chat commands the channel host answers (`/new`, `/approve`, `/status`, `/dock_<channel>`…),
// described for platforms that have native commands (Discord's slash commands). The host chooses
// the list (`context.commands`); a plugin registers it with its platform and turns an invocation
// back into the text a person would type (`/approve AB12CD allow`), so the host's rules (pairing,
// allowlist, owner) apply to it exactly as to a typed command.

export type { ChannelCommand, ChannelCommandOption } from './channels.js';

/** The text a person would type for a command invocation: `/name opt1 opt2` (empty options left out). */
export function commandText(name: string, values: readonly (string | undefined)[]): string {
  return [`/${name}`, ...values.map((value) => value?.trim() ?? '').filter((value) => value !== '')].join(' ');
}
