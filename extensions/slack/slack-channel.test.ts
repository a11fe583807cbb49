import { afterEach, describe, expect, it } from 'vitest';
import type {
  ChannelHealth,
  ChannelInboundMessage,
  ChannelStartContext,
  RunningChannel,
} from '../../src-main/plugins/sdk/index.js';
import { type FakeSlackServer, startFakeSlackServer } from '../../src-main/testing/fake-slack-server.js';
import { slackChannel } from './slack-channel.js';
import { validateSlackConfig } from './slack-config.js';
import { normaliseSlackEvent } from './slack-events.js';
import { slackSignature, verifySlackRequest } from './slack-signature.js';

const BOT = 'UBOT';

describe('Slack events as host messages', () => {
  it('takes a DM with the person as the peer, and a channel mention with the mention stripped', () => {
    const dm = normaliseSlackEvent(
      { type: 'message', channel_type: 'im', channel: 'D1', user: 'U1', text: 'hi', ts: '1700000000.000100' },
      BOT,
    );
    expect(dm).toMatchObject({
      channel: 'D1',
      message: { messageId: 'D1:1700000000.000100', target: { peerKind: 'direct', peerId: 'U1' }, text: 'hi' },
    });
    expect('message' in dm && dm.message.target.replyToMessageId).toBeFalsy();
    const mention = normaliseSlackEvent(
      { type: 'message', channel_type: 'channel', channel: 'C1', user: 'U1', text: `<@${BOT}>  do it`, ts: '5.1' },
      BOT,
    );
    expect(mention).toMatchObject({
      message: {
        target: { peerKind: 'channel', peerId: 'C1', replyToMessageId: '5.1' },
        text: 'do it',
        addressedToBot: true,
      },
    });
    const quiet = normaliseSlackEvent(
      {
        type: 'message',
        channel_type: 'channel',
        channel: 'C1',
        user: 'U1',
        text: 'chat',
        ts: '5.2',
        thread_ts: '5.0',
      },
      BOT,
    );
    expect(quiet).toMatchObject({ message: { addressedToBot: false, target: { replyToMessageId: '5.0' } } });
  });

  it('skips bots, edits, joins and malformed events', () => {
    const base = { type: 'message', channel: 'D1', user: 'U1', text: 'x', ts: '1.1' };
    expect(normaliseSlackEvent({ ...base, bot_id: 'B1' }, BOT)).toEqual({ skip: 'message from a bot' });
    expect(normaliseSlackEvent({ ...base, user: BOT }, BOT)).toEqual({ skip: 'message from a bot' });
    expect(normaliseSlackEvent({ ...base, subtype: 'message_changed' }, BOT)).toMatchObject({
      skip: expect.any(String),
    });
    expect(normaliseSlackEvent({ ...base, subtype: 'channel_join' }, BOT)).toMatchObject({ skip: expect.any(String) });
    expect(normaliseSlackEvent({ type: 'message', text: 'x' }, BOT)).toMatchObject({
      skip: expect.stringContaining('malformed'),
    });
    expect(normaliseSlackEvent({ ...base, type: 'reaction_added' }, BOT)).toMatchObject({ skip: expect.any(String) });
  });
});

describe('Slack request signing', () => {
  const signingSecret = '8f742231b10e8888abcd99yyyzzz85a5';
  const body = 'token=x&team_id=T1&command=%2Fhello';
  const now = 1_700_000_000_000;
  const timestamp = String(now / 1000);
  const headers = (signature: string, ts = timestamp) => ({
    'x-slack-request-timestamp': ts,
    'x-slack-signature': signature,
  });

  it('accepts v0 HMAC-SHA256 of v0:timestamp:body, refuses anything else', () => {
    const good = slackSignature(signingSecret, timestamp, body);
    expect(good).toMatch(/^v0=[0-9a-f]{64}$/);
    expect(verifySlackRequest({ signingSecret, headers: headers(good), body, nowMs: now })).toEqual({ ok: true });
    expect(verifySlackRequest({ signingSecret, headers: headers(good), body: `${body}x`, nowMs: now })).toEqual({
      ok: false,
      reason: 'signature does not match',
    });
    expect(verifySlackRequest({ signingSecret, headers: {}, body, nowMs: now })).toMatchObject({ ok: false });
  });

  it('refuses a request signed more than five minutes ago', () => {
    const old = String(now / 1000 - 301);
    const signature = slackSignature(signingSecret, old, body);
    expect(verifySlackRequest({ signingSecret, headers: headers(signature, old), body, nowMs: now })).toMatchObject({
      ok: false,
      reason: expect.stringContaining('5-minute window'),
    });
  });
});

