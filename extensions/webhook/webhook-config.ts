/** `channels.webhook` in hearth.json, the plugin's part (the host owns enabled / dmPolicy / allowFrom / groups). */
export interface WebhookConfig {
  /** Where replies are POSTed (signed like the requests that come in). */
  outboundUrl: string;
  /** Secret store entry holding the shared secret both sides sign with. */
  tokenSecret: string;
  /** How old (or new) a request's timestamp may be, seconds. */
  toleranceSeconds: number;
}

export const WEBHOOK_TOKEN_SECRET = 'channels.webhook.token';

export const webhookConfigSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['outboundUrl'],
  properties: {
    outboundUrl: { type: 'string', format: 'uri', title: 'URL the replies are POSTed to' },
    tokenSecret: {
      type: 'string',
      default: WEBHOOK_TOKEN_SECRET,
      title: 'Secret store entry holding the shared signing secret',
    },
    toleranceSeconds: {
      type: 'integer',
      minimum: 30,
      maximum: 3600,
      default: 300,
      title: 'Replay window (s)',
    },
  },
} as const;

export function validateWebhookConfig(raw: Record<string, unknown>): WebhookConfig {
  for (const key of Object.keys(raw))
    if (!(key in webhookConfigSchema.properties))
      throw new Error(
        `channels.webhook.${key} is not a webhook setting (known: ${Object.keys(webhookConfigSchema.properties).join(', ')}; the secret belongs in the secret store)`,
      );
  const outboundUrl = raw.outboundUrl;
  if (typeof outboundUrl !== 'string' || !/^https?:\/\/\S+$/.test(outboundUrl))
    throw new Error(
      `channels.webhook.outboundUrl must be the http(s) URL replies are POSTed to, got ${JSON.stringify(outboundUrl)}`,
    );
  const tokenSecret = raw.tokenSecret ?? WEBHOOK_TOKEN_SECRET;
  if (typeof tokenSecret !== 'string' || tokenSecret.length === 0)
    throw new Error('channels.webhook.tokenSecret must name a secret store entry');
  const tolerance = raw.toleranceSeconds ?? 300;
  const { minimum, maximum } = webhookConfigSchema.properties.toleranceSeconds;
  if (typeof tolerance !== 'number' || !Number.isInteger(tolerance) || tolerance < minimum || tolerance > maximum)
    throw new Error(
      `channels.webhook.toleranceSeconds must be an integer from ${minimum} to ${maximum}, got ${JSON.stringify(tolerance)}`,
    );
  return { outboundUrl, tokenSecret, toleranceSeconds: tolerance };
}
