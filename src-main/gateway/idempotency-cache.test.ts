import { afterEach, describe, expect, it } from 'vitest';
import { createFakeClock } from '../testing/fake-clock.js';
import { IdempotencyCache } from './idempotency-cache.js';

/** Each test's caches, disposed after it (a cache sweeps on a timer until it is). */
const caches: IdempotencyCache[] = [];
const made = (cache: IdempotencyCache) => (caches.push(cache), cache);
afterEach(() => {
  for (const cache of caches.splice(0)) cache.dispose();
});

describe('IdempotencyCache', () => {
  it('runs the effect once per key and replays the first result to retries', async () => {
    const cache = made(new IdempotencyCache(createFakeClock()));
    let effects = 0;
    const run = () => cache.run('send', 'k1', { idempotencyKey: 'k1', text: 'hi' }, async () => ({ n: ++effects }));
    const [a, b] = await Promise.all([run(), run()]);
    expect(await run()).toEqual({ n: 1 });
    expect(a).toEqual({ n: 1 });
    expect(b).toEqual({ n: 1 });
    expect(effects).toBe(1);
  });

  it('replays a failure instead of retrying the effect', async () => {
    const cache = made(new IdempotencyCache(createFakeClock()));
    let calls = 0;
    const run = () =>
      cache.run('send', 'k', {}, async () => {
        calls += 1;
        throw new Error('provider down');
      });
    await expect(run()).rejects.toThrow('provider down');
    await expect(run()).rejects.toThrow('provider down');
    expect(calls).toBe(1);
  });

  it('refuses the same key with a different request body', async () => {
    const cache = made(new IdempotencyCache(createFakeClock()));
    await cache.run('send', 'k', { text: 'a' }, async () => 1);
    await expect(cache.run('send', 'k', { text: 'b' }, async () => 2)).rejects.toMatchObject({
      code: 'INVALID_REQUEST',
      details: { reason: 'request-conflict' },
    });
  });

  it('forgets a settled entry 5 minutes after its last update, and keeps at most 1000', async () => {
    const clock = createFakeClock();
    const cache = made(new IdempotencyCache(clock));
    let effects = 0;
    await cache.run('send', 'k', {}, async () => ++effects);
    clock.advance(5 * 60_000 + 61_000);
    expect(cache.size).toBe(0);
    await cache.run('send', 'k', {}, async () => ++effects);
    expect(effects).toBe(2);
    for (let i = 0; i < 1100; i++) await cache.run('send', `x${i}`, {}, async () => i);
    expect(cache.size).toBeLessThanOrEqual(1000);
    cache.dispose();
  });
});
