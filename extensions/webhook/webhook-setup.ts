import type { ChannelSetupAdapter } from '../../src-main/plugins/sdk/index.js';
import { WEBHOOK_TOKEN_SECRET } from './webhook-config.js';

/** The webhook channel's setup wizard the Control UI renders (docs/CHANNELS.md "Setting up from the app"). */
export const webhookSetup: ChannelSetupAdapter = {
  steps: [
    'Pick a long random shared secret (e.g. openssl rand -hex 32); your script signs requests with it and checks replies with it.',
    'Your script POSTs signed JSON to the gateway path /channels/webhook/webhook; replies are POSTed, signed, to the URL below.',
  ],
  fields: [
    {
      key: 'token',
      label: 'Shared secret',
      help: 'Both sides sign with it (HMAC-SHA256). Kept in the secret store.',
      kind: 'secret',
      required: true,
      secret: { account: WEBHOOK_TOKEN_SECRET, configKey: 'tokenSecret' },
    },
    {
      key: 'outboundUrl',
      label: 'Reply URL',
      help: 'The http(s) URL replies are POSTed to.',
      kind: 'text',
      required: true,
      placeholder: 'https://my-host/hearth-replies',
    },
    {
      key: 'toleranceSeconds',
      label: 'Replay window (seconds)',
      help: 'How far a request’s timestamp may be off.',
      kind: 'number',
      default: 300,
      advanced: true,
    },
  ],
};
