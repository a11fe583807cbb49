/** `channels.slack` in hearth.json, the plugin's part (the host owns enabled / dmPolicy / allowFrom / groups). */
export interface SlackConfig {
  /** `socket` (Socket Mode: a WebSocket out, works behind NAT) or `events` (Slack POSTs to the gateway). */
  mode: 'socket' | 'events';
  /** The Web API: Slack's, or the fake one in tests. */
  apiBaseUrl: string;
  /** Secret store entry holding the bot token (`xoxb-…`). */
  tokenSecret: string;
  /** Secret store entry holding the app-level token (`xapp-…`, scope connections:write), Socket Mode. */
  appTokenSecret: string;
  /** Secret store entry holding the app's signing secret, Events API mode. */
  signingSecret: string;
  /** Fewest milliseconds between two chat.update calls of a streamed reply (chat.update is Tier 3, ~50/min). */
  editIntervalMs: number;
}

export const SLACK_TOKEN_SECRET = 'channels.slack.token';
export const SLACK_APP_TOKEN_SECRET = 'channels.slack.appToken';
export const SLACK_SIGNING_SECRET = 'channels.slack.signingSecret';

export const slackConfigSchema = {
  type: 'object',
  additionalProperties: false,
  properties: {
    mode: { type: 'string', enum: ['socket', 'events'], default: 'socket', title: 'How events arrive' },
    apiBaseUrl: { type: 'string', format: 'uri', default: 'https://slack.com/api', title: 'Web API base URL' },
    tokenSecret: {
      type: 'string',
      default: SLACK_TOKEN_SECRET,
      title: 'Secret store entry holding the bot token (xoxb-…)',
    },
    appTokenSecret: {
      type: 'string',
      default: SLACK_APP_TOKEN_SECRET,
      title: 'Secret store entry holding the app-level token (xapp-…, Socket Mode)',
    },
    signingSecret: {
      type: 'string',
      default: SLACK_SIGNING_SECRET,
      title: 'Secret store entry holding the signing secret (Events API mode)',
    },
    editIntervalMs: {
      type: 'integer',
      minimum: 50,
      maximum: 10_000,
      default: 1000,
      title: 'Streaming update interval (ms)',
    },
  },
} as const;

function entry(
  raw: Record<string, unknown>,
  key: 'tokenSecret' | 'appTokenSecret' | 'signingSecret',
  fallback: string,
) {
  const value = raw[key] ?? fallback;
  if (typeof value !== 'string' || value.length === 0)
    throw new Error(`channels.slack.${key} must name a secret store entry, got ${JSON.stringify(value)}`);
  return value;
}

export function validateSlackConfig(raw: Record<string, unknown>): SlackConfig {
  for (const key of Object.keys(raw))
    if (!(key in slackConfigSchema.properties))
      throw new Error(
        `channels.slack.${key} is not a Slack setting (known: ${Object.keys(slackConfigSchema.properties).join(', ')}; tokens belong in the secret store)`,
      );
  const apiBaseUrl = raw.apiBaseUrl ?? 'https://slack.com/api';
  if (typeof apiBaseUrl !== 'string' || !/^https?:\/\/\S+$/.test(apiBaseUrl))
    throw new Error(`channels.slack.apiBaseUrl must be an http(s) URL, got ${JSON.stringify(apiBaseUrl)}`);
  const mode = raw.mode ?? 'socket';
  if (mode !== 'socket' && mode !== 'events')
    throw new Error(`channels.slack.mode must be "socket" or "events", got ${JSON.stringify(mode)}`);
  const interval = raw.editIntervalMs ?? 1000;
  const { minimum, maximum } = slackConfigSchema.properties.editIntervalMs;
  if (typeof interval !== 'number' || !Number.isInteger(interval) || interval < minimum || interval > maximum)
    throw new Error(
      `channels.slack.editIntervalMs must be an integer from ${minimum} to ${maximum}, got ${JSON.stringify(interval)}`,
    );
  return {
    mode,
    apiBaseUrl,
    tokenSecret: entry(raw, 'tokenSecret', SLACK_TOKEN_SECRET),
    appTokenSecret: entry(raw, 'appTokenSecret', SLACK_APP_TOKEN_SECRET),
    signingSecret: entry(raw, 'signingSecret', SLACK_SIGNING_SECRET),
    editIntervalMs: interval,
  };
}
