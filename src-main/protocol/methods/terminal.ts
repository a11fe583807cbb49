import { z } from 'zod';
import { method } from './define.js';

/**
 * Terminal sessions the user attaches to from the UI. Output arrives as
 * `terminal.output {terminalId, data, seq}` events and the end as
 * `terminal.exit {terminalId, exitCode, signal}`.
 */
export interface TerminalOpenResult {
  terminalId: string;
  pid: number;
  cols: number;
  rows: number;
  cwd: string;
  shell: string;
}

const terminalId = z.string().min(1);
const size = z.number().int().min(1).max(1000);

export const terminalMethods = {
  'terminal.open': method<TerminalOpenResult>()({
    scope: 'operator.admin',
    params: () =>
      z
        .object({
          agentId: z.string().optional(),
          cwd: z.string().optional(),
          cols: size.optional(),
          rows: size.optional(),
          /** A command to run instead of the login shell (still through the exec policy). */
          command: z.string().optional(),
        })
        .strict(),
  }),
  'terminal.input': method<{ ok: true }>()({
    scope: 'operator.admin',
    params: () => z.object({ terminalId, data: z.string().max(1_000_000) }).strict(),
  }),
  'terminal.resize': method<{ ok: true }>()({
    scope: 'operator.admin',
    params: () => z.object({ terminalId, cols: size, rows: size }).strict(),
  }),
  'terminal.close': method<{ ok: true }>()({
    scope: 'operator.admin',
    params: () => z.object({ terminalId }).strict(),
  }),
  'terminal.list': method<{ terminals: TerminalOpenResult[] }>()({
    scope: 'operator.admin',
    params: () => z.object({}).strict(),
  }),
};
