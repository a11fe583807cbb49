import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { fetchWithin, redactSecret, withRateLimitRetries } from './rate-limited-api.js';

// What a channel's API client gets from the SDK: a platform's 429 waited out as it asked (within
// limits), calls bounded by a timeout and by the channel's stop, and tokens kept out of error text.

class RateLimited extends Error {
  constructor(readonly seconds?: number) {
    super('429 Too Many Requests');
  }
}
const retryAfterSeconds = (error: unknown) => (error instanceof RateLimited ? (error.seconds ?? 1) : undefined);
const never = new AbortController().signal;

describe('withRateLimitRetries', () => {
  it('tries again after a 429 and returns what the platform then answers', async () => {
    let attempts = 0;
    const result = await withRateLimitRetries(
      async () => {
        attempts++;
        if (attempts < 3) throw new RateLimited(0);
        return 'sent';
      },
      { signal: never, retryAfterSeconds },
    );
    expect(result).toBe('sent');
    expect(attempts).toBe(3);
  });

  it('throws any other failure at once', async () => {
    let attempts = 0;
    const failing = withRateLimitRetries(
      async () => {
        attempts++;
        throw new Error('400 Bad Request');
      },
      { signal: never, retryAfterSeconds },
    );
    await expect(failing).rejects.toThrow('400 Bad Request');
    expect(attempts).toBe(1);
  });

  it('gives up after maxRateLimitRetries, and at once on a wait longer than maxRetryAfterSeconds', async () => {
    let attempts = 0;
    const always = async () => {
      attempts++;
      throw new RateLimited(0);
    };
    await expect(
      withRateLimitRetries(always, { signal: never, retryAfterSeconds, maxRateLimitRetries: 2 }),
    ).rejects.toThrow(RateLimited);
    expect(attempts).toBe(3);

    attempts = 0;
    const long = async () => {
      attempts++;
      throw new RateLimited(600);
    };
    await expect(
      withRateLimitRetries(long, { signal: never, retryAfterSeconds, maxRetryAfterSeconds: 60 }),
    ).rejects.toThrow(RateLimited);
    expect(attempts).toBe(1);
  });

  it('stops waiting when the channel stops, with the stop reason', async () => {
    const controller = new AbortController();
    const waiting = withRateLimitRetries(
      async () => {
        queueMicrotask(() => controller.abort(new Error('channel stopped')));
        throw new RateLimited(60);
      },
      { signal: controller.signal, retryAfterSeconds },
    );
    await expect(waiting).rejects.toThrow('channel stopped');
  });
});

describe('fetchWithin', () => {
  let server: Server | undefined;
  afterEach(async () => {
    server?.closeAllConnections();
    await new Promise((resolve) => server?.close(resolve) ?? resolve(undefined));
    server = undefined;
  });
  const listen = async (handler: Parameters<typeof createServer>[1]) => {
    server = createServer(handler);
    await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  };
  const fail = (reason: string) => new Error(`platform unreachable: ${reason}`);

  it('returns the response of a server that answers', async () => {
    const url = await listen((_req, res) => res.end('ok'));
    const response = await fetchWithin(fetch, url, {}, { signal: never, timeoutMs: 5000, fail });
    expect(await response.text()).toBe('ok');
  });

  it('names a timeout and a refused connection in words', async () => {
    const url = await listen(() => {
      // never answers
    });
    await expect(fetchWithin(fetch, url, {}, { signal: never, timeoutMs: 50, fail })).rejects.toThrow(
      'platform unreachable: no answer in 50 ms',
    );
    const closed = await listen((_req, res) => res.end());
    await new Promise((resolve) => server!.close(resolve));
    await expect(fetchWithin(fetch, closed, {}, { signal: never, timeoutMs: 5000, fail })).rejects.toThrow(
      'platform unreachable: ECONNREFUSED',
    );
  });

  it('rejects with the stop reason, not a failure, when the channel stops', async () => {
    const controller = new AbortController();
    const url = await listen(() => controller.abort(new Error('channel stopped')));
    await expect(fetchWithin(fetch, url, {}, { signal: controller.signal, timeoutMs: 5000, fail })).rejects.toThrow(
      'channel stopped',
    );
  });
});

describe('redactSecret', () => {
  it('takes every copy of the token out of a text', () => {
    expect(redactSecret('GET /bot123:abc/getMe failed for bot123:abc', 'bot123:abc')).toBe(
      'GET /<token>/getMe failed for <token>',
    );
    expect(redactSecret('nothing to hide', '')).toBe('nothing to hide');
  });
});
