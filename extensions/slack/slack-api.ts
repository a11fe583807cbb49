// A small Slack Web API client over fetch (https://api.slack.com/web). Plain fetch rather than
// Bolt: the channel must own acknowledgement (an envelope is acked only once the host took its
// message), the 429 waits and the base URL (the fake server in tests), which Bolt's receivers hide.

import {
  fetchWithin,
  type RateLimitLimits,
  redactSecret,
  withRateLimitRetries,
} from '../../src-main/plugins/sdk/index.js';

export class SlackApiError extends Error {
  constructor(
    readonly method: string,
    /** Slack's `error` string (`invalid_auth`, `ratelimited`, `channel_not_found`…), or `network`. */
    readonly error: string,
    /** The HTTP status (0 when no answer arrived). */
    readonly status: number,
    readonly retryAfterSeconds?: number,
  ) {
    super(`Slack ${method}: ${error}${status && status !== 200 ? ` (HTTP ${status})` : ''}`);
    this.name = 'SlackApiError';
  }
}

/** Slack refuses this token for good: calling again would only repeat it. */
export const FATAL_AUTH_ERRORS = new Set([
  'invalid_auth',
  'not_authed',
  'account_inactive',
  'token_revoked',
  'token_expired',
  'not_allowed_token_type',
  'missing_scope',
]);

export const isFatalSlackError = (error: unknown) =>
  error instanceof SlackApiError && FATAL_AUTH_ERRORS.has(error.error);

export interface SlackApiOptions extends RateLimitLimits {
  /** e.g. `https://slack.com/api`; methods are `${baseUrl}/${method}`. */
  baseUrl: string;
  token: string;
  fetch: typeof fetch;
  signal: AbortSignal;
}

export class SlackApi {
  constructor(private readonly options: SlackApiOptions) {}

  /**
   * Calls a method with a JSON body and the token as a Bearer header. A 429 is honoured: it waits
   * `Retry-After` seconds and tries again (up to the limits); any other failure, including
   * `{ok:false}`, throws a SlackApiError whose text never contains the token.
   */
  async call<T extends Record<string, unknown>>(
    method: string,
    params: Record<string, unknown> = {},
    timeoutMs = 30_000,
  ): Promise<T> {
    return withRateLimitRetries(() => this.once<T>(method, params, timeoutMs), {
      signal: this.options.signal,
      retryAfterSeconds: (error) =>
        error instanceof SlackApiError && error.status === 429 ? (error.retryAfterSeconds ?? 1) : undefined,
      maxRateLimitRetries: this.options.maxRateLimitRetries,
      maxRetryAfterSeconds: this.options.maxRetryAfterSeconds,
    });
  }

  private async once<T>(method: string, params: Record<string, unknown>, timeoutMs: number): Promise<T> {
    const response = await fetchWithin(
      this.options.fetch,
      `${this.options.baseUrl.replace(/\/+$/, '')}/${method}`,
      {
        method: 'POST',
        headers: {
          authorization: `Bearer ${this.options.token}`,
          'content-type': 'application/json; charset=utf-8',
        },
        body: JSON.stringify(params),
      },
      { signal: this.options.signal, timeoutMs, fail: (reason) => new SlackApiError(method, this.redact(reason), 0) },
    );
    if (response.status === 429) {
      const retryAfter = Number(response.headers.get('retry-after'));
      await response.body?.cancel().catch(() => {});
      throw new SlackApiError(
        method,
        'ratelimited',
        429,
        Number.isFinite(retryAfter) && retryAfter >= 0 ? retryAfter : 1,
      );
    }
    let body: { ok?: boolean; error?: string } & Record<string, unknown>;
    try {
      body = (await response.json()) as typeof body;
    } catch {
      if (this.options.signal.aborted) throw this.options.signal.reason;
      throw new SlackApiError(method, `answered ${response.status} with a body that is not JSON`, response.status);
    }
    if (body.ok === true) return body as T;
    throw new SlackApiError(method, this.redact(body.error ?? `HTTP ${response.status}`), response.status);
  }

  private redact(text: string): string {
    return redactSecret(text, this.options.token);
  }
}
