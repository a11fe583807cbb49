import type { ChannelSetupAdapter } from '../../src-main/plugins/sdk/index.js';
import { TELEGRAM_TOKEN_SECRET } from './telegram-config.js';

/** The Telegram setup wizard the Control UI renders (docs/CHANNELS.md "Setting up from the app"). */
export const telegramSetup: ChannelSetupAdapter = {
  steps: [
    'In Telegram, open @BotFather and send /newbot; pick a name and a username ending in "bot".',
    'Copy the token BotFather answers with (it looks like 123456:ABC-…) and paste it below.',
    'After saving, write to your bot: you get a pairing code, and approve it on this page.',
  ],
  fields: [
    {
      key: 'token',
      label: 'Bot token',
      help: 'From @BotFather. Kept in the secret store, never in hearth.json.',
      kind: 'secret',
      required: true,
      placeholder: '123456:ABC-DEF…',
      secret: { account: TELEGRAM_TOKEN_SECRET, configKey: 'tokenSecret' },
    },
    {
      key: 'mode',
      label: 'How messages arrive',
      help: 'Polling works behind any router. Webhook needs a public HTTPS URL that reaches this gateway.',
      kind: 'select',
      default: 'polling',
      options: [
        { value: 'polling', label: 'Polling (works anywhere)' },
        { value: 'webhook', label: 'Webhook (public URL)' },
      ],
    },
    {
      key: 'webhookUrl',
      label: 'Public webhook URL',
      help: 'The HTTPS URL that reaches the gateway path /channels/telegram/webhook.',
      kind: 'text',
      required: true,
      placeholder: 'https://example.com/channels/telegram/webhook',
      when: { key: 'mode', equals: 'webhook' },
    },
    {
      key: 'apiBaseUrl',
      label: 'Bot API server',
      help: 'Telegram’s own, or a local telegram-bot-api server.',
      kind: 'text',
      default: 'https://api.telegram.org',
      advanced: true,
    },
    {
      key: 'pollTimeoutSeconds',
      label: 'Long-poll timeout (seconds)',
      kind: 'number',
      default: 30,
      advanced: true,
      when: { key: 'mode', equals: 'polling' },
    },
    {
      key: 'editIntervalMs',
      label: 'Streaming edit interval (ms)',
      help: 'Fewest milliseconds between two edits of a reply being written.',
      kind: 'number',
      default: 1000,
      advanced: true,
    },
  ],
};
