import { createHmac, timingSafeEqual } from 'node:crypto';

// How the webhook channel signs, both ways: `X-Hearth-Timestamp: <unix seconds>` and
// `X-Hearth-Signature: sha256=<hex HMAC-SHA256(secret, timestamp + "." + raw body)>`. The
// timestamp is inside the signature, so a captured request cannot be replayed with a new one,
// and a request older (or newer) than the window is refused.

export const TIMESTAMP_HEADER = 'x-hearth-timestamp';
export const SIGNATURE_HEADER = 'x-hearth-signature';

export function webhookSignature(secret: string, timestamp: string, body: string): string {
  return `sha256=${createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex')}`;
}

/** The two headers for a body signed now. */
export function signedHeaders(secret: string, body: string, nowMs: number): Record<string, string> {
  const timestamp = String(Math.floor(nowMs / 1000));
  return { [TIMESTAMP_HEADER]: timestamp, [SIGNATURE_HEADER]: webhookSignature(secret, timestamp, body) };
}

export function verifyWebhookRequest(input: {
  secret: string;
  headers: Record<string, string | undefined>;
  body: string;
  nowMs: number;
  toleranceSeconds: number;
}): { ok: true } | { ok: false; reason: string } {
  const timestamp = input.headers[TIMESTAMP_HEADER];
  const given = input.headers[SIGNATURE_HEADER];
  if (!timestamp || !/^\d+$/.test(timestamp)) return { ok: false, reason: 'no X-Hearth-Timestamp (unix seconds)' };
  if (!given) return { ok: false, reason: 'no X-Hearth-Signature' };
  if (Math.abs(input.nowMs / 1000 - Number(timestamp)) > input.toleranceSeconds)
    return {
      ok: false,
      reason: `timestamp outside the ${input.toleranceSeconds}-second window (replayed or clock skew)`,
    };
  const expected = Buffer.from(webhookSignature(input.secret, timestamp, input.body));
  const actual = Buffer.from(given);
  if (actual.length !== expected.length || !timingSafeEqual(actual, expected))
    return { ok: false, reason: 'signature does not match' };
  return { ok: true };
}
