import { describe, expect, it } from 'vitest';
import { parseWebhookBody } from './webhook-channel.js';
import { validateWebhookConfig } from './webhook-config.js';
import { signedHeaders, verifyWebhookRequest, webhookSignature } from './webhook-signature.js';

describe('webhook signing', () => {
  const secret = 'k';
  const now = 1_700_000_000_000;
  it('signs timestamp.body with HMAC-SHA256 and verifies it within the window only', () => {
    const headers = signedHeaders(secret, '{"a":1}', now);
    expect(headers['x-hearth-signature']).toBe(webhookSignature(secret, '1700000000', '{"a":1}'));
    const verify = (body: string, at: number) =>
      verifyWebhookRequest({ secret, headers, body, nowMs: at, toleranceSeconds: 300 });
    expect(verify('{"a":1}', now)).toEqual({ ok: true });
    expect(verify('{"a":2}', now)).toEqual({ ok: false, reason: 'signature does not match' });
    expect(verify('{"a":1}', now + 301_000)).toMatchObject({ ok: false, reason: expect.stringContaining('window') });
    expect(
      verifyWebhookRequest({ secret: 'other', headers, body: '{"a":1}', nowMs: now, toleranceSeconds: 300 }),
    ).toMatchObject({ ok: false });
  });
});

describe('webhook bodies and config', () => {
  it('takes text and sender, routes by conversation, and names what is wrong', () => {
    expect(parseWebhookBody('{"text":"hi","sender":"ha","conversation":"k","id":"m1"}', 5)).toMatchObject({
      message: { messageId: 'm1', target: { peerKind: 'direct', peerId: 'k', replyToMessageId: 'm1' }, text: 'hi' },
    });
    expect(parseWebhookBody('{"text":"hi","sender":"ha"}', 5)).toMatchObject({ message: { target: { peerId: 'ha' } } });
    expect(parseWebhookBody('[]', 5)).toEqual({ error: 'the body must be a JSON object' });
    expect(parseWebhookBody('{"text":"  ","sender":"ha"}', 5)).toEqual({ error: '"text" must be a non-empty string' });
    expect(parseWebhookBody('{"text":"x","sender":"ha","id":"../etc"}', 5)).toMatchObject({
      error: expect.stringContaining('"id"'),
    });
  });

  it('needs an outbound URL and names an unknown key', () => {
    expect(validateWebhookConfig({ outboundUrl: 'http://h/x' })).toEqual({
      outboundUrl: 'http://h/x',
      tokenSecret: 'channels.webhook.token',
      toleranceSeconds: 300,
    });
    expect(() => validateWebhookConfig({})).toThrow(/channels\.webhook\.outboundUrl must be the http\(s\) URL/);
    expect(() => validateWebhookConfig({ outboundUrl: 'http://h', secret: 'x' })).toThrow(
      /channels\.webhook\.secret is not a webhook setting/,
    );
    expect(() => validateWebhookConfig({ outboundUrl: 'http://h', toleranceSeconds: 5 })).toThrow(/from 30 to 3600/);
  });
});
