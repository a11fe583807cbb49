import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { mkdir, open, rm, stat } from 'node:fs/promises';
import { dirname } from 'node:path';

/** Why a model file could not be fetched; the installer turns it into the person's message. */
export type ModelDownloadFailure = 'unreachable' | 'http' | 'interrupted' | 'checksum' | 'aborted';

export class ModelDownloadError extends Error {
  constructor(
    message: string,
    readonly failure: ModelDownloadFailure,
  ) {
    super(message);
    this.name = 'ModelDownloadError';
  }
}

export interface DownloadFileInput {
  url: string;
  /** Where the bytes collect (`….part`); kept after an interruption so the next try resumes. */
  partPath: string;
  sha256: string;
  /** Expected bytes, when the catalogue knows them. */
  size?: number;
  fetch: typeof globalThis.fetch;
  signal?: AbortSignal;
  /** Bytes on disk so far and the file's total when known; called as chunks arrive. */
  onBytes?(received: number, total: number | undefined): void;
  /** Called once the last byte is in, before hashing (a large file takes a moment). */
  onVerify?(): void;
}

/**
 * Fetches one file into `partPath` and checks its SHA-256. A part left by an earlier try is
 * resumed with an HTTP Range request; a server that ignores Range (200 instead of 206) or
 * answers another range gets the file from the start, overwriting the part. A checksum that
 * does not match deletes the part (those bytes are wrong, resuming them would stay wrong).
 * On success the part holds exactly the pinned bytes; the caller moves it into place.
 */
export async function downloadVerified(input: DownloadFileInput): Promise<void> {
  await mkdir(dirname(input.partPath), { recursive: true });
  let have = await sizeOf(input.partPath);
  if (input.size !== undefined && have > input.size) {
    await rm(input.partPath, { force: true });
    have = 0;
  }
  if (input.size === undefined || have < input.size) await fetchInto(input, have, true);
  input.onVerify?.();
  const actual = await sha256Of(input.partPath);
  if (actual !== input.sha256) {
    await rm(input.partPath, { force: true });
    throw new ModelDownloadError(
      `checksum mismatch for ${input.url}: expected sha256 ${input.sha256}, got ${actual}; the download was discarded`,
      'checksum',
    );
  }
}

async function fetchInto(input: DownloadFileInput, have: number, mayResume: boolean): Promise<void> {
  const resuming = mayResume && have > 0;
  let response: Response;
  try {
    response = await input.fetch(input.url, {
      headers: resuming ? { range: `bytes=${have}-` } : {},
      redirect: 'follow',
      signal: input.signal,
    });
  } catch (error) {
    if (input.signal?.aborted) throw new ModelDownloadError('the download was cancelled', 'aborted');
    throw new ModelDownloadError(`could not reach ${hostOf(input.url)}: ${reason(error)}`, 'unreachable');
  }
  if (resuming && response.status === 416) {
    // The server has nothing past what we hold: either the part is complete or it is not this file.
    await response.body?.cancel();
    if (input.size === undefined || have === input.size) return;
    await rm(input.partPath, { force: true });
    return fetchInto(input, 0, false);
  }
  if (!response.ok) {
    await response.body?.cancel();
    throw new ModelDownloadError(
      `${input.url} answered HTTP ${response.status}${response.statusText ? ` ${response.statusText}` : ''}`,
      'http',
    );
  }
  // 206 from the byte we asked for: append. Anything else (a 200, or a range we did not ask for)
  // is the whole file again, so the part starts over.
  const appending = resuming && response.status === 206 && rangeStart(response) === have;
  let received = appending ? have : 0;
  const length = Number(response.headers.get('content-length'));
  const total = input.size ?? (Number.isFinite(length) && length > 0 ? received + length : undefined);
  const handle = await open(input.partPath, appending ? 'a' : 'w', 0o600);
  try {
    input.onBytes?.(received, total);
    if (!response.body) throw new Error('the response has no body');
    const reader = response.body.getReader();
    for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) {
      await handle.write(chunk.value);
      received += chunk.value.byteLength;
      input.onBytes?.(received, total);
    }
    await handle.sync();
  } catch (error) {
    if (input.signal?.aborted) throw new ModelDownloadError('the download was cancelled', 'aborted');
    throw new ModelDownloadError(
      `the download of ${input.url} was interrupted after ${received} bytes (${reason(error)}); install again to resume`,
      'interrupted',
    );
  } finally {
    await handle.close();
  }
  if (input.size !== undefined && received < input.size)
    throw new ModelDownloadError(
      `the download of ${input.url} ended after ${received} of ${input.size} bytes; install again to resume`,
      'interrupted',
    );
}

/** The first byte of a `Content-Range: bytes 100-199/200` answer. */
function rangeStart(response: Response): number | undefined {
  const match = /^bytes (\d+)-\d+\/(\d+|\*)$/.exec(response.headers.get('content-range') ?? '');
  return match ? Number(match[1]) : undefined;
}

async function sizeOf(path: string): Promise<number> {
  try {
    return (await stat(path)).size;
  } catch {
    return 0;
  }
}

export async function sha256Of(path: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(path)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return url;
  }
}

/** fetch's own "fetch failed" hides the cause (ECONNREFUSED, ENOTFOUND…); say it. */
function reason(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const cause = (error as { cause?: unknown }).cause;
  const code = cause && typeof cause === 'object' ? (cause as { code?: unknown }).code : undefined;
  const causeMessage = cause instanceof Error ? cause.message : undefined;
  if (typeof code === 'string') return `${error.message} (${code})`;
  return causeMessage ? `${error.message} (${causeMessage})` : error.message;
}
