// What every platform API client of a channel needs around its own request format: calls bounded
// by a timeout and by the channel's stop signal, a 429 waited out for as long as the platform asks
// (within limits), and error texts free of the token. The wire format (Telegram's `{ok, result}`,
// Discord's REST, Slack's `{ok, error}`) stays in the plugin: it tells this module, through
// `retryAfterSeconds`, whether a failure was a rate limit and how long to wait.

/** Resolves after `ms`, or rejects with the signal's reason when `signal` aborts. */
export function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal.reason);
    };
    signal.addEventListener('abort', onAbort, { once: true });
  });
}

/** How far a client goes to honour 429s; a plugin's API client options extend it. */
export interface RateLimitLimits {
  /** 429s honoured per call before it fails (default 5). */
  maxRateLimitRetries?: number;
  /** Longest wait a 429 may ask for before the call fails instead (seconds, default 120). */
  maxRetryAfterSeconds?: number;
}

export interface RateLimitOptions extends RateLimitLimits {
  /** Aborts a wait (the channel stopped); the call then rejects with the signal's reason. */
  signal: AbortSignal;
  /**
   * Seconds to wait when `error` is a rate limit (a 429: `retry_after`, `Retry-After`…), 1 when the
   * platform named none; undefined when it is any other failure, which is thrown at once.
   */
  retryAfterSeconds(error: unknown): number | undefined;
}

/**
 * Runs `attempt`, and again after each rate limit, waiting what the platform asked. A wait longer
 * than `maxRetryAfterSeconds`, or more than `maxRateLimitRetries` of them, fails with the last 429:
 * a reply held for minutes is worse than a clear error.
 */
export async function withRateLimitRetries<T>(attempt: () => Promise<T>, options: RateLimitOptions): Promise<T> {
  const { maxRateLimitRetries = 5, maxRetryAfterSeconds = 120 } = options;
  for (let retries = 0; ; retries++) {
    try {
      return await attempt();
    } catch (error) {
      const wait = options.retryAfterSeconds(error);
      if (wait === undefined || retries >= maxRateLimitRetries || wait > maxRetryAfterSeconds) throw error;
      await sleep(wait * 1000, options.signal);
    }
  }
}

/**
 * `fetch` bounded by `timeoutMs` and by `signal`. When `signal` aborts, rejects with its reason
 * (the caller is stopping, not failing); any other failure rejects with `fail(reason)`, the reason
 * in words ("no answer in 30000 ms", "ECONNREFUSED", "network error").
 */
export async function fetchWithin(
  fetchImpl: typeof fetch,
  url: string,
  init: RequestInit,
  options: { signal: AbortSignal; timeoutMs: number; fail(reason: string): Error },
): Promise<Response> {
  const { signal, timeoutMs } = options;
  try {
    return await fetchImpl(url, { ...init, signal: AbortSignal.any([signal, AbortSignal.timeout(timeoutMs)]) });
  } catch (error) {
    if (signal.aborted) throw signal.reason;
    const cause = (error as { cause?: { code?: string } }).cause?.code;
    throw options.fail(
      (error as Error).name === 'TimeoutError' ? `no answer in ${timeoutMs} ms` : (cause ?? 'network error'),
    );
  }
}

/** `text` with every occurrence of `secret` replaced, so a token never reaches a log or a status. */
export function redactSecret(text: string, secret: string, replacement = '<token>'): string {
  return secret === '' ? text : text.split(secret).join(replacement);
}
