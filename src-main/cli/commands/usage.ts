import type { Command } from 'commander';
import type {
  UsageLimitStatus,
  UsageLimitsResult,
  UsageSummaryResult,
  UsageTotals,
} from '../../protocol/methods/usage.js';
import { type CliContext, CliError } from '../cli-context.js';
import { type GatewayOptions, withGatewayClient, withGatewayOptions } from '../gateway-command.js';

interface SummaryOptions extends GatewayOptions {
  days?: string;
  agent?: string;
  top?: string;
}

interface SetOptions extends GatewayOptions {
  agent?: string;
  tokens?: string;
  cost?: string;
}

/** `hearth usage [limits [set]]`: what model calls cost, and the caps on them (docs/USAGE.md). */
export function registerUsageCommands(program: Command, context: CliContext): void {
  const usage = withGatewayOptions(
    program
      .command('usage')
      .description('Tokens and cost of every model call: today, this week, this month, and the limits')
      .option('--days <n>', 'days of history for the breakdowns', '30')
      .option('--agent <id>', 'only this agent')
      .option('--top <n>', 'how many top sessions', '10'),
  ).action(async (options: SummaryOptions) => {
    const days = positiveInteger('usage', '--days', options.days ?? '30', 366);
    const topSessions = positiveInteger('usage', '--top', options.top ?? '10', 100);
    const summary = await withGatewayClient(context, options, ['operator.read'], (client) =>
      client.request('usage.summary', { days, topSessions, ...(options.agent ? { agentId: options.agent } : {}) }),
    );
    context.stdout(options.json ? `${JSON.stringify(summary, null, 2)}\n` : formatUsageSummary(summary));
  });

  const limits = withGatewayOptions(
    usage.command('limits').description('The spend limits and how much is used'),
  ).action(async (_options: GatewayOptions, command: Command) => {
    // `usage` parses its own options (--json, --url, --token) wherever they stand.
    const options = command.optsWithGlobals<GatewayOptions>();
    const result = await withGatewayClient(context, options, ['operator.read'], (client) =>
      client.request('usage.limits.get', {}),
    );
    context.stdout(options.json ? `${JSON.stringify(result, null, 2)}\n` : formatUsageLimits(result));
  });

  withGatewayOptions(
    limits
      .command('set')
      .description('Set or remove a limit (written to usage.limits in hearth.json)')
      .argument('<scope>', 'global | background | agent')
      .argument('<period>', 'day | month')
      .option('--agent <id>', 'the agent, for scope "agent"')
      .option('--tokens <n>', 'tokens (input + output) per period, or "none" to remove')
      .option('--cost <usd>', 'US dollars per period, or "none" to remove'),
  ).action(async (scope: string, period: string, _options: SetOptions, command: Command) => {
    const options = command.optsWithGlobals<SetOptions>();
    if (scope !== 'global' && scope !== 'background' && scope !== 'agent')
      throw new CliError(`usage limits set: scope must be global, background or agent, got "${scope}"`);
    if (period !== 'day' && period !== 'month')
      throw new CliError(`usage limits set: period must be day or month, got "${period}"`);
    if (options.tokens === undefined && options.cost === undefined)
      throw new CliError('usage limits set: give --tokens and/or --cost (a number, or "none" to remove)');
    const tokens = options.tokens === undefined ? undefined : limitValue('--tokens', options.tokens, true);
    const costUsd = options.cost === undefined ? undefined : limitValue('--cost', options.cost, false);
    const result = await withGatewayClient(context, options, ['operator.admin'], (client) =>
      client.request('usage.limits.set', {
        scope,
        period,
        ...(options.agent ? { agentId: options.agent } : {}),
        ...(tokens !== undefined ? { tokens } : {}),
        ...(costUsd !== undefined ? { costUsd } : {}),
      }),
    );
    context.stdout(options.json ? `${JSON.stringify(result, null, 2)}\n` : formatUsageLimits(result));
  });
}

function positiveInteger(command: string, flag: string, raw: string, max: number): number {
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 1 || value > max)
    throw new CliError(`${command}: ${flag} must be a whole number from 1 to ${max}, got "${raw}"`);
  return value;
}

