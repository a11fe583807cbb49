import { readFile } from 'node:fs/promises';
import { z } from 'zod';
import { writeFileAtomic } from '../fs/atomic-write.js';

/** The person in `identityLinks` whose accounts may answer approvals and get spend notices. */
export const OWNER_PERSON = 'owner';

/** `telegram:42`: a channel account as identity links name it. */
export const accountKey = (channel: string, userId: string) => `${channel}:${userId}`;

/** Splits `telegram:42` at its first colon; undefined for a name without one. */
export function splitAccount(account: string): { channel: string; userId: string } | undefined {
  const at = account.indexOf(':');
  if (at <= 0 || at === account.length - 1) return undefined;
  return { channel: account.slice(0, at), userId: account.slice(at + 1) };
}

/** The person an account is linked to (`memory.identityLinks`), or undefined when it is linked to no one. */
export function personOf(account: string, links: Record<string, readonly string[]>): string | undefined {
  for (const [person, accounts] of Object.entries(links)) if (accounts.includes(account)) return person;
  return undefined;
}

/** A person's account on `channel` (the first linked), if any. */
export function accountOn(
  person: string,
  channel: string,
  links: Record<string, readonly string[]>,
): { channel: string; userId: string } | undefined {
  for (const account of links[person] ?? []) {
    const split = splitAccount(account);
    if (split?.channel === channel) return split;
  }
  return undefined;
}

/** A conversation moved to another channel by `/dock_<channel>`: its session, and where it is delivered now. */
export interface Dock {
  sessionKey: string;
  channel: string;
  userId: string;
  dockedAt: number;
}

interface DockFile {
  version: 1;
  /** person → their docked conversation. */
  docks: Record<string, Dock>;
  /** `channel:userId` → the DM chat id last seen for it (where a DM to them goes). */
  directs: Record<string, string>;
  /** Notices already sent to the owner (`usage.limit` per cap, period and state). */
  notified: string[];
}

const NOTIFIED_LIMIT = 500;

// Typed by the interfaces they decode, so a field added to one without its schema breaks the build.
// `loose`: a key a newer Hearth adds still reads, and is written back as it was.
const dockSchema: z.ZodType<Dock> = z.looseObject({
  sessionKey: z.string().min(1),
  channel: z.string().min(1),
  userId: z.string().min(1),
  dockedAt: z.number(),
});
const dockFileSchema: z.ZodType<DockFile> = z.looseObject({
  version: z.literal(1),
  docks: z.record(z.string(), dockSchema),
  directs: z.record(z.string(), z.string()),
  notified: z.array(z.string()),
});

/**
 * What the channel host remembers across restarts besides pairings (`state/channels/docks.json`,
 * written atomically): docked conversations, each account's DM chat, and the notices already sent.
 */
export class DockStore {
  private constructor(
    private readonly file: string,
    private data: DockFile,
  ) {}

  static async open(file: string): Promise<DockStore> {
    let text: string;
    try {
      text = await readFile(file, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT')
        return new DockStore(file, { version: 1, docks: {}, directs: {}, notified: [] });
      throw new Error(`cannot read channel docks at ${file}: ${(error as Error).message}`);
    }
    let raw: unknown;
    try {
      raw = JSON.parse(text);
    } catch (error) {
      throw new Error(`cannot read channel docks at ${file}: not JSON (${(error as Error).message}); fix or move it`);
    }
    // Refused rather than started empty: the next save would overwrite every dock and DM chat.
    const parsed = dockFileSchema.safeParse(raw);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      throw new Error(
        `cannot read channel docks at ${file} (${issue?.path.join('.') || 'file'}: ${issue?.message ?? 'invalid'}); it was left as it is: fix or move it`,
      );
    }
    return new DockStore(file, parsed.data);
  }

  dockOf(person: string): Dock | undefined {
    return this.data.docks[person];
  }

  docks(): Record<string, Dock> {
    return { ...this.data.docks };
  }

  async dock(person: string, dock: Dock): Promise<void> {
    this.data.docks = { ...this.data.docks, [person]: dock };
    await this.save();
  }

  direct(account: string): string | undefined {
    return this.data.directs[account];
  }

  /** Remembers an account's DM chat; writes only when it changed. */
  async sawDirect(account: string, peerId: string): Promise<void> {
    if (this.data.directs[account] === peerId) return;
    this.data.directs = { ...this.data.directs, [account]: peerId };
    await this.save();
  }

  /** True the first time `key` is given (and records it), false after. */
  async firstNotice(key: string): Promise<boolean> {
    if (this.data.notified.includes(key)) return false;
    this.data.notified = [...this.data.notified, key].slice(-NOTIFIED_LIMIT);
    await this.save();
    return true;
  }

  private async save(): Promise<void> {
    await writeFileAtomic(this.file, `${JSON.stringify(this.data, null, 2)}\n`);
  }
}
