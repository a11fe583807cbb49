import type { ChannelOutboundFile, ChannelTarget } from '../../src-main/plugins/sdk/index.js';
import { DISCORD_MAX_MESSAGE, toDiscordMarkdown } from './discord-markdown.js';
import type { DiscordRest } from './discord-rest.js';
import { type ChannelOf, createDiscordMessage } from './discord-stream.js';

/**
 * Discord's upload limit for a bot's message without boosts: 10 MiB
 * (https://discord.com/developers/docs/reference#uploading-files; 25 MiB was lowered to 10 in 2024).
 */
export const DISCORD_MAX_UPLOAD_BYTES = 10 * 1024 * 1024;

/** A caption as Discord markdown, cut to one message. */
export function discordCaption(file: ChannelOutboundFile): string {
  const rendered = file.caption ? toDiscordMarkdown(file.caption) : '';
  return rendered.length <= DISCORD_MAX_MESSAGE ? rendered : `${rendered.slice(0, DISCORD_MAX_MESSAGE - 1)}…`;
}

/** A photo or document as a message with one attachment (multipart `payload_json` + `files[0]`). */
export async function sendDiscordFile(
  rest: DiscordRest,
  channelOf: ChannelOf,
  target: ChannelTarget,
  file: ChannelOutboundFile,
): Promise<string> {
  if (file.data.length > DISCORD_MAX_UPLOAD_BYTES)
    throw new Error(`${file.name} is over Discord's 10 MB limit for a bot's file`);
  return createDiscordMessage(rest, await channelOf(target), discordCaption(file), {
    files: [{ name: file.name, mediaType: file.mediaType, data: file.data }],
    ...(target.replyToMessageId ? { replyTo: target.replyToMessageId } : {}),
  });
}
