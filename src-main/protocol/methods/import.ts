import { z } from 'zod';
import type { ImportReasonParams } from '../import-reason-codes.js';
import { method } from './define.js';

/** One line of an import report (src-main/import): what it becomes in Hearth, from where, and what happens. */
export interface ImportItemView {
  kind:
    | 'workspace-file'
    | 'session'
    | 'provider'
    | 'credential'
    | 'model'
    | 'agent'
    | 'binding'
    | 'cron-job'
    | 'allowlist'
    | 'other';
  target: string;
  origin: string;
  status: 'import' | 'present' | 'conflict' | 'skipped' | 'imported' | 'failed';
  /** Why, in English: the CLI's terminal report, and what a client shows for a code it has no words for. */
  reason?: string;
  /**
   * Why, as a code (an ImportReasonCode from this build's gateway; another gateway may send one
   * this client does not know) and the params its words are filled with. Set whenever `reason` is.
   */
  reasonCode?: string;
  reasonParams?: ImportReasonParams;
}

export interface ImportReportView {
  source: 'openclaw' | 'hermes';
  from: string;
  applied: boolean;
  items: ImportItemView[];
  counts: Record<ImportItemView['status'], number>;
}

const source = z.enum(['openclaw', 'hermes'], {
  error: (issue) => `unknown import source ${JSON.stringify(issue.input)} (openclaw or hermes)`,
});

/**
 * Import from OpenClaw or Hermes Agent on the gateway's machine (docs/IMPORT.md). Only each tool's
 * default folder (~/.openclaw, ~/.hermes) is read: a client cannot point the gateway at another
 * folder. Keys read there go to the secret store, never into an answer.
 */
export const importMethods = {
  /** Which of the tools has a folder on this machine. */
  'import.detect': method<{ sources: { source: 'openclaw' | 'hermes'; from: string; found: boolean }[] }>()({
    scope: 'operator.admin',
    params: () => z.object({}).strict(),
  }),
  /** The dry run: what would be imported, what is already there, conflicts, and what is skipped and why. */
  'import.plan': method<{ report: ImportReportView }>()({
    scope: 'operator.admin',
    params: () => z.object({ source }).strict(),
  }),
  /** Imports the plan's new items; nothing Hearth has is overwritten, and a second call imports nothing. */
  'import.apply': method<{ report: ImportReportView }>()({
    scope: 'operator.admin',
    params: () => z.object({ source }).strict(),
    controlPlaneWrite: true,
  }),
};
