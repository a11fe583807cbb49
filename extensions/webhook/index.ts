import { definePlugin } from '../../src-main/plugins/sdk/index.js';
import { webhookChannel } from './webhook-channel.js';

export { parseWebhookBody, webhookChannel } from './webhook-channel.js';
export { validateWebhookConfig, type WebhookConfig } from './webhook-config.js';
export { signedHeaders, verifyWebhookRequest, webhookSignature } from './webhook-signature.js';

/** Plugin entry: contributes the "webhook" channel; configure it under `channels.webhook` in hearth.json. */
const webhookPlugin = definePlugin({
  id: 'webhook',
  name: 'Webhook',
  register(api) {
    api.registerChannel({
      id: 'webhook',
      description: webhookChannel.meta.description,
      create: () => webhookChannel,
    });
  },
});

export { webhookPlugin };
export default webhookPlugin;
