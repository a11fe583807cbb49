// A small Bot API client over fetch (https://core.telegram.org/bots/api#making-requests).
// Plain fetch rather than grammY: the Bot API is JSON over HTTP, and the channel must own the
// update offset (acknowledge only after the host took a message), the 429 waits and the base URL
// (a local Bot API server, or the fake one in tests), which a framework's runner would hide.

import {
  fetchWithin,
  type RateLimitLimits,
  redactSecret,
  withRateLimitRetries,
} from '../../src-main/plugins/sdk/index.js';

export class TelegramApiError extends Error {
  constructor(
    readonly method: string,
    /** Telegram's error_code (401, 409, 429…), or 0 when no answer arrived (network). */
    readonly code: number,
    readonly description: string,
    readonly retryAfterSeconds?: number,
  ) {
    super(`Telegram ${method}: ${code === 0 ? description : `${code} ${description}`}`);
    this.name = 'TelegramApiError';
  }
}

export interface TelegramApiOptions extends RateLimitLimits {
  baseUrl: string;
  token: string;
  fetch: typeof fetch;
  signal: AbortSignal;
}

export class TelegramApi {
  constructor(private readonly options: TelegramApiOptions) {}

  /**
   * Calls a method. A 429 is honoured: it waits `retry_after` and tries again (up to the limits);
   * any other failure throws a TelegramApiError whose text never contains the token.
   */
  async call<T>(method: string, params: Record<string, unknown> = {}, timeoutMs = 30_000): Promise<T> {
    return withRateLimitRetries(() => this.once<T>(method, params, timeoutMs), {
      signal: this.options.signal,
      retryAfterSeconds: (error) =>
        error instanceof TelegramApiError && error.code === 429 ? (error.retryAfterSeconds ?? 1) : undefined,
      maxRateLimitRetries: this.options.maxRateLimitRetries,
      maxRetryAfterSeconds: this.options.maxRetryAfterSeconds,
    });
  }

  /** Calls a method with one file as multipart/form-data (sendPhoto, sendDocument); 429s as `call`. */
  async upload<T>(
    method: string,
    params: Record<string, string | number>,
    file: { field: string; name: string; mediaType: string; data: Uint8Array },
    timeoutMs = 120_000,
  ): Promise<T> {
    const form = () => {
      const body = new FormData();
      for (const [key, value] of Object.entries(params)) body.append(key, String(value));
      body.append(file.field, new Blob([new Uint8Array(file.data)], { type: file.mediaType }), file.name);
      return body;
    };
    return withRateLimitRetries(() => this.once<T>(method, form, timeoutMs), {
      signal: this.options.signal,
      retryAfterSeconds: (error) =>
        error instanceof TelegramApiError && error.code === 429 ? (error.retryAfterSeconds ?? 1) : undefined,
      maxRateLimitRetries: this.options.maxRateLimitRetries,
      maxRetryAfterSeconds: this.options.maxRetryAfterSeconds,
    });
  }

  private async once<T>(
    method: string,
    params: Record<string, unknown> | (() => FormData),
    timeoutMs: number,
  ): Promise<T> {
    const { baseUrl, token } = this.options;
    const response = await fetchWithin(
      this.options.fetch,
      `${baseUrl.replace(/\/+$/, '')}/bot${token}/${method}`,
      typeof params === 'function'
        ? { method: 'POST', body: params() }
        : { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(params) },
      {
        signal: this.options.signal,
        timeoutMs,
        fail: (reason) => new TelegramApiError(method, 0, this.redact(reason)),
      },
    );
    let body: {
      ok?: boolean;
      result?: unknown;
      error_code?: number;
      description?: string;
      parameters?: { retry_after?: number };
    };
    try {
      body = (await response.json()) as typeof body;
    } catch {
      if (this.options.signal.aborted) throw this.options.signal.reason;
      throw new TelegramApiError(method, response.status, `answered ${response.status} with a body that is not JSON`);
    }
    if (body.ok === true) return body.result as T;
    throw new TelegramApiError(
      method,
      body.error_code ?? response.status,
      this.redact(body.description ?? `HTTP ${response.status}`),
      body.parameters?.retry_after,
    );
  }

  /** Downloads a file getFile pointed at (`file_path`); refuses more than `maxBytes`. */
  async download(filePath: string, maxBytes: number, timeoutMs = 60_000): Promise<Uint8Array> {
    const { baseUrl, token } = this.options;
    const response = await fetchWithin(
      this.options.fetch,
      `${baseUrl.replace(/\/+$/, '')}/file/bot${token}/${filePath}`,
      {},
      {
        signal: this.options.signal,
        timeoutMs,
        fail: (reason) => new TelegramApiError('file', 0, this.redact(reason)),
      },
    );
    if (!response.ok) throw new TelegramApiError('file', response.status, `download answered ${response.status}`);
    const bytes = new Uint8Array(await response.arrayBuffer());
    if (bytes.length > maxBytes)
      throw new TelegramApiError('file', 413, `file is ${bytes.length} bytes, over ${maxBytes}`);
    return bytes;
  }

  private redact(text: string): string {
    return redactSecret(text, this.options.token);
  }
}
