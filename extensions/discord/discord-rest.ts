// A small Discord REST v10 client over fetch (https://discord.com/developers/docs/reference).
// `Authorization: Bot <token>`; a 429 is waited out (the JSON body's `retry_after` seconds, else
// the `Retry-After` header); every error's text is free of the token.

import {
  fetchWithin,
  type RateLimitLimits,
  redactSecret,
  withRateLimitRetries,
} from '../../src-main/plugins/sdk/index.js';

export class DiscordApiError extends Error {
  constructor(
    readonly route: string,
    /** HTTP status (401, 403, 429…), or 0 when no answer arrived (network). */
    readonly status: number,
    readonly description: string,
    /** Discord's JSON error code (50001 Missing Access…), when it sent one. */
    readonly code?: number,
    readonly retryAfterSeconds?: number,
  ) {
    super(`Discord ${route}: ${status === 0 ? description : `${status} ${description}`}`);
    this.name = 'DiscordApiError';
  }
}

export interface DiscordFile {
  name: string;
  mediaType: string;
  data: Uint8Array;
}

export interface DiscordRestOptions extends RateLimitLimits {
  baseUrl: string;
  token: string;
  fetch: typeof fetch;
  signal: AbortSignal;
}

export class DiscordRest {
  constructor(private readonly options: DiscordRestOptions) {}

  /**
   * One REST call: `body` is sent as JSON, or with `files` as multipart/form-data (`payload_json`
   * plus `files[n]`), as Discord takes uploads. Returns the parsed JSON (undefined for 204).
   */
  async request<T>(
    method: 'GET' | 'POST' | 'PATCH' | 'DELETE' | 'PUT',
    path: string,
    /** An array for bulk calls (PUT …/commands). */
    body?: Record<string, unknown> | readonly unknown[],
    files: readonly DiscordFile[] = [],
    timeoutMs = 30_000,
  ): Promise<T> {
    return withRateLimitRetries(() => this.once<T>(method, path, body, files, timeoutMs), {
      signal: this.options.signal,
      retryAfterSeconds: (error) =>
        error instanceof DiscordApiError && error.status === 429 ? (error.retryAfterSeconds ?? 1) : undefined,
      maxRateLimitRetries: this.options.maxRateLimitRetries,
      maxRetryAfterSeconds: this.options.maxRetryAfterSeconds,
    });
  }

  private async once<T>(
    method: string,
    path: string,
    body: Record<string, unknown> | readonly unknown[] | undefined,
    files: readonly DiscordFile[],
    timeoutMs: number,
  ): Promise<T> {
    const route = `${method} ${path}`;
    const headers: Record<string, string> = {
      authorization: `Bot ${this.options.token}`,
      'user-agent': 'DiscordBot (https://github.com/hearth, 1.0)',
    };
    let payload: string | FormData | undefined;
    if (files.length > 0) {
      const form = new FormData();
      form.append(
        'payload_json',
        JSON.stringify({
          ...body,
          attachments: files.map((file, id) => ({ id, filename: file.name })),
        }),
      );
      files.forEach((file, index) => {
        form.append(`files[${index}]`, new Blob([new Uint8Array(file.data)], { type: file.mediaType }), file.name);
      });
      payload = form;
    } else if (body !== undefined) {
      headers['content-type'] = 'application/json';
      payload = JSON.stringify(body);
    }
    const response = await fetchWithin(
      this.options.fetch,
      `${this.options.baseUrl}${path}`,
      { method, headers, ...(payload !== undefined ? { body: payload } : {}) },
      { signal: this.options.signal, timeoutMs, fail: (reason) => new DiscordApiError(route, 0, this.redact(reason)) },
    );
    if (response.status === 204) return undefined as T;
    const text = await response.text().catch(() => '');
    let json: unknown;
    try {
      json = text === '' ? undefined : JSON.parse(text);
    } catch {
      json = undefined;
    }
    if (response.ok) {
      if (json === undefined && text !== '')
        throw new DiscordApiError(route, response.status, 'answered with a body that is not JSON');
      return json as T;
    }
    const error = (json ?? {}) as { message?: unknown; code?: unknown; retry_after?: unknown };
    let retryAfter = typeof error.retry_after === 'number' ? error.retry_after : undefined;
    if (retryAfter === undefined && response.status === 429) {
      const header = Number(response.headers.get('retry-after'));
      if (Number.isFinite(header) && header >= 0) retryAfter = header;
    }
    throw new DiscordApiError(
      route,
      response.status,
      this.redact(typeof error.message === 'string' ? error.message : response.statusText || `HTTP ${response.status}`),
      typeof error.code === 'number' ? error.code : undefined,
      retryAfter,
    );
  }

  /** Downloads an attachment from its CDN URL (no token sent); refuses more than `maxBytes`. */
  async download(url: string, maxBytes: number, timeoutMs = 60_000): Promise<Uint8Array> {
    const response = await fetchWithin(
      this.options.fetch,
      url,
      {},
      { signal: this.options.signal, timeoutMs, fail: (reason) => new DiscordApiError('attachment', 0, reason) },
    );
    if (!response.ok) throw new DiscordApiError('attachment', response.status, `download answered ${response.status}`);
    const bytes = new Uint8Array(await response.arrayBuffer());
    if (bytes.length > maxBytes)
      throw new DiscordApiError('attachment', 413, `file is ${bytes.length} bytes, over ${maxBytes}`);
    return bytes;
  }

  private redact(text: string): string {
    return redactSecret(text, this.options.token);
  }
}
