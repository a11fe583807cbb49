import { definePlugin } from '../../src-main/plugins/sdk/index.js';
import { discordChannel } from './discord-channel.js';

export { discordChannel, normaliseMessage } from './discord-channel.js';
export { type DiscordConfig, validateDiscordConfig } from './discord-config.js';
export { DISCORD_INTENTS, DiscordGateway } from './discord-gateway.js';
export { splitForDiscord, toDiscordMarkdown } from './discord-markdown.js';
export { DiscordApiError, DiscordRest } from './discord-rest.js';
export { createDiscordMessage } from './discord-stream.js';

/** Plugin entry: contributes the "discord" channel; configure it under `channels.discord` in hearth.json. */
const discordPlugin = definePlugin({
  id: 'discord',
  name: 'Discord',
  register(api) {
    api.registerChannel({
      id: 'discord',
      description: discordChannel.meta.description,
      create: () => discordChannel,
    });
  },
});

export { discordPlugin };
export default discordPlugin;
