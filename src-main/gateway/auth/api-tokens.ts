import { createHash, randomBytes } from 'node:crypto';
import { readFile, rename } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import type { Clock } from '../../base/clock.js';
import type { Logger } from '../../base/logger.js';
import { writeFileAtomic } from '../../fs/atomic-write.js';
import type { ApiTokenView } from '../../protocol/methods/tokens.js';
import { generateToken, secretsEqual } from './gateway-secret.js';

const apiTokenSchema = z.object({
  id: z.string(),
  name: z.string(),
  scopes: z.array(z.string()),
  /** SHA-256 of the whole token: the token itself is never stored, only shown once. */
  tokenHash: z.string(),
  createdAtMs: z.number(),
  expiresAtMs: z.number().optional(),
  lastUsedAtMs: z.number().optional(),
});

const fileSchema = z.object({ version: z.literal(1), tokens: z.array(apiTokenSchema) });

type ApiTokenRecord = z.infer<typeof apiTokenSchema>;

/** `hearth_<12 hex id>_<secret>`: the id finds the record without trying every hash. */
const TOKEN_SHAPE = /^hearth_([0-9a-f]{12})_([A-Za-z0-9_-]{20,})$/;

/** Last-use times are written at most this often per token (every request would be a disk write). */
const LAST_USED_WRITE_MS = 60_000;

function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

function view(record: ApiTokenRecord): ApiTokenView {
  const { tokenHash: _hash, ...rest } = record;
  return rest;
}

/**
 * Bearer tokens minted for scripts and other programs (`hearth tokens create`), each with the
 * scopes chosen for it, for the HTTP doors (`/v1`, `/mcp`). Kept in identity/api-tokens.json
 * (0600) as hashes, beside the paired devices; never in hearth.json. Revocation is immediate:
 * every request checks the store.
 */
export class ApiTokenStore {
  private readonly tokens = new Map<string, ApiTokenRecord>();
  private writeChain: Promise<void> = Promise.resolve();

  private constructor(
    private readonly file: string,
    private readonly clock: Clock,
    private readonly log: Logger,
  ) {}

  static async open(identityDir: string, clock: Clock, log: Logger): Promise<ApiTokenStore> {
    const store = new ApiTokenStore(join(identityDir, 'api-tokens.json'), clock, log);
    await store.load();
    return store;
  }

  private async load(): Promise<void> {
    let text: string;
    try {
      text = await readFile(this.file, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
      throw error;
    }
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      json = undefined;
    }
    const parsed = fileSchema.safeParse(json);
    if (!parsed.success) {
      // Unreadable: kept aside for the person, and no token from it is accepted (mint new ones).
      const aside = `${this.file}.corrupt-${this.clock.now()}`;
      await rename(this.file, aside);
      this.log.error('API token file unreadable; moved aside, its tokens no longer work', { file: aside });
      return;
    }
    for (const record of parsed.data.tokens) this.tokens.set(record.id, record);
  }

  private persist(): Promise<void> {
    const snapshot = JSON.stringify({ version: 1, tokens: [...this.tokens.values()] }, null, 2);
    this.writeChain = this.writeChain.then(() => writeFileAtomic(this.file, snapshot, 0o600));
    return this.writeChain;
  }

  /** Mints a token; the returned `token` is the only time it exists outside the caller's hands. */
  async create(input: {
    name: string;
    scopes: readonly string[];
    expiresAtMs?: number;
  }): Promise<{ token: string; info: ApiTokenView }> {
    let id = randomBytes(6).toString('hex');
    while (this.tokens.has(id)) id = randomBytes(6).toString('hex');
    const token = `hearth_${id}_${generateToken(32)}`;
    const record: ApiTokenRecord = {
      id,
      name: input.name,
      scopes: [...new Set(input.scopes)],
      tokenHash: hashToken(token),
      createdAtMs: this.clock.now(),
      ...(input.expiresAtMs !== undefined ? { expiresAtMs: input.expiresAtMs } : {}),
    };
    this.tokens.set(id, record);
    await this.persist();
    return { token, info: view(record) };
  }

  list(): ApiTokenView[] {
    return [...this.tokens.values()].sort((a, b) => a.createdAtMs - b.createdAtMs).map(view);
  }

  /** Removes a token by id (or a name, when exactly one token has it); `undefined` when none matched. */
  async revoke(idOrName: string): Promise<ApiTokenView | undefined> {
    const record =
      this.tokens.get(idOrName) ??
      (() => {
        const named = [...this.tokens.values()].filter((t) => t.name === idOrName);
        return named.length === 1 ? named[0] : undefined;
      })();
    if (!record) return undefined;
    this.tokens.delete(record.id);
    await this.persist();
    return view(record);
  }

  /** Whether `token` looks like one of ours (so a miss is reported as a wrong API token). */
  static isApiToken(token: string): boolean {
    return TOKEN_SHAPE.test(token);
  }

  /** The live record a token belongs to, or why not. */
  verify(token: string): { ok: true; info: ApiTokenView } | { ok: false; reason: 'unknown' | 'expired' } {
    const match = TOKEN_SHAPE.exec(token);
    const record = match ? this.tokens.get(match[1]!) : undefined;
    if (!record || !secretsEqual(hashToken(token), record.tokenHash)) return { ok: false, reason: 'unknown' };
    const now = this.clock.now();
    if (record.expiresAtMs !== undefined && now >= record.expiresAtMs) return { ok: false, reason: 'expired' };
    if (record.lastUsedAtMs === undefined || now - record.lastUsedAtMs >= LAST_USED_WRITE_MS) {
      record.lastUsedAtMs = now;
      void this.persist().catch((error) =>
        this.log.warn('could not record an API token use', { error: (error as Error).message }),
      );
    }
    return { ok: true, info: view(record) };
  }
}
