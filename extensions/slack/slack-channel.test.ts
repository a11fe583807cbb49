import { describe, expect, it } from 'vitest';
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
