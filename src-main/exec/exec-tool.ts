import { z } from 'zod';
import { formatApprovalMarker } from '../protocol/approval-marker.js';
import type { ToolDefinition, ToolOutput } from '../tools/tool.js';
import type { ExecHost, ExecOutcome, ExecRequest } from './exec-host.js';

export const execToolInputSchema = z
  .object({
    command: z.string().min(1, 'command must not be empty').describe('bash command line'),
    cwd: z.string().optional().describe('working folder, relative to the workspace'),
    timeoutMs: z.number().int().positive().optional(),
    pty: z.boolean().optional().describe('run in a terminal (interactive programs)'),
    input: z.string().optional().describe('with pty: keys to type'),
  })
  .strict();

/** The model's shell tool. Name `exec` (or `bash` for models trained on that name). */
export function createExecTool(host: ExecHost, name: 'exec' | 'bash' = 'exec'): ToolDefinition<ExecRequest> {
  return {
    name,
    description: 'Run a bash command in the workspace. Risky commands need user approval.',
    inputSchema: execToolInputSchema,
    async execute(input, context) {
      const outcome = await host.execute(input, {
        agentId: context.agentId,
        sessionKey: context.sessionKey,
        workspaceDir: context.workspaceDir,
        signal: context.signal,
        onOutput: context.onProgress?.bind(context),
      });
      return formatOutcome(outcome);
    },
  };
}

/**
 * The tool result: the command's output (or why it did not run), first the approval marker when
 * someone was asked, so the decision is kept in the transcript with the output.
 */
export function formatOutcome(outcome: ExecOutcome): ToolOutput {
  const formatted = formatResult(outcome);
  if (!outcome.approval) return formatted;
  return { ...formatted, output: `${formatApprovalMarker(outcome.approval)}\n${formatted.output}` };
}

function formatResult(outcome: ExecOutcome): ToolOutput {
  if (outcome.status === 'denied')
    return {
      isError: true,
      output: [
        `Not run: denied (${outcome.by}).`,
        ...outcome.reasons.map((reason) => `- ${reason.code}: ${reason.detail}`),
      ].join('\n'),
    };
  if (outcome.status === 'preflight')
    return {
      isError: true,
      output: [
        'Not run: the script check found problems. Fix them and run again.',
        ...outcome.issues.map((issue) => `- ${issue.code}: ${issue.detail}`),
      ].join('\n'),
    };
  const { result } = outcome;
  const status = result.timedOut
    ? '[killed: timed out]'
    : result.aborted
      ? '[killed: aborted]'
      : result.signal
        ? `[killed by ${result.signal}]`
        : `[exit code ${result.exitCode}]`;
  const body = result.output.length > 0 ? `${result.output.replace(/\n$/, '')}\n` : '';
  return { output: `${body}${status}`, isError: result.exitCode !== 0 };
}
