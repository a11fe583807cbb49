import { randomInt } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { z } from 'zod';
import type { Clock } from '../base/clock.js';
import { HearthError } from '../base/errors.js';
import { writeFileAtomic } from '../fs/atomic-write.js';

/** DM pairing (docs/CHANNELS.md): 8-character codes, valid 1 h, at most 3 pending per channel. */
export const PAIRING_CODE_LENGTH = 8;
export const PAIRING_TTL_MS = 60 * 60 * 1000;
export const PAIRING_MAX_PENDING = 3;
/** No 0/O, 1/I/L: a code is read off a phone and typed. */
const ALPHABET = 'ABCDEFGHJKMNPQRSTUVWXYZ23456789';

export interface PairingRequest {
  code: string;
  channel: string;
  senderId: string;
  senderName?: string;
  /** The chat the request came from (where the approval notice goes). */
  peerId: string;
  createdAt: number;
  expiresAt: number;
}

export interface PairedSender {
  channel: string;
  senderId: string;
  senderName?: string;
  approvedAt: number;
}

interface PairingFile {
  version: 1;
  pending: PairingRequest[];
  paired: PairedSender[];
}

// Typed by the interfaces they decode, so a field added to one without its schema breaks the build.
// `loose`: a key a newer Hearth adds still reads, and is written back as it was.
const requestSchema: z.ZodType<PairingRequest> = z.looseObject({
  code: z.string().min(1),
  channel: z.string().min(1),
  senderId: z.string().min(1),
  senderName: z.string().optional(),
  peerId: z.string(),
  createdAt: z.number(),
  expiresAt: z.number(),
});
const pairedSchema: z.ZodType<PairedSender> = z.looseObject({
  channel: z.string().min(1),
  senderId: z.string().min(1),
  senderName: z.string().optional(),
  approvedAt: z.number(),
});
const fileSchema: z.ZodType<PairingFile> = z.looseObject({
  version: z.literal(1),
  pending: z.array(requestSchema),
  paired: z.array(pairedSchema),
});

export type PairingAsk =
  | { kind: 'new'; request: PairingRequest }
  | { kind: 'pending'; request: PairingRequest }
  | { kind: 'full' };

export class PairingCodeError extends HearthError {
  constructor(code: string) {
    super(
      'not_found',
      `no pending channel pairing request with code ${JSON.stringify(code)} (it may have expired after 1 hour; see \`hearth channels pairing list\`)`,
    );
    this.name = 'PairingCodeError';
  }
}

/**
 * Who may reach the agent through a channel without being on its allowlist: senders a person
 * approved by their pairing code. Kept in `state/channels/pairing.json`, written atomically on
 * every change, so an approval survives a restart and a crash never leaves half a file.
 */
export class PairingStore {
  private constructor(
    private readonly file: string,
    private readonly clock: Clock,
    private data: PairingFile,
  ) {}

  static async open(file: string, clock: Clock): Promise<PairingStore> {
    let text: string;
    try {
      text = await readFile(file, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT')
        return new PairingStore(file, clock, { version: 1, pending: [], paired: [] });
      throw new Error(`cannot read channel pairings at ${file}: ${(error as Error).message}`);
    }
    let raw: unknown;
    try {
      raw = JSON.parse(text);
    } catch (error) {
      throw new Error(
        `cannot read channel pairings at ${file}: not JSON (${(error as Error).message}); fix or move it`,
      );
    }
    // A file that is not one refuses to open rather than starting empty: the next save would
    // otherwise overwrite every approved sender. It is left as it is.
    const parsed = fileSchema.safeParse(raw);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      throw new Error(
        `cannot read channel pairings at ${file} (${issue?.path.join('.') || 'file'}: ${issue?.message ?? 'invalid'}); it was left as it is: fix or move it`,
      );
    }
    return new PairingStore(file, clock, parsed.data);
  }

  isPaired(channel: string, senderId: string): boolean {
    return this.data.paired.some((p) => p.channel === channel && p.senderId === senderId);
  }

  /** Pending, unexpired requests (all channels, or one). */
  pending(channel?: string): PairingRequest[] {
    const now = this.clock.now();
    return this.data.pending.filter((r) => r.expiresAt > now && (channel === undefined || r.channel === channel));
  }

  paired(channel?: string): PairedSender[] {
    return this.data.paired.filter((p) => channel === undefined || p.channel === channel);
  }

  /**
   * A sender the channel does not know asks to pair: a new code (the caller sends the
   * instruction), their still-valid code (the caller sends nothing: the instruction goes once
   * per code), or `full` when the channel already has 3 pending requests.
   */
  async ask(channel: string, sender: { id: string; name?: string }, peerId: string): Promise<PairingAsk> {
    const now = this.clock.now();
    const live = this.pending(channel);
    const existing = live.find((r) => r.senderId === sender.id);
    if (existing) return { kind: 'pending', request: existing };
    if (live.length >= PAIRING_MAX_PENDING) return { kind: 'full' };
    const taken = new Set(this.data.pending.map((r) => r.code));
    let code: string;
    do {
      code = Array.from({ length: PAIRING_CODE_LENGTH }, () => ALPHABET[randomInt(ALPHABET.length)]).join('');
    } while (taken.has(code));
    const request: PairingRequest = {
      code,
      channel,
      senderId: sender.id,
      ...(sender.name ? { senderName: sender.name } : {}),
      peerId,
      createdAt: now,
      expiresAt: now + PAIRING_TTL_MS,
    };
    this.data.pending = [...this.data.pending.filter((r) => r.expiresAt > now), request];
    await this.save();
    return { kind: 'new', request };
  }

  /** A person approved `code`: its sender is paired from now on. Throws PairingCodeError if unknown or expired. */
  async approve(code: string): Promise<{ request: PairingRequest; paired: PairedSender }> {
    const request = this.take(code);
    const paired: PairedSender = {
      channel: request.channel,
      senderId: request.senderId,
      ...(request.senderName ? { senderName: request.senderName } : {}),
      approvedAt: this.clock.now(),
    };
    if (!this.isPaired(paired.channel, paired.senderId)) this.data.paired.push(paired);
    await this.save();
    return { request, paired };
  }

  async reject(code: string): Promise<PairingRequest> {
    const request = this.take(code);
    await this.save();
    return request;
  }

  private take(code: string): PairingRequest {
    const wanted = code.trim().toUpperCase();
    const request = this.pending().find((r) => r.code === wanted);
    if (!request) throw new PairingCodeError(code);
    this.data.pending = this.data.pending.filter((r) => r !== request);
    return request;
  }

  private async save(): Promise<void> {
    await writeFileAtomic(this.file, `${JSON.stringify(this.data, null, 2)}\n`);
  }
}
