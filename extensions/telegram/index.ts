import { definePlugin } from '../../src-main/plugins/sdk/index.js';
import { telegramChannel } from './telegram-channel.js';

export { TelegramApi, TelegramApiError } from './telegram-api.js';
export { normaliseUpdate, telegramChannel } from './telegram-channel.js';
export { type TelegramConfig, validateTelegramConfig } from './telegram-config.js';
export { escapeMarkdownV2, splitForTelegram, toTelegramMarkdownV2 } from './telegram-markdown.js';

/** Plugin entry: contributes the "telegram" channel; configure it under `channels.telegram` in hearth.json. */
const telegramPlugin = definePlugin({
  id: 'telegram',
  name: 'Telegram',
  register(api) {
    api.registerChannel({
      id: 'telegram',
      description: telegramChannel.meta.description,
      create: () => telegramChannel,
    });
  },
});

export { telegramPlugin };
export default telegramPlugin;
