import { appendFile, mkdir, readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { AlwaysScope, ApprovalDecision } from './approval-types.js';

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
      for (const line of text.split('\n')) {
        if (line.trim() === '') continue;
        try {
          entries.push(JSON.parse(line) as ApprovalHistoryEntry);
        } catch {
          // A torn last line (crash mid-append) is skipped, not fatal.
        }
      }
      return entries;
    },
  };
}
