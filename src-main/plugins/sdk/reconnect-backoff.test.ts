import { describe, expect, it } from 'vitest';
import { Backoff, retryUntilAnswered } from './reconnect-backoff.js';

// Reaching a platform again after failures: waits that double up to a cap and start over after a
// success; a failure meant for good stops the retrying and is shown once.

const never = new AbortController().signal;

describe('Backoff', () => {
  it('doubles each wait up to the cap, and starts over after reset', async () => {
    const backoff = new Backoff({ initialMs: 1, maxMs: 4 });
    const seen: number[] = [];
    for (let i = 0; i < 4; i++) {
      seen.push(backoff.ms);
      await backoff.wait(never);
    }
    expect(seen).toEqual([1, 2, 4, 4]);
    backoff.reset();
    expect(backoff.ms).toBe(1);
  });

  it('stops waiting, without throwing, when the channel stops', async () => {
    const controller = new AbortController();
    const backoff = new Backoff({ initialMs: 60_000 });
    const waiting = backoff.wait(controller.signal);
    controller.abort(new Error('channel stopped'));
    await expect(waiting).resolves.toBeUndefined();
  });
});

describe('retryUntilAnswered', () => {
  it('reports each failure and tries again until the platform answers', async () => {
    const failures: [string, boolean][] = [];
    let attempts = 0;
    const answer = await retryUntilAnswered(
      async () => {
        if (++attempts < 3) throw new Error(`502 (attempt ${attempts})`);
        return { username: 'bot' };
      },
      {
        signal: never,
        backoff: new Backoff({ initialMs: 1 }),
        isFatal: () => false,
        onFailure: (error, fatal) => failures.push([(error as Error).message, fatal]),
      },
    );
    expect(answer).toEqual({ username: 'bot' });
    expect(failures).toEqual([
      ['502 (attempt 1)', false],
      ['502 (attempt 2)', false],
    ]);
  });

  it('gives up on a failure meant for good, shown as fatal', async () => {
    const failures: boolean[] = [];
    let attempts = 0;
    const answer = await retryUntilAnswered(
      async () => {
        attempts++;
        throw new Error('401 Unauthorized');
      },
      { signal: never, isFatal: (error) => /401/.test(String(error)), onFailure: (_, fatal) => failures.push(fatal) },
    );
    expect(answer).toBeUndefined();
    expect(attempts).toBe(1);
    expect(failures).toEqual([true]);
  });

  it('stops when the channel stops, without reporting that as a failure', async () => {
    const controller = new AbortController();
    const failures: unknown[] = [];
    const answer = await retryUntilAnswered(
      async () => {
        controller.abort(new Error('channel stopped'));
        throw new Error('aborted');
      },
      { signal: controller.signal, isFatal: () => false, onFailure: (error) => failures.push(error) },
    );
    expect(answer).toBeUndefined();
    expect(failures).toEqual([]);
  });
});
