import type { Command } from 'commander';
import { showCacheTrace } from '../../agent/context/index.js';
import type { TraceCallExplanation, TraceShowResult } from '../../protocol/methods/trace.js';
import { normalizeSessionKey, SessionKeyError } from '../../sessions/index.js';
import { type CliContext, CliError } from '../cli-context.js';

interface ShowOptions {
  json?: boolean;
  limit?: string;
}

/** `hearth trace show <session>`: why each recent LLM call of a session did or did not reuse the prompt cache. */
export function registerTraceCommands(program: Command, context: CliContext): void {
  const trace = program.command('trace').description('Prompt-cache traces of LLM calls');
  trace
    .command('show')
    .description('Explain per call whether the cached prompt prefix survived, and where it broke')
    .argument('<session>', 'session key ("main" is agent:main:main)')
    .option('--json', 'print JSON')
    .option('--limit <n>', 'most recent calls only', '50')
    .action(async (session: string, options: ShowOptions) => {
      const limit = Number(options.limit);
      if (!Number.isInteger(limit) || limit < 1)
        throw new CliError(`trace show: --limit must be a positive integer, got "${options.limit}"`);
      let sessionKey: string;
      try {
        sessionKey = normalizeSessionKey(session);
      } catch (error) {
        if (error instanceof SessionKeyError)
          throw new CliError(`trace show: bad session key "${session}": ${error.message}`);
        throw error;
      }
      const result = await showCacheTrace(context.paths().cacheTraceDir, sessionKey, limit);
      context.stdout(options.json ? `${JSON.stringify(result, null, 2)}\n` : formatTrace(result));
    });
}

export function formatTrace(result: TraceShowResult): string {
  if (result.calls.length === 0) return `No traced LLM calls for ${result.sessionKey}.\n`;
  const lines = [`${result.sessionKey}: ${result.calls.length} call(s)`];
  for (const call of result.calls) lines.push(formatCall(call));
  return `${lines.join('\n')}\n`;
}

function formatCall(call: TraceCallExplanation): string {
  const when = new Date(call.ts).toISOString();
  const verdict =
    call.verdict === 'first_call'
      ? 'first call (nothing cached yet)'
      : call.verdict === 'prefix_stable'
        ? 'prefix stable (cache should hit)'
        : `CACHE MISS at ${call.missStage}: ${call.reason}`;
  const prompt = call.stages.find((s) => s.stage === 'stream_context') ?? call.stages.at(-1);
  const size = prompt ? ` [${prompt.messageCount} msgs, ${prompt.chars} chars]` : '';
  return `  ${when} ${call.callId}${size} ${verdict}`;
}
