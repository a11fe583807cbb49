import { randomUUID } from 'node:crypto';
import {
  type ChannelInboundMessage,
  type ChannelTarget,
  defineChannel,
  type RunningChannel,
} from '../../src-main/plugins/sdk/index.js';
import { validateWebhookConfig, type WebhookConfig, webhookConfigSchema } from './webhook-config.js';
import { webhookSetup } from './webhook-setup.js';
import { signedHeaders, verifyWebhookRequest } from './webhook-signature.js';

/** What a script POSTs: `{"text": "...", "sender": "...", "conversation"?: "...", "id"?: "..."}`. */
interface InboundBody {
  id?: unknown;
  sender?: unknown;
  senderName?: unknown;
  conversation?: unknown;
  text?: unknown;
}

const ID = /^[\w.:@-]{1,128}$/;

/** The body as the host's message, or the words of a 400. */
export function parseWebhookBody(body: string, nowMs: number): { message: ChannelInboundMessage } | { error: string } {
  let parsed: InboundBody;
  try {
    parsed = JSON.parse(body) as InboundBody;
  } catch {
    return { error: 'the body must be JSON: {"text": "…", "sender": "…", "conversation"?: "…", "id"?: "…"}' };
  }
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed))
    return { error: 'the body must be a JSON object' };
  if (typeof parsed.text !== 'string' || parsed.text.trim() === '')
    return { error: '"text" must be a non-empty string' };
  if (typeof parsed.sender !== 'string' || !ID.test(parsed.sender))
    return { error: '"sender" must be an id of 1–128 letters, digits or . _ : @ -' };
  if (parsed.conversation !== undefined && (typeof parsed.conversation !== 'string' || !ID.test(parsed.conversation)))
    return { error: '"conversation" must be an id of 1–128 letters, digits or . _ : @ -' };
  if (parsed.id !== undefined && (typeof parsed.id !== 'string' || !ID.test(parsed.id)))
    return { error: '"id" must be an id of 1–128 letters, digits or . _ : @ -' };
  if (parsed.senderName !== undefined && typeof parsed.senderName !== 'string')
    return { error: '"senderName" must be a string' };
  const id = parsed.id ?? randomUUID();
  return {
    message: {
      messageId: id,
      target: { peerKind: 'direct', peerId: parsed.conversation ?? parsed.sender, replyToMessageId: id },
      sender: { id: parsed.sender, ...(parsed.senderName ? { name: parsed.senderName } : {}) },
      text: parsed.text,
      ts: nowMs,
    },
  };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * POSTs a reply, signed. A network failure, a 5xx or a 429 (its Retry-After, up to 30 s) is tried
 * again, three attempts in all; any other answer but 2xx fails naming the status.
 */
async function postReply(
  config: WebhookConfig,
  secret: string,
  fetchImpl: typeof fetch,
  signal: AbortSignal,
  payload: Record<string, unknown>,
): Promise<void> {
  const body = JSON.stringify(payload);
  let last = '';
  for (let attempt = 1; attempt <= 3; attempt++) {
    let waitMs = 500 * attempt;
    try {
      const response = await fetchImpl(config.outboundUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...signedHeaders(secret, body, Date.now()) },
        body,
        signal: AbortSignal.any([signal, AbortSignal.timeout(15_000)]),
      });
      await response.body?.cancel().catch(() => {});
      if (response.ok) return;
      last = `answered ${response.status}`;
      if (response.status !== 429 && response.status < 500) break;
      const retryAfter = Number(response.headers.get('retry-after'));
      if (response.status === 429 && Number.isFinite(retryAfter)) waitMs = Math.min(retryAfter, 30) * 1000;
    } catch (error) {
      if (signal.aborted) throw signal.reason;
      last = (error as { cause?: { code?: string } }).cause?.code ?? (error as Error).message;
    }
    if (attempt < 3) await sleep(waitMs);
  }
  throw new Error(`the webhook reply to ${new URL(config.outboundUrl).origin} failed: ${last}`);
}

export const webhookChannel = defineChannel<WebhookConfig>({
  id: 'webhook',
  meta: {
    name: 'Webhook',
    icon: '🪝',
    description: 'Signed HTTP in on the gateway, signed replies POSTed to a URL: for home automation and scripts.',
  },
  capabilities: {
    editMessages: false,
    threads: false,
    reactions: false,
    buttons: false,
    groups: false,
    media: [],
    maxMessageLength: 100_000,
    markdown: 'commonmark',
  },
  config: {
    schema: webhookConfigSchema,
    validate: validateWebhookConfig,
    secrets: [
      { account: 'channels.webhook.token', description: 'the shared secret requests and replies are signed with' },
    ],
  },
  // Only a holder of the shared secret can post at all: the signature is the sender's credential.
  setup: webhookSetup,
  security: { defaultDmPolicy: 'open' },
  reload: { configPrefixes: ['channels.webhook'] },
  async start(context): Promise<RunningChannel> {
    const { config, log, webhook } = context;
    const controller = new AbortController();
    const secret = await context.secret(config.tokenSecret);
    if (!secret)
      throw new Error(
        `no shared secret: store one in the secret store as "${config.tokenSecret}" (\`hearth channels token webhook < secret.txt\`)`,
      );
    if (!webhook) throw new Error('the webhook channel needs the gateway to serve HTTP, and this host has none');
    const listening = webhook.listen(async (request) => {
      const verified = verifyWebhookRequest({
        secret,
        headers: request.headers,
        body: request.body,
        nowMs: Date.now(),
        toleranceSeconds: config.toleranceSeconds,
      });
      if (!verified.ok) {
        log.warn('webhook request refused', { reason: verified.reason });
        return { status: 401, body: JSON.stringify({ error: `unauthorized: ${verified.reason}` }) };
      }
      const parsed = parseWebhookBody(request.body, Date.now());
      if ('error' in parsed) return { status: 400, body: JSON.stringify({ error: parsed.error }) };
      try {
        await context.receive(parsed.message);
      } catch (error) {
        log.error('the host could not take a webhook message', { error: String(error) });
        return { status: 503, body: JSON.stringify({ error: 'the channel is stopping; send it again' }) };
      }
      return { status: 202, body: JSON.stringify({ accepted: true, id: parsed.message.messageId }) };
    });
    context.signal.addEventListener('abort', () => listening.dispose(), { once: true });
    context.reportHealth({ state: 'connected', account: `POST ${webhook.path}` });

    const sendText = async (target: ChannelTarget, text: string) => {
      const id = randomUUID();
      await postReply(config, secret, context.fetch, controller.signal, {
        type: 'message',
        id,
        conversation: target.peerId,
        ...(target.replyToMessageId ? { inReplyTo: target.replyToMessageId } : {}),
        text,
        ts: Date.now(),
      });
      return { messageId: id };
    };
    return {
      outbound: { sendText },
      async dispose() {
        listening.dispose();
        controller.abort(new Error('webhook channel stopped'));
      },
    };
  },
});
