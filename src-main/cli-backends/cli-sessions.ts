import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import { writeFileAtomic } from '../fs/atomic-write.js';

/** One Hearth session's CLI session: which backend, and the id its CLI resumes. */
interface CliSessionEntry {
  backend: string;
  id: string;
  updatedAt: number;
}

interface CliSessionsFile {
  version: 1;
  /** By Hearth session (transcript) id: a reset or a new chat starts a new CLI session. */
  sessions: Record<string, CliSessionEntry>;
}

// Typed by the interfaces it decodes, so a field added without its schema breaks the build;
// `loose`, so a key a newer Hearth wrote survives this one's rewrite.
const fileSchema: z.ZodType<CliSessionsFile> = z.looseObject({
  version: z.literal(1),
  sessions: z.record(
    z.string(),
    z.looseObject({ backend: z.string().min(1), id: z.string().min(1), updatedAt: z.number() }),
  ),
});

export interface CliSessionStore {
  /** The CLI session to resume for this Hearth session, when it ran on the same backend. */
  get(agentId: string, sessionId: string, backend: string): Promise<string | undefined>;
  set(agentId: string, sessionId: string, backend: string, cliSessionId: string): Promise<void>;
}

/**
 * The CLI's own session ids, kept beside the agent's sessions (`agents/<id>/cli-sessions.json`),
 * so the next turn of a chat resumes the CLI's conversation (`--resume`, `exec resume`) even
 * after a restart. Writes are atomic and serialized per file.
 */
export function createCliSessionStore(deps: { agentDir(agentId: string): string; now(): number }): CliSessionStore {
  const files = new Map<string, Promise<CliSessionsFile>>();
  const writes = new Map<string, Promise<void>>();
  const pathOf = (agentId: string) => join(deps.agentDir(agentId), 'cli-sessions.json');
  const load = (agentId: string): Promise<CliSessionsFile> => {
    let file = files.get(agentId);
    if (!file) {
      file = readFile(pathOf(agentId), 'utf8').then(
        (text) => {
          let value: unknown;
          try {
            value = JSON.parse(text);
          } catch (error) {
            throw new Error(`${pathOf(agentId)} is not valid JSON (${String(error)}); fix or remove it`);
          }
          // Not read as empty: the next `set` would rewrite the file and every chat would lose its CLI session.
          const parsed = fileSchema.safeParse(value);
          if (parsed.success) return parsed.data;
          const issue = parsed.error.issues[0];
          throw new Error(
            `${pathOf(agentId)} is not a CLI sessions file (${issue?.path.join('.') || 'file'}: ${issue?.message ?? 'invalid'}); it was left as it is: fix or remove it`,
          );
        },
        (error: NodeJS.ErrnoException) => {
          if (error.code === 'ENOENT') return { version: 1, sessions: {} };
          throw new Error(`cannot read ${pathOf(agentId)}: ${error.message}`);
        },
      );
      files.set(agentId, file);
      // A broken file is read again next time, so fixing it needs no restart.
      file.catch(() => files.delete(agentId));
    }
    return file;
  };
  return {
    async get(agentId, sessionId, backend) {
      const entry = (await load(agentId)).sessions[sessionId];
      return entry?.backend === backend ? entry.id : undefined;
    },
    async set(agentId, sessionId, backend, cliSessionId) {
      const file = await load(agentId);
      file.sessions[sessionId] = { backend, id: cliSessionId, updatedAt: deps.now() };
      const body = `${JSON.stringify(file, null, 2)}\n`;
      const next = (writes.get(agentId) ?? Promise.resolve()).then(() => writeFileAtomic(pathOf(agentId), body));
      writes.set(
        agentId,
        next.catch(() => {}),
      );
      await next;
    },
  };
}
