import {
  type ChannelInboundMessage,
  type ChannelTarget,
  defineChannel,
  type RunningChannel,
  retryUntilAnswered,
} from '../../src-main/plugins/sdk/index.js';
import { createSlackAgentTools, slackAgentTools } from './agent-tools.js';
import { SLACK_MAX_UPLOAD_BYTES, sendSlackFile } from './send-media.js';
import { isFatalSlackError, SlackApi, SlackApiError } from './slack-api.js';
import { normaliseBlockActions, type SlackBlockActions, slackButtons } from './slack-buttons.js';
import { type SlackConfig, slackConfigSchema, validateSlackConfig } from './slack-config.js';
import { SlackEventIds } from './slack-event-ids.js';
import { type SlackMessageEvent, safelyNormalise } from './slack-events.js';
import { downloadSlackFiles, type SlackFileRef } from './slack-files.js';
import { slackSetup } from './slack-setup.js';
import { verifySlackRequest } from './slack-signature.js';
import { runSocketMode } from './slack-socket.js';
import { SLACK_MAX_MESSAGE, sendSlackText, startSlackStream } from './slack-stream.js';

function describeFailure(error: unknown, token: 'bot' | 'app' = 'bot'): string {
  if (error instanceof SlackApiError) {
    if (isFatalSlackError(error))
      return token === 'bot'
        ? `Slack rejected the bot token (${error.error}): store a valid bot token (xoxb-…) with \`hearth channels token slack\``
        : `Slack rejected the app-level token (${error.error}): store a valid app token (xapp-…, scope connections:write) with \`hearth channels token slack --secret channels.slack.appToken\``;
    if (error.status === 0) return `cannot reach the Slack API (${error.error})`;
    return error.message;
  }
  return String(error);
}

interface AuthTest extends Record<string, unknown> {
  user_id: string;
  user?: string;
  team?: string;
}

