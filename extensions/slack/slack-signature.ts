import { createHmac, timingSafeEqual } from 'node:crypto';

// Slack's request signing (https://api.slack.com/authentication/verifying-requests-from-slack):
// `X-Slack-Signature: v0=<hex HMAC-SHA256(signing secret, "v0:" + timestamp + ":" + raw body)>`
// with `X-Slack-Request-Timestamp`, refused when older (or newer) than five minutes: a captured
// request cannot be replayed later.

export const SLACK_REPLAY_WINDOW_SECONDS = 5 * 60;

export function slackSignature(signingSecret: string, timestamp: string, body: string): string {
  return `v0=${createHmac('sha256', signingSecret).update(`v0:${timestamp}:${body}`).digest('hex')}`;
}

export function verifySlackRequest(input: {
  signingSecret: string;
  headers: Record<string, string | undefined>;
  body: string;
  nowMs: number;
}): { ok: true } | { ok: false; reason: string } {
  const timestamp = input.headers['x-slack-request-timestamp'];
  const given = input.headers['x-slack-signature'];
  if (!timestamp || !/^\d+$/.test(timestamp)) return { ok: false, reason: 'no X-Slack-Request-Timestamp' };
  if (!given) return { ok: false, reason: 'no X-Slack-Signature' };
  if (Math.abs(input.nowMs / 1000 - Number(timestamp)) > SLACK_REPLAY_WINDOW_SECONDS)
    return { ok: false, reason: 'timestamp outside the 5-minute window (replayed or clock skew)' };
  const expected = Buffer.from(slackSignature(input.signingSecret, timestamp, input.body));
  const actual = Buffer.from(given);
  if (actual.length !== expected.length || !timingSafeEqual(actual, expected))
    return { ok: false, reason: 'signature does not match' };
  return { ok: true };
}
