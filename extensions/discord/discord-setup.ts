import type { ChannelSetupAdapter } from '../../src-main/plugins/sdk/index.js';
import { DISCORD_API_BASE, DISCORD_TOKEN_SECRET } from './discord-config.js';

/** The Discord setup wizard the Control UI renders (docs/CHANNELS.md "Setting up from the app"). */
export const discordSetup: ChannelSetupAdapter = {
  steps: [
    'In the Discord Developer Portal: New Application → Bot; turn on the Message Content intent and copy the token.',
    'Invite the bot to your server: OAuth2 → URL Generator, scope bot, permissions Send Messages, Read Message History, Attach Files.',
    'After saving, DM the bot: you get a pairing code, and approve it on this page.',
  ],
  fields: [
    {
      key: 'token',
      label: 'Bot token',
      help: 'Developer Portal → Bot → Reset Token. Kept in the secret store, never in hearth.json.',
      kind: 'secret',
      required: true,
      secret: { account: DISCORD_TOKEN_SECRET, configKey: 'tokenSecret' },
    },
    {
      key: 'apiBaseUrl',
      label: 'REST API base (with /v10)',
      kind: 'text',
      default: DISCORD_API_BASE,
      advanced: true,
    },
    {
      key: 'gatewayUrl',
      label: 'Gateway WebSocket URL',
      help: 'Empty: asked from Discord (GET /gateway/bot).',
      kind: 'text',
      advanced: true,
    },
    {
      key: 'editIntervalMs',
      label: 'Streaming edit interval (ms)',
      kind: 'number',
      default: 1000,
      advanced: true,
    },
  ],
};
