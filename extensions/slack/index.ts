import { definePlugin } from '../../src-main/plugins/sdk/index.js';
import { slackChannel } from './slack-channel.js';

export { SlackApi, SlackApiError } from './slack-api.js';
export { slackChannel } from './slack-channel.js';
export { type SlackConfig, validateSlackConfig } from './slack-config.js';
export { normaliseSlackEvent } from './slack-events.js';
export { escapeSlackText, fromSlackText, splitForSlack, toSlackMrkdwn } from './slack-mrkdwn.js';
export { slackSignature, verifySlackRequest } from './slack-signature.js';

/** Plugin entry: contributes the "slack" channel; configure it under `channels.slack` in hearth.json. */
const slackPlugin = definePlugin({
  id: 'slack',
  name: 'Slack',
  register(api) {
    api.registerChannel({
      id: 'slack',
      description: slackChannel.meta.description,
      create: () => slackChannel,
    });
  },
});

export { slackPlugin };
export default slackPlugin;