export const slackChannel = defineChannel<SlackConfig>({
  id: 'slack',
  meta: {
    name: 'Slack',
    icon: '💬',
    description:
      'A Slack app (Socket Mode or Events API): DMs, channels and threads, replies updated in place while streaming.',
  },
  capabilities: {
    editMessages: true,
    threads: true,
    reactions: false,
    buttons: true,
    groups: true,
    media: ['image', 'document'],
    maxMessageLength: SLACK_MAX_MESSAGE,
    maxUploadBytes: SLACK_MAX_UPLOAD_BYTES,
    markdown: 'slack-mrkdwn',
  },
  config: {
    schema: slackConfigSchema,
    validate: validateSlackConfig,
    secrets: [
      { account: 'channels.slack.token', description: 'the bot token (xoxb-…) from OAuth & Permissions' },
      { account: 'channels.slack.appToken', description: 'the app-level token (xapp-…) for Socket Mode' },
      { account: 'channels.slack.signingSecret', description: 'the signing secret, for Events API mode' },
    ],
  },
  setup: slackSetup,
  security: {
    defaultDmPolicy: 'pairing',
    senderId: {
      pattern: '[UW][A-Z0-9]{2,}',
      description: 'a Slack user id, such as U0123ABCD (profile → ⋯ → Copy member ID)',
    },
    groupId: {
      pattern: '[CG][A-Z0-9]{2,}',
      description: 'a Slack channel id, such as C0123ABCD (channel details → bottom)',
    },
  },
  agentTools: slackAgentTools,
  reload: { configPrefixes: ['channels.slack'] },
  async start(context): Promise<RunningChannel> {
    const { config, log } = context;
    // Receiving stops with the context's signal; sending (replies still streaming) only at dispose.
    const controller = new AbortController();
    const signal = AbortSignal.any([controller.signal, context.signal]);
    const token = await context.secret(config.tokenSecret);
    if (!token)
      throw new Error(
        `no bot token: store the bot token (xoxb-…) in the secret store as "${config.tokenSecret}" (\`hearth channels token slack\`)`,
      );
    const appToken = config.mode === 'socket' ? await context.secret(config.appTokenSecret) : undefined;
    if (config.mode === 'socket' && !appToken)
      throw new Error(
        `no app-level token: Socket Mode needs an app token (xapp-…, scope connections:write) in the secret store as "${config.appTokenSecret}" (\`hearth channels token slack --secret ${config.appTokenSecret}\`)`,
      );
    const signingSecret = config.mode === 'events' ? await context.secret(config.signingSecret) : undefined;
    if (config.mode === 'events' && !signingSecret)
      throw new Error(
        `no signing secret: Events API mode needs the app's signing secret in the secret store as "${config.signingSecret}" (\`hearth channels token slack --secret ${config.signingSecret}\`)`,
      );
    if (config.mode === 'events' && !context.webhook)
      throw new Error('Events API mode needs the gateway to serve HTTP, and this host has none');

    const api = (key: string, on: AbortSignal) =>
      new SlackApi({ baseUrl: config.apiBaseUrl, token: key, fetch: context.fetch, signal: on });
    const botApi = api(token, signal);
    const sender = api(token, controller.signal);
    const eventIds = await SlackEventIds.open(context.storage);
    // A DM's peer is the person; the DM channel (D…) they wrote from is where replies go.
    const dmChannels = new Map<string, string>();
    const channelOf = (target: ChannelTarget) =>
      target.peerKind === 'direct' ? (dmChannels.get(target.peerId) ?? target.peerId) : target.peerId;
    // Files are fetched only if the host lets the sender through (a stranger's never are).
    const trustedHosts = [new URL(config.apiBaseUrl).host, 'files.slack.com'];
    const remember = (normalised: { message: ChannelInboundMessage; channel: string; files: SlackFileRef[] }) => {
      const { message, files } = normalised;
      if (message.target.peerKind === 'direct') dmChannels.set(message.target.peerId, normalised.channel);
      if (files.length === 0) return message;
      return {
        ...message,
        loadAttachments: () => downloadSlackFiles(files, { token, fetch: context.fetch, signal, trustedHosts }),
      };
    };

    /** A button press (block_actions) to the host, which checks who pressed and answers it. */
    const takeInteraction = async (payload: unknown) => {
      let normalised: ReturnType<typeof normaliseBlockActions>;
      try {
        normalised = normaliseBlockActions(payload as SlackBlockActions, sender);
      } catch (error) {
        normalised = { skip: `malformed interaction (${String(error)})` };
      }
      if ('skip' in normalised) {
        log.debug('slack interaction skipped', { reason: normalised.skip });
        return;
      }
      const { press, channel } = normalised;
      if (press.target.peerKind === 'direct') dmChannels.set(press.target.peerId, channel);
      if (context.receivePress) await context.receivePress(press);
    };

    const running = (async () => {
      const auth = await retryUntilAnswered(() => botApi.call<AuthTest>('auth.test', {}, 15_000), {
        signal,
        isFatal: isFatalSlackError,
        onFailure: (error, fatal) =>
          context.reportHealth({ state: fatal ? 'error' : 'reconnecting', error: describeFailure(error) }),
      });
      if (!auth) return;
      const account = `@${auth.user ?? auth.user_id}${auth.team ? ` in ${auth.team}` : ''}`;
      if (config.mode === 'socket') {
        await runSocketMode({
          context,
          appApi: api(appToken!, signal),
          botUserId: auth.user_id,
          account,
          eventIds,
          signal,
          describe: describeFailure,
          remember,
          takeInteraction,
        });
        return;
      }
      listenForEvents(auth.user_id);
      context.reportHealth({ state: 'connected', account });
    })().catch((error) => {
      if (!signal.aborted) {
        log.error('slack channel stopped', { error: describeFailure(error) });
        context.reportHealth({ state: 'error', error: describeFailure(error) });
      }
    });

    /**
     * Events API mode: Slack POSTs each event to the gateway's /channels/slack/webhook, signed
     * with the signing secret. A request that is not signed, or signed more than 5 minutes ago,
     * is refused 401 and reaches nothing. An event is answered 200 once the host took it, 500
     * otherwise (Slack retries; a retried event id already taken is answered 200 and dropped).
     * The app's Interactivity Request URL may be the same path: a button press arrives as a signed
     * form body `payload=<JSON>` (block_actions), answered 200 once the host took it.
     */
    function listenForEvents(botUserId: string) {
      const listening = context.webhook!.listen(async (request) => {
        const verified = verifySlackRequest({
          signingSecret: signingSecret!,
          headers: request.headers,
          body: request.body,
          nowMs: Date.now(),
        });
        if (!verified.ok) {
          log.warn('slack events request refused', { reason: verified.reason });
          return { status: 401, body: `unauthorized: ${verified.reason}` };
        }
        if ((request.headers['content-type'] ?? '').startsWith('application/x-www-form-urlencoded')) {
          let payload: unknown;
          try {
            payload = JSON.parse(new URLSearchParams(request.body).get('payload') ?? '');
          } catch {
            return { status: 400, body: 'the form has no JSON payload' };
          }
          await takeInteraction(payload);
          return { status: 200 };
        }
        let body: { type?: unknown; challenge?: unknown; event_id?: unknown; event?: SlackMessageEvent };
        try {
          body = JSON.parse(request.body) as typeof body;
        } catch {
          return { status: 400, body: 'the body is not JSON' };
        }
        if (body.type === 'url_verification' && typeof body.challenge === 'string')
          return { status: 200, body: body.challenge };
        if (body.type !== 'event_callback') return { status: 200 };
        const eventId = typeof body.event_id === 'string' ? body.event_id : undefined;
        if (eventId && eventIds.has(eventId)) return { status: 200 };
        const normalised = body.event ? safelyNormalise(body.event, botUserId) : { skip: 'no event' };
        if ('skip' in normalised) log.debug('slack event skipped', { eventId, reason: normalised.skip });
        else await context.receive(remember(normalised));
        if (eventId) await eventIds.add(eventId);
        return { status: 200 };
      });
      signal.addEventListener('abort', () => listening.dispose(), { once: true });
    }

    return {
      outbound: {
        sendText: async (target, text) => ({ messageId: await sendSlackText(sender, channelOf, target, text) }),
        sendFile: async (target, file) => ({
          messageId: await sendSlackFile(
            { api: sender, fetch: context.fetch, signal: controller.signal },
            channelOf,
            target,
            file,
          ),
        }),
      },
      streaming: {
        begin: (target) =>
          startSlackStream(sender, channelOf, target, {
            editIntervalMs: config.editIntervalMs,
            onError: (error) => log.warn('slack streaming update failed', { error: describeFailure(error) }),
          }),
      },
      // Approval prompts: Block Kit buttons whose presses come back as block_actions.
      buttons: slackButtons(sender, channelOf),
      agentTools: createSlackAgentTools(sender, channelOf),
      async dispose() {
        controller.abort(new Error('slack channel stopped'));
        await running;
      },
    };
  },
});
