// A small Bot API client over fetch (https://core.telegram.org/bots/api#making-requests).
// Plain fetch rather than grammY: the Bot API is JSON over HTTP, and the channel must own the
// update offset (acknowledge only after the host took a message), the 429 waits and the base URL
// (a local Bot API server, or the fake one in tests), which a framework's runner would hide.

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

export interface TelegramApiOptions {
  baseUrl: string;
  token: string;
  fetch: typeof fetch;
  signal: AbortSignal;
  /** Longest wait a 429 may ask for before the call fails instead (seconds). */
  maxRetryAfterSeconds?: number;
  /** 429s honoured per call before it fails. */
  maxRateLimitRetries?: number;
}

/** Resolves after `ms`, or rejects when `signal` aborts. */
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

export class TelegramApi {
  constructor(private readonly options: TelegramApiOptions) {}

  /**
   * Calls a method. A 429 is honoured: it waits `retry_after` and tries again (up to the limits);
   * any other failure throws a TelegramApiError whose text never contains the token.
   */
  async call<T>(method: string, params: Record<string, unknown> = {}, timeoutMs = 30_000): Promise<T> {
    const { maxRateLimitRetries = 5, maxRetryAfterSeconds = 120 } = this.options;
    for (let attempt = 0; ; attempt++) {
      try {
        return await this.once<T>(method, params, timeoutMs);
      } catch (error) {
        if (
          error instanceof TelegramApiError &&
          error.code === 429 &&
          attempt < maxRateLimitRetries &&
          (error.retryAfterSeconds ?? 1) <= maxRetryAfterSeconds
        ) {
          await sleep((error.retryAfterSeconds ?? 1) * 1000, this.options.signal);
          continue;
        }
        throw error;
      }
    }
  }

  private async once<T>(method: string, params: Record<string, unknown>, timeoutMs: number): Promise<T> {
    const { baseUrl, token } = this.options;
    const signal = AbortSignal.any([this.options.signal, AbortSignal.timeout(timeoutMs)]);
    let response: Response;
    try {
      response = await this.options.fetch(`${baseUrl.replace(/\/+$/, '')}/bot${token}/${method}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(params),
        signal,
      });
    } catch (error) {
      if (this.options.signal.aborted) throw this.options.signal.reason;
      const cause = (error as { cause?: { code?: string } }).cause?.code;
      const reason =
        (error as Error).name === 'TimeoutError' ? `no answer in ${timeoutMs} ms` : (cause ?? 'network error');
      throw new TelegramApiError(method, 0, this.redact(reason));
    }
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
    const signal = AbortSignal.any([this.options.signal, AbortSignal.timeout(timeoutMs)]);
    let response: Response;
    try {
      response = await this.options.fetch(`${baseUrl.replace(/\/+$/, '')}/file/bot${token}/${filePath}`, { signal });
    } catch (error) {
      if (this.options.signal.aborted) throw this.options.signal.reason;
      throw new TelegramApiError(
        'file',
        0,
        this.redact((error as Error).name === 'TimeoutError' ? `no answer in ${timeoutMs} ms` : 'network error'),
      );
    }
    if (!response.ok) throw new TelegramApiError('file', response.status, `download answered ${response.status}`);
    const bytes = new Uint8Array(await response.arrayBuffer());
    if (bytes.length > maxBytes)
      throw new TelegramApiError('file', 413, `file is ${bytes.length} bytes, over ${maxBytes}`);
    return bytes;
  }

  private redact(text: string): string {
    return text.split(this.options.token).join('<token>');
  }
}
