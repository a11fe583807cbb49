import WebSocket from 'ws';
import {
  Backoff,
  type ChannelInboundMessage,
  type ChannelStartContext,
  retryUntilAnswered,
} from '../../src-main/plugins/sdk/index.js';
import { isFatalSlackError, type SlackApi } from './slack-api.js';
import type { SlackConfig } from './slack-config.js';
import type { SlackEventIds } from './slack-event-ids.js';
import { type SlackMessageEvent, safelyNormalise } from './slack-events.js';
import type { SlackFileRef } from './slack-files.js';

// Socket Mode (https://api.slack.com/apis/socket-mode): apps.connections.open with the app-level
// token gives a one-use WebSocket URL; Slack says `hello`, then sends envelopes
// `{envelope_id, type: events_api | slash_commands | interactive, payload, retry_attempt}`, each
// acknowledged with `{envelope_id}` within 3 s, and `disconnect` when the app should reconnect
// (refresh_requested, warning, link_disabled). An envelope not acknowledged is sent again on the
// same or the next connection.

export interface SocketModeDeps {
  context: ChannelStartContext<SlackConfig>;
  appApi: SlackApi;
  botUserId: string;
  account: string;
  eventIds: SlackEventIds;
  signal: AbortSignal;
  describe(error: unknown, token: 'bot' | 'app'): string;
  /** A `block_actions` payload (a button pressed) to the host; rejects if the host could not take it. */
  takeInteraction(payload: unknown): Promise<void>;
  /** Notes where a DM's replies go; returns the message. */
  remember(normalised: {
    message: ChannelInboundMessage;
    channel: string;
    files: SlackFileRef[];
  }): ChannelInboundMessage;
}

interface Envelope {
  envelope_id?: unknown;
  type?: unknown;
  reason?: unknown;
  retry_attempt?: unknown;
  payload?: { event_id?: unknown; event?: SlackMessageEvent; type?: unknown };
}

/**
 * One envelope: a new event reaches the host, and is acknowledged (and its id remembered) only
 * once the host took it; an event id already taken is acknowledged at once and goes no further.
 * If the host could not take it, no acknowledgement: Slack delivers it again.
 */
export async function takeEnvelope(
  deps: Pick<SocketModeDeps, 'context' | 'botUserId' | 'eventIds' | 'remember'> &
    Partial<Pick<SocketModeDeps, 'takeInteraction'>>,
  envelope: Envelope,
): Promise<boolean> {
  const { context, eventIds } = deps;
  if (envelope.type === 'interactive') {
    // A button press: acknowledged once the host took it; unacknowledged, Slack shows the presser an error.
    try {
      await deps.takeInteraction?.(envelope.payload);
      return true;
    } catch (error) {
      context.log.error('the host could not take a slack interaction', { error: String(error) });
      return false;
    }
  }
  if (envelope.type !== 'events_api') return true;
  const payload = envelope.payload;
  const eventId = typeof payload?.event_id === 'string' ? payload.event_id : undefined;
  if (eventId && eventIds.has(eventId)) {
    context.log.debug('slack event delivered again; already taken', { eventId, retry: envelope.retry_attempt });
    return true;
  }
  const normalised = payload?.event ? safelyNormalise(payload.event, deps.botUserId) : { skip: 'no event' };
  if ('skip' in normalised) context.log.debug('slack event skipped', { eventId, reason: normalised.skip });
  else {
    try {
      await context.receive(deps.remember(normalised));
    } catch (error) {
      context.log.error('the host could not take a slack message', { eventId, error: String(error) });
      return false;
    }
  }
  if (eventId) await eventIds.add(eventId);
  return true;
}

/** Runs one connection until it closes; resolves with whether Slack asked for the reconnect. */
async function connectOnce(deps: SocketModeDeps, url: string, onHello: () => void): Promise<'disconnect' | 'closed'> {
  const { context, signal } = deps;
  const socket = new WebSocket(url);
  let chain: Promise<void> = Promise.resolve();
  let asked = false;
  return new Promise((resolve) => {
    const abort = () => socket.close(1000, 'channel stopping');
    signal.addEventListener('abort', abort, { once: true });
    socket.on('message', (data) => {
      let envelope: Envelope;
      try {
        envelope = JSON.parse(String(data)) as Envelope;
      } catch {
        context.log.warn('slack socket sent a frame that is not JSON; ignored');
        return;
      }
      if (envelope.type === 'hello') return onHello();
      if (envelope.type === 'disconnect') {
        asked = true;
        context.log.info('slack asked to reconnect', { reason: envelope.reason });
        socket.close(1000, 'reconnecting');
        return;
      }
      const envelopeId = typeof envelope.envelope_id === 'string' ? envelope.envelope_id : undefined;
      if (!envelopeId) return;
      // In order, one at a time: the host sees messages as Slack sent them.
      chain = chain.then(async () => {
        const acknowledge = await takeEnvelope(deps, envelope);
        if (acknowledge && socket.readyState === WebSocket.OPEN)
          socket.send(JSON.stringify({ envelope_id: envelopeId }));
      });
    });
    socket.on('error', (error) => context.log.warn('slack socket error', { error: error.message }));
    socket.on('close', () => {
      signal.removeEventListener('abort', abort);
      void chain.finally(() => resolve(asked ? 'disconnect' : 'closed'));
    });
  });
}

/** Connects, and connects again after every close (at once when Slack asked, else with backoff). */
export async function runSocketMode(deps: SocketModeDeps): Promise<void> {
  const { context, appApi, signal, account } = deps;
  const backoff = new Backoff();
  while (!signal.aborted) {
    const url = await retryUntilAnswered(
      async () => {
        const { url } = await appApi.call<{ url: string }>('apps.connections.open', {}, 15_000);
        if (typeof url !== 'string') throw new Error('apps.connections.open gave no url');
        return url;
      },
      {
        signal,
        backoff,
        isFatal: isFatalSlackError,
        onFailure: (error, fatal) =>
          context.reportHealth({
            state: fatal ? 'error' : 'reconnecting',
            account,
            error: deps.describe(error, 'app'),
          }),
      },
    );
    if (url === undefined) return;
    const ended = await connectOnce(deps, url, () => {
      backoff.reset();
      context.reportHealth({ state: 'connected', account });
    });
    if (signal.aborted) return;
    if (ended === 'closed') {
      context.reportHealth({ state: 'reconnecting', account, error: 'the Socket Mode connection closed' });
      await backoff.wait(signal);
    }
  }
}
