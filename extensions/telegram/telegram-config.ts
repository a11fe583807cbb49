/** `channels.telegram` in hearth.json, the plugin's part (the host owns enabled / dmPolicy / allowFrom / groups). */
export interface TelegramConfig {
  /** `polling` (getUpdates; works behind NAT) or `webhook` (Telegram POSTs to `webhookUrl`). */
  mode: 'polling' | 'webhook';
  /** The public HTTPS URL that reaches the gateway's `/channels/telegram/webhook` (webhook mode). */
  webhookUrl?: string;
  /** The Bot API server: Telegram's, or a local telegram-bot-api server. */
  apiBaseUrl: string;
  /** Secret store account holding the bot token (never the token itself). */
  tokenSecret: string;
  /** Long-poll wait per getUpdates, seconds (Telegram allows up to 50). */
  pollTimeoutSeconds: number;
  /** Fewest milliseconds between two edits of a streamed reply (Telegram allows about one a second per chat). */
  editIntervalMs: number;
}

export const TELEGRAM_TOKEN_SECRET = 'channels.telegram.token';

export const telegramConfigSchema = {
  type: 'object',
  additionalProperties: false,
  properties: {
    mode: { type: 'string', enum: ['polling', 'webhook'], default: 'polling', title: 'How updates arrive' },
    webhookUrl: {
      type: 'string',
      format: 'uri',
      title: 'Public URL of the gateway path /channels/telegram/webhook (webhook mode)',
    },
    apiBaseUrl: { type: 'string', format: 'uri', default: 'https://api.telegram.org', title: 'Bot API server' },
    tokenSecret: {
      type: 'string',
      default: TELEGRAM_TOKEN_SECRET,
      title: 'Secret store entry holding the bot token (from @BotFather)',
    },
    pollTimeoutSeconds: { type: 'integer', minimum: 1, maximum: 50, default: 30, title: 'Long-poll timeout (s)' },
    editIntervalMs: {
      type: 'integer',
      minimum: 50,
      maximum: 10_000,
      default: 1000,
      title: 'Streaming edit interval (ms)',
    },
  },
} as const;

function integer(raw: Record<string, unknown>, key: 'pollTimeoutSeconds' | 'editIntervalMs', fallback: number) {
  const value = raw[key] ?? fallback;
  const { minimum, maximum } = telegramConfigSchema.properties[key];
  if (typeof value !== 'number' || !Number.isInteger(value) || value < minimum || value > maximum)
    throw new Error(
      `channels.telegram.${key} must be an integer from ${minimum} to ${maximum}, got ${JSON.stringify(value)}`,
    );
  return value;
}

export function validateTelegramConfig(raw: Record<string, unknown>): TelegramConfig {
  for (const key of Object.keys(raw))
    if (!(key in telegramConfigSchema.properties))
      throw new Error(
        `channels.telegram.${key} is not a Telegram setting (known: ${Object.keys(telegramConfigSchema.properties).join(', ')}; the bot token belongs in the secret store)`,
      );
  const apiBaseUrl = raw.apiBaseUrl ?? 'https://api.telegram.org';
  if (typeof apiBaseUrl !== 'string' || !/^https?:\/\/\S+$/.test(apiBaseUrl))
    throw new Error(`channels.telegram.apiBaseUrl must be an http(s) URL, got ${JSON.stringify(apiBaseUrl)}`);
  const tokenSecret = raw.tokenSecret ?? TELEGRAM_TOKEN_SECRET;
  if (typeof tokenSecret !== 'string' || tokenSecret.length === 0)
    throw new Error('channels.telegram.tokenSecret must name a secret store entry');
  const mode = raw.mode ?? 'polling';
  if (mode !== 'polling' && mode !== 'webhook')
    throw new Error(`channels.telegram.mode must be "polling" or "webhook", got ${JSON.stringify(mode)}`);
  const webhookUrl = raw.webhookUrl;
  if (webhookUrl !== undefined && (typeof webhookUrl !== 'string' || !/^https?:\/\/\S+$/.test(webhookUrl)))
    throw new Error(`channels.telegram.webhookUrl must be an http(s) URL, got ${JSON.stringify(webhookUrl)}`);
  if (mode === 'webhook' && webhookUrl === undefined)
    throw new Error(
      'channels.telegram.webhookUrl is required in webhook mode: the public URL that reaches the gateway path /channels/telegram/webhook',
    );
  return {
    mode,
    ...(webhookUrl !== undefined ? { webhookUrl } : {}),
    apiBaseUrl,
    tokenSecret,
    pollTimeoutSeconds: integer(raw, 'pollTimeoutSeconds', 30),
    editIntervalMs: integer(raw, 'editIntervalMs', 1000),
  };
}
