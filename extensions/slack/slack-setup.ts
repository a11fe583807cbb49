import type { ChannelSetupAdapter } from '../../src-main/plugins/sdk/index.js';
import { SLACK_APP_TOKEN_SECRET, SLACK_SIGNING_SECRET, SLACK_TOKEN_SECRET } from './slack-config.js';

/** The Slack setup wizard the Control UI renders (docs/CHANNELS.md "Setting up from the app"). */
export const slackSetup: ChannelSetupAdapter = {
  steps: [
    'At api.slack.com/apps create an app; under OAuth & Permissions add the bot scopes chat:write, im:history, channels:history, groups:history, mpim:history, app_mentions:read (and files:write to send files), install it and copy the Bot User OAuth Token (xoxb-…).',
    'Socket Mode (default): turn Socket Mode on and create an app-level token with connections:write (xapp-…); subscribe the bot to message.im, message.channels, message.groups, message.mpim and app_mention.',
    'After saving, DM the bot: you get a pairing code, and approve it on this page.',
  ],
  fields: [
    {
      key: 'token',
      label: 'Bot token (xoxb-…)',
      help: 'OAuth & Permissions → Bot User OAuth Token. Kept in the secret store.',
      kind: 'secret',
      required: true,
      placeholder: 'xoxb-…',
      secret: { account: SLACK_TOKEN_SECRET, configKey: 'tokenSecret' },
    },
    {
      key: 'mode',
      label: 'How events arrive',
      help: 'Socket Mode works behind any router; the Events API needs a public URL that reaches this gateway.',
      kind: 'select',
      default: 'socket',
      options: [
        { value: 'socket', label: 'Socket Mode (works anywhere)' },
        { value: 'events', label: 'Events API (public URL)' },
      ],
    },
    {
      key: 'appToken',
      label: 'App-level token (xapp-…)',
      help: 'Basic Information → App-Level Tokens, with the scope connections:write.',
      kind: 'secret',
      required: true,
      placeholder: 'xapp-…',
      when: { key: 'mode', equals: 'socket' },
      secret: { account: SLACK_APP_TOKEN_SECRET, configKey: 'appTokenSecret' },
    },
    {
      key: 'signing',
      label: 'Signing secret',
      help: 'Basic Information → App Credentials. Set the Request URL to the public URL of /channels/slack/webhook.',
      kind: 'secret',
      required: true,
      when: { key: 'mode', equals: 'events' },
      secret: { account: SLACK_SIGNING_SECRET, configKey: 'signingSecret' },
    },
    {
      key: 'apiBaseUrl',
      label: 'Web API base URL',
      kind: 'text',
      default: 'https://slack.com/api',
      advanced: true,
    },
    {
      key: 'editIntervalMs',
      label: 'Streaming update interval (ms)',
      kind: 'number',
      default: 1000,
      advanced: true,
    },
  ],
};