function limitValue(flag: string, raw: string, whole: boolean): number | null {
  if (raw === 'none') return null;
  const value = Number(raw.replace(/^\$/, '').replaceAll(',', '').replaceAll('_', ''));
  if (!Number.isFinite(value) || value <= 0 || (whole && !Number.isInteger(value)))
    throw new CliError(
      `usage limits set: ${flag} must be a positive ${whole ? 'whole number' : 'number'} or "none", got "${raw}"`,
    );
  return value;
}

const count = (n: number) => Math.round(n).toLocaleString('en-US');
const usd = (n: number) => `$${n.toFixed(n > 0 && n < 1 ? 4 : 2)}`;

function totalsLine(label: string, totals: UsageTotals, width: number): string {
  const unpriced = totals.unpricedCalls > 0 ? `  (${totals.unpricedCalls} unpriced)` : '';
  return `${label.padEnd(width)}  ${count(totals.calls).padStart(6)} calls  ${count(totals.inputTokens).padStart(11)} in  ${count(totals.cachedInputTokens).padStart(11)} cached  ${count(totals.outputTokens).padStart(10)} out  ${usd(totals.costUsd).padStart(10)}${unpriced}`;
}

/** The text `hearth usage` prints: the same figures as the Usage view. */
export function formatUsageSummary(summary: UsageSummaryResult): string {
  const lines = [`Usage (days in ${summary.timeZone})`, ''];
  lines.push(totalsLine('today', summary.today, 12));
  lines.push(totalsLine('last 7 days', summary.week, 12));
  lines.push(totalsLine('this month', summary.month, 12));

  const busiest = Math.max(...summary.byDay.map((row) => row.totalTokens), 1);
  lines.push('', `By day (last ${summary.byDay.length})`);
  for (const row of summary.byDay.filter((r) => r.calls > 0)) {
    const bar = '#'.repeat(Math.max(1, Math.round((row.totalTokens / busiest) * 30)));
    lines.push(`  ${row.day}  ${count(row.totalTokens).padStart(11)} tokens  ${usd(row.costUsd).padStart(10)}  ${bar}`);
  }
  if (summary.byDay.every((row) => row.calls === 0)) lines.push('  no model calls');

  const section = (title: string, rows: { label: string; totals: UsageTotals }[]) => {
    if (rows.length === 0) return;
    lines.push('', title);
    const width = Math.max(...rows.map((row) => row.label.length));
    for (const row of rows) lines.push(`  ${totalsLine(row.label, row.totals, width)}`);
  };
  section(
    'By purpose',
    summary.byPurpose.map((row) => ({ label: row.purpose, totals: row })),
  );
  section(
    'By agent',
    summary.byAgent.map((row) => ({ label: row.agentId, totals: row })),
  );
  section(
    'By model',
    summary.byModel.map((row) => ({ label: row.model, totals: row })),
  );
  section(
    'Top sessions',
    summary.topSessions.map((row) => ({ label: row.sessionKey, totals: row })),
  );
  lines.push('', ...limitLines(summary.limits));
  return `${lines.join('\n')}\n`;
}

export function formatUsageLimits(result: UsageLimitsResult): string {
  return `${[...limitLines(result.limits), `(the person is told at ${Math.round(result.warnAt * 100)}%)`].join('\n')}\n`;
}

function limitLines(limits: readonly UsageLimitStatus[]): string[] {
  if (limits.length === 0) return ['Limits: none'];
  const lines = ['Limits'];
  for (const status of limits) {
    const whose = status.scope === 'agent' ? `agent ${status.agentId}` : status.scope;
    const parts: string[] = [];
    if (status.limit.tokens !== undefined)
      parts.push(`${count(status.used.tokens)} / ${count(status.limit.tokens)} tokens`);
    if (status.limit.costUsd !== undefined) parts.push(`${usd(status.used.costUsd)} / ${usd(status.limit.costUsd)}`);
    const state = status.state === 'ok' ? '' : status.state === 'warning' ? '  WARNING' : '  EXHAUSTED';
    const resets = new Date(status.resetsAtMs).toISOString().replace('T', ' ').slice(0, 16);
    const isDefault = status.isDefault ? ' (default)' : '';
    lines.push(
      `  ${`${whose} ${status.period === 'day' ? 'daily' : 'monthly'}${isDefault}`.padEnd(28)} ${parts.join(', ')}  ${Math.floor(status.fraction * 100)}%${state}  resets ${resets} UTC`,
    );
  }
  return lines;
}