describe('Slack config', () => {
  it('has defaults and names a wrong field', () => {
    expect(validateSlackConfig({})).toEqual({
      mode: 'socket',
      apiBaseUrl: 'https://slack.com/api',
      tokenSecret: 'channels.slack.token',
      appTokenSecret: 'channels.slack.appToken',
      signingSecret: 'channels.slack.signingSecret',
      editIntervalMs: 1000,
    });
    expect(() => validateSlackConfig({ botToken: 'xoxb' })).toThrow(/channels\.slack\.botToken is not a Slack setting/);
    expect(() => validateSlackConfig({ mode: 'rtm' })).toThrow(/channels\.slack\.mode must be "socket" or "events"/);
    expect(() => validateSlackConfig({ editIntervalMs: 5 })).toThrow(/editIntervalMs must be an integer from 50/);
    expect(() => validateSlackConfig({ apiBaseUrl: 'slack' })).toThrow(/apiBaseUrl must be an http\(s\) URL/);
  });
});

describe('the Slack plugin alone, against the fake Slack', () => {
  const silent: ChannelStartContext<unknown>['log'] = {
    debug() {},
    info() {},
    warn() {},
    error() {},
    child: () => silent,
  };
  let slack: FakeSlackServer | undefined;
  let running: RunningChannel | undefined;
  afterEach(async () => {
    await running?.dispose();
    running = undefined;
    await slack?.close();
    slack = undefined;
  });

  async function start(secrets: Record<string, string | undefined>, received: ChannelInboundMessage[] = []) {
    slack = await startFakeSlackServer();
    const health: ChannelHealth[] = [];
    const changed = new Set<() => void>();
    const controller = new AbortController();
    running = await slackChannel.start({
      channelId: 'slack',
      accountId: 'default',
      config: validateSlackConfig({ apiBaseUrl: slack.apiUrl, editIntervalMs: 50 }),
      secret: async (account) =>
        account in secrets
          ? secrets[account]
          : (
              { 'channels.slack.token': slack!.botToken, 'channels.slack.appToken': slack!.appToken } as Record<
                string,
                string
              >
            )[account],
      storage: { read: async () => ({}), write: async () => {} },
      log: silent,
      fetch,
      signal: controller.signal,
      receive: async (message) => {
        received.push(message);
        for (const listener of changed) listener();
      },
      reportHealth: (h) => {
        health.push(h);
        for (const listener of changed) listener();
      },
    });
    const until = (test: () => boolean) =>
      new Promise<void>((resolve) => {
        const check = () => {
          if (!test()) return;
          changed.delete(check);
          resolve();
        };
        changed.add(check);
        check();
      });
    return { health, received, until };
  }

  it('refuses to start without a bot token or an app token, saying which entry to fill', async () => {
    await expect(start({ 'channels.slack.token': undefined })).rejects.toThrow(
      /no bot token: .*"channels\.slack\.token" \(`hearth channels token slack`\)/,
    );
    await slack?.close();
    await expect(start({ 'channels.slack.appToken': undefined })).rejects.toThrow(
      /no app-level token: .*hearth channels token slack --secret channels\.slack\.appToken/,
    );
  });

  it('shows a wrong app token as an error naming it, without retrying', async () => {
    const { health, until } = await start({ 'channels.slack.appToken': 'xapp-wrong' });
    await until(() => health.some((h) => h.state === 'error'));
    expect(health.at(-1)).toMatchObject({
      state: 'error',
      error: expect.stringMatching(/Slack rejected the app-level token \(invalid_auth\)/),
    });
    expect(JSON.stringify(health)).not.toContain('xapp-wrong');
    expect(slack!.calls.filter((c) => c.method === 'apps.connections.open')).toHaveLength(1);
  });

  it('skips malformed and unsupported events, and keeps taking the next message', async () => {
    const { health, received, until } = await start({});
    await until(() => health.some((h) => h.state === 'connected'));
    const bad = [
      slack!.sendEvent({ type: 'message' }),
      slack!.sendEvent({ type: 'reaction_added', user: 'U1', reaction: 'tada' }),
      slack!.sendEvent({ type: 'message', subtype: 'message_deleted', channel: 'D1', ts: '1.1' }),
    ];
    const good = slack!.sendUserMessage({ channel: 'D1', user: 'U1', text: 'still here' });
    for (const eventId of [...bad, good.eventId]) await slack!.waitForAck(eventId);
    await until(() => received.length === 1);
    expect(received.map((m) => m.text)).toEqual(['still here']);
  });
});
