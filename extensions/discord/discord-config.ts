/** `channels.discord` in hearth.json, the plugin's part (the host owns enabled / dmPolicy / allowFrom / groups). */
export interface DiscordConfig {
  /** REST API base, version included (`https://discord.com/api/v10`). */
  apiBaseUrl: string;
  /** Gateway WebSocket URL; absent: asked from `GET /gateway/bot`. */
  gatewayUrl?: string;
  /** Secret store account holding the bot token (never the token itself). */
  tokenSecret: string;
  /** Fewest milliseconds between two edits of a streamed reply. */
  editIntervalMs: number;
  /** Register the chat commands as slash commands at start (slash-commands.ts). */
  slashCommands: boolean;
  /** Register them in these guilds (shown at once) instead of globally. */
  commandGuildIds: string[];
}

export const DISCORD_TOKEN_SECRET = 'channels.discord.token';
export const DISCORD_API_BASE = 'https://discord.com/api/v10';

export const discordConfigSchema = {
  type: 'object',
  additionalProperties: false,
  properties: {
    apiBaseUrl: { type: 'string', format: 'uri', default: DISCORD_API_BASE, title: 'REST API base (with /v10)' },
    gatewayUrl: {
      type: 'string',
      format: 'uri',
      title: 'Gateway WebSocket URL (default: asked from GET /gateway/bot)',
    },
    tokenSecret: {
      type: 'string',
      default: DISCORD_TOKEN_SECRET,
      title: 'Secret store entry holding the bot token (Developer Portal → Bot)',
    },
    editIntervalMs: {
      type: 'integer',
      minimum: 50,
      maximum: 10_000,
      default: 1000,
      title: 'Streaming edit interval (ms)',
    },
    slashCommands: {
      type: 'boolean',
      default: true,
      title: 'Register /new, /approve, /status, /dock_… as slash commands',
    },
    commandGuildIds: {
      type: 'array',
      items: { type: 'string', pattern: '^\\d{17,20}$' },
      default: [],
      title: 'Register the slash commands in these servers (guild ids) instead of globally',
    },
  },
} as const;

const httpUrl = /^https?:\/\/\S+$/;
const wsUrl = /^wss?:\/\/\S+$/;

export function validateDiscordConfig(raw: Record<string, unknown>): DiscordConfig {
  for (const key of Object.keys(raw))
    if (!(key in discordConfigSchema.properties))
      throw new Error(
        `channels.discord.${key} is not a Discord setting (known: ${Object.keys(discordConfigSchema.properties).join(', ')}; the bot token belongs in the secret store)`,
      );
  const apiBaseUrl = raw.apiBaseUrl ?? DISCORD_API_BASE;
  if (typeof apiBaseUrl !== 'string' || !httpUrl.test(apiBaseUrl))
    throw new Error(`channels.discord.apiBaseUrl must be an http(s) URL, got ${JSON.stringify(apiBaseUrl)}`);
  const gatewayUrl = raw.gatewayUrl;
  if (gatewayUrl !== undefined && (typeof gatewayUrl !== 'string' || !wsUrl.test(gatewayUrl)))
    throw new Error(`channels.discord.gatewayUrl must be a ws(s) URL, got ${JSON.stringify(gatewayUrl)}`);
  const tokenSecret = raw.tokenSecret ?? DISCORD_TOKEN_SECRET;
  if (typeof tokenSecret !== 'string' || tokenSecret.length === 0)
    throw new Error('channels.discord.tokenSecret must name a secret store entry');
  const editIntervalMs = raw.editIntervalMs ?? 1000;
  const { minimum, maximum } = discordConfigSchema.properties.editIntervalMs;
  if (
    typeof editIntervalMs !== 'number' ||
    !Number.isInteger(editIntervalMs) ||
    editIntervalMs < minimum ||
    editIntervalMs > maximum
  )
    throw new Error(
      `channels.discord.editIntervalMs must be an integer from ${minimum} to ${maximum}, got ${JSON.stringify(editIntervalMs)}`,
    );
  const slashCommands = raw.slashCommands ?? true;
  if (typeof slashCommands !== 'boolean')
    throw new Error(`channels.discord.slashCommands must be true or false, got ${JSON.stringify(slashCommands)}`);
  const commandGuildIds = raw.commandGuildIds ?? [];
  if (
    !Array.isArray(commandGuildIds) ||
    !commandGuildIds.every((id): id is string => typeof id === 'string' && /^\d{17,20}$/.test(id))
  )
    throw new Error(
      `channels.discord.commandGuildIds must be a list of guild ids (17 to 20 digits, as strings), got ${JSON.stringify(commandGuildIds)}`,
    );
  return {
    apiBaseUrl: apiBaseUrl.replace(/\/+$/, ''),
    ...(gatewayUrl !== undefined ? { gatewayUrl } : {}),
    tokenSecret,
    editIntervalMs,
    slashCommands,
    commandGuildIds,
  };
}
