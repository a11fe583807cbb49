import { createHmac, timingSafeEqual } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * Test support (never shipped): the other end of the webhook channel, a script's HTTP server on
 * loopback. It records each POST and checks its signature on its own (HMAC-SHA256 of
 * `timestamp.body` with the shared secret), not with the plugin's code.
 */
export interface ReceivedReply {
  body: Record<string, unknown>;
  headers: Record<string, string | undefined>;
  /** The signature matched the body and the timestamp. */
  signatureValid: boolean;
}

export interface FakeWebhookReceiver {
  url: string;
  replies: ReceivedReply[];
  /** The next POST answers this status. */
  failNext(status: number): void;
  waitForReply(predicate: (reply: ReceivedReply) => boolean, timeoutMs?: number): Promise<ReceivedReply>;
  close(): Promise<void>;
}

export async function startFakeWebhookReceiver(secret: string): Promise<FakeWebhookReceiver> {
  const replies: ReceivedReply[] = [];
  const listeners = new Set<() => void>();
  const failures: number[] = [];
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const failure = failures.shift();
      if (failure) {
        response.writeHead(failure).end();
        return;
      }
      const raw = Buffer.concat(chunks).toString('utf8');
      const headers = Object.fromEntries(
        Object.entries(request.headers).map(([k, v]) => [k, Array.isArray(v) ? v.join(', ') : v]),
      );
      const timestamp = headers['x-hearth-timestamp'] ?? '';
      const expected = Buffer.from(
        `sha256=${createHmac('sha256', secret).update(`${timestamp}.${raw}`).digest('hex')}`,
      );
      const given = Buffer.from(headers['x-hearth-signature'] ?? '');
      const signatureValid = given.length === expected.length && timingSafeEqual(given, expected);
      let body: Record<string, unknown> = {};
      try {
        body = JSON.parse(raw) as Record<string, unknown>;
      } catch {
        // Recorded as empty; the test sees it.
      }
      replies.push({ body, headers, signatureValid });
      response.writeHead(204).end();
      for (const listener of [...listeners]) listener();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hearth-replies`,
    replies,
    failNext: (status) => void failures.push(status),
    waitForReply: (predicate, timeoutMs = 20_000) =>
      new Promise((resolve, reject) => {
        const check = () => {
          const found = replies.find(predicate);
          if (!found) return false;
          listeners.delete(listener);
          clearTimeout(timer);
          resolve(found);
          return true;
        };
        const listener = () => void check();
        const timer = setTimeout(() => {
          listeners.delete(listener);
          reject(new Error(`fake webhook receiver: timed out; got ${JSON.stringify(replies.map((r) => r.body))}`));
        }, timeoutMs);
        if (!check()) listeners.add(listener);
      }),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
