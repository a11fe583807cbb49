import { randomUUID } from 'node:crypto';

/**
 * Test support: Slack's external file upload for the fake Slack server
 * (https://docs.slack.dev/messaging/working-with-files#upload):
 * - `files.getUploadURLExternal` (filename, length: a positive integer; `invalid_arguments`
 *   otherwise) answers `{ok, upload_url, file_id}`; the upload URL is served by the fake itself.
 * - `POST <upload_url>` takes the bytes, raw or multipart (`file` field), answered 200
 *   `OK - <length>`; an unknown or already used URL is 404.
 * - `files.completeUploadExternal` (files: `[{id,title}]`, as an array or a JSON string;
 *   channel_id or channels; thread_ts; initial_comment) shares each file: `file_not_found` for an
 *   id never given, already shared, expired or whose bytes never arrived; `channel_not_found`
 *   without a channel. Shared files are kept for tests to read.
 * `expireBeforeCompleting` makes the next upload's id expire once its bytes arrived (Slack lets an
 * unfinished upload lapse), so its completion fails.
 */

export interface FakeSlackSharedFile {
  fileId: string;
  name: string;
  title: string;
  bytes: Uint8Array;
  /** channel_id, or the one id in `channels` (a user id is the app's DM with them). */
  channel: string;
  threadTs?: string;
  initialComment?: string;
}

interface Ticket {
  fileId: string;
  filename: string;
  length: number;
  bytes?: Uint8Array;
  expired: boolean;
}

const MIME: Record<string, string> = {
  pdf: 'application/pdf',
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  gif: 'image/gif',
  txt: 'text/plain',
};

export class FakeSlackUploads {
  readonly shared: FakeSlackSharedFile[] = [];
  /** Bytes that reached an upload URL, shared or not. */
  readonly received: { fileId: string; bytes: Uint8Array }[] = [];
  private readonly tickets = new Map<string, Ticket>();
  private readonly byPath = new Map<string, Ticket>();
  private counter = 0;
  private expireNext = false;

  constructor(private readonly origin: () => string) {}

  expireBeforeCompleting(): void {
    this.expireNext = true;
  }

  /** The Web API methods; undefined when `method` is not one of them. */
  handle(method: string, params: Record<string, unknown>, botUserId: string): Record<string, unknown> | undefined {
    if (method === 'files.getUploadURLExternal') {
      const filename = params.filename;
      const length = Number(params.length);
      if (typeof filename !== 'string' || filename === '' || !Number.isInteger(length) || length <= 0)
        return { ok: false, error: 'invalid_arguments' };
      const fileId = `F${String(++this.counter).padStart(10, '0')}UP`;
      const path = `/upload/v1/${randomUUID().replace(/-/g, '')}`;
      const ticket: Ticket = { fileId, filename, length, expired: false };
      this.tickets.set(fileId, ticket);
      this.byPath.set(path, ticket);
      return { ok: true, upload_url: `${this.origin()}${path}`, file_id: fileId };
    }
    if (method !== 'files.completeUploadExternal') return undefined;
    let files = params.files;
    if (typeof files === 'string') {
      try {
        files = JSON.parse(files) as unknown;
      } catch {
        return { ok: false, error: 'invalid_arguments' };
      }
    }
    if (!Array.isArray(files) || files.length === 0) return { ok: false, error: 'invalid_arguments' };
    const channels = typeof params.channels === 'string' ? params.channels.split(',').filter(Boolean) : [];
    const channel = typeof params.channel_id === 'string' && params.channel_id ? params.channel_id : channels[0];
    if (!channel) return { ok: false, error: 'channel_not_found' };
    const threadTs = typeof params.thread_ts === 'string' && params.thread_ts ? params.thread_ts : undefined;
    if (threadTs && !/^\d+\.\d+$/.test(threadTs)) return { ok: false, error: 'invalid_thread_ts' };
    const entries = files as { id?: unknown; title?: unknown }[];
    const tickets = entries.map((entry) => this.tickets.get(String(entry?.id)));
    if (tickets.some((t) => !t || t.expired || !t.bytes)) return { ok: false, error: 'file_not_found' };
    const comment = typeof params.initial_comment === 'string' ? params.initial_comment : undefined;
    const now = Math.floor(Date.now() / 1000);
    const answered = tickets.map((ticket, i) => {
      const t = ticket!;
      this.tickets.delete(t.fileId);
      const title = typeof entries[i]!.title === 'string' ? (entries[i]!.title as string) : t.filename;
      this.shared.push({
        fileId: t.fileId,
        name: t.filename,
        title,
        bytes: t.bytes!,
        channel,
        ...(threadTs ? { threadTs } : {}),
        ...(comment ? { initialComment: comment } : {}),
      });
      const extension = t.filename.split('.').pop()?.toLowerCase() ?? '';
      return {
        id: t.fileId,
        created: now,
        timestamp: now,
        name: t.filename,
        title,
        mimetype: MIME[extension] ?? 'application/octet-stream',
        filetype: extension || 'binary',
        user: botUserId,
        size: t.bytes!.length,
        is_external: false,
        // Slack shares asynchronously: `shares` fills in later, so the answer has none yet.
        shares: {},
      };
    });
    return { ok: true, files: answered };
  }

  /** `POST <upload_url>`: the status and text to answer. */
  async receive(path: string, body: Uint8Array, contentType: string): Promise<{ status: number; text: string }> {
    const ticket = this.byPath.get(path);
    if (!ticket) return { status: 404, text: 'Not Found' };
    this.byPath.delete(path);
    let bytes = body;
    if (contentType.startsWith('multipart/form-data')) {
      const form = await new Response(body, { headers: { 'content-type': contentType } }).formData();
      const part = form.get('file') ?? form.get('filename');
      if (!(part instanceof Blob)) return { status: 400, text: 'no file in the form' };
      bytes = new Uint8Array(await part.arrayBuffer());
    }
    ticket.bytes = bytes;
    this.received.push({ fileId: ticket.fileId, bytes });
    if (this.expireNext) {
      this.expireNext = false;
      ticket.expired = true;
    }
    return { status: 200, text: `OK - ${bytes.length}` };
  }
}
