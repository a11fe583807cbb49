import { appendFile, mkdir, readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { z } from 'zod';
import { HearthError } from '../base/errors.js';
import { type AlwaysScope, type ApprovalDecision, alwaysScopes, approvalDecisions } from './approval-types.js';

/** One line of `state/approvals-history.jsonl`: who or what decided, when, why. */
export interface ApprovalHistoryEntry {
  id: string;
  agentId: string;
  sessionKey: string;
  command: string;
  /** Program names the command runs (what `approvals suggest` mines). */
  programs: { name: string; args: string[] }[];
  decision: ApprovalDecision;
  resolvedBy: string;
  reason?: string;
  /** allow-once remembered for the session. */
  remember?: 'session';
  allowAlwaysScope?: AlwaysScope;
  /** allow-always until then. */
  untilMs?: number;
  /** The rule saved, or the rule / session grant that answered without asking (`resolvedBy: rule:<id>`, `session`). */
  ruleId?: string;
  /** MCP and file requests: the tool asked about. */
  tool?: string;
  requestedAtMs: number;
  decidedAtMs: number;
}

// Typed by the interface it decodes, so a field added to an entry without its schema breaks the build.
// `loose`: a line a newer Hearth wrote with more keys still reads.
const entrySchema: z.ZodType<ApprovalHistoryEntry> = z.looseObject({
  id: z.string(),
  agentId: z.string(),
  sessionKey: z.string(),
  command: z.string(),
  programs: z.array(z.looseObject({ name: z.string(), args: z.array(z.string()) })),
  decision: z.enum(approvalDecisions),
  resolvedBy: z.string(),
  reason: z.string().optional(),
  remember: z.literal('session').optional(),
  allowAlwaysScope: z.enum(alwaysScopes).optional(),
  untilMs: z.number().optional(),
  ruleId: z.string().optional(),
  tool: z.string().optional(),
  requestedAtMs: z.number(),
  decidedAtMs: z.number(),
});

export interface ApprovalHistory {
  append(entry: ApprovalHistoryEntry): Promise<void>;
  read(): Promise<ApprovalHistoryEntry[]>;
  /** Resolves once every queued append has reached the file (shutdown, and tests removing the folder). */
  flush(): Promise<void>;
}

export function approvalsHistoryPath(stateDir: string): string {
  return join(stateDir, 'approvals-history.jsonl');
}

/** Append-only JSONL: one small write per decision, readable with `tail`. */
export function createApprovalHistory(path: string): ApprovalHistory {
  let writing: Promise<void> = Promise.resolve();
  return {
    append(entry) {
      const line = `${JSON.stringify(entry)}\n`;
      writing = writing
        .catch(() => undefined)
        .then(async () => {
          await mkdir(dirname(path), { recursive: true });
          await appendFile(path, line, { mode: 0o600 });
        });
      return writing;
    },
    async flush() {
      await writing.catch(() => undefined);
    },
    async read() {
      await writing.catch(() => undefined);
      let text: string;
      try {
        text = await readFile(path, 'utf8');
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
        throw error;
      }
      const entries: ApprovalHistoryEntry[] = [];
      for (const [index, line] of text.split('\n').entries()) {
        if (line.trim() === '') continue;
        let value: unknown;
        try {
          value = JSON.parse(line);
        } catch {
          // A torn line (crash mid-append) is skipped, not fatal.
          continue;
        }
        // A whole line that is not a decision is refused, naming it, rather than dropped from the record.
        const entry = entrySchema.safeParse(value);
        if (!entry.success) {
          const issue = entry.error.issues[0];
          throw new HearthError(
            'unavailable',
            `approvals history ${path} cannot be read (line ${index + 1}, ${issue?.path.join('.') || 'entry'}: ${issue?.message ?? 'invalid'}); it was left as it is: fix or remove that line`,
          );
        }
        entries.push(entry.data);
      }
      return entries;
    },
  };
}
