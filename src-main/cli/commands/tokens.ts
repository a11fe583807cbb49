import type { Command } from 'commander';
import type { ApiTokenView } from '../../protocol/methods/tokens.js';
import { type CliContext, CliError } from '../cli-context.js';
import { type GatewayOptions, withGatewayClient, withGatewayOptions } from '../gateway-command.js';
import { parseScopes } from './mcp.js';

const DAY_MS = 24 * 60 * 60 * 1000;

function describeToken(token: ApiTokenView): string {
  const used = token.lastUsedAtMs ? new Date(token.lastUsedAtMs).toISOString() : 'never';
  const expires = token.expiresAtMs ? `, expires ${new Date(token.expiresAtMs).toISOString()}` : '';
  return `${token.id}  ${token.name}  ${token.scopes.join(', ')}  (created ${new Date(token.createdAtMs).toISOString()}, last used ${used}${expires})`;
}

function parseDays(value: string): number {
  const days = Number(value);
  if (!Number.isFinite(days) || days <= 0)
    throw new CliError(`--expires-days: expected a positive number, got ${value}`);
  return days;
}

/** `hearth tokens create|list|revoke`: bearer tokens with chosen scopes for `/v1` and `/mcp` (docs/API.md). */
export function registerTokensCommands(program: Command, context: CliContext): void {
  const tokens = program.command('tokens').description('API tokens for scripts and programs: create, list, revoke');

  withGatewayOptions(
    tokens
      .command('create')
      .description('mint a bearer token holding only the scopes given (shown once)')
      .requiredOption('--name <name>', 'what the token is for, e.g. ci')
      .requiredOption('--scopes <list>', 'comma-separated scopes, e.g. operator.read,operator.write')
      .option('--expires-days <days>', 'stop accepting it after this many days'),
  ).action(async (options: GatewayOptions & { name: string; scopes: string; expiresDays?: string }) => {
    const scopes = parseScopes(options.scopes);
    const expiresAtMs =
      options.expiresDays !== undefined ? context.clock.now() + parseDays(options.expiresDays) * DAY_MS : undefined;
    const result = await withGatewayClient(context, options, ['operator.admin'], (client) =>
      client.request('tokens.create', { name: options.name, scopes, ...(expiresAtMs ? { expiresAtMs } : {}) }),
    );
    if (options.json) return context.stdout(`${JSON.stringify(result, null, 2)}\n`);
    context.stdout(`${result.token}\n`);
    context.stderr(
      `created API token ${result.info.id} (${result.info.name}) with ${result.info.scopes.join(', ')}; it is shown only now: store it\n`,
    );
  });

  withGatewayOptions(tokens.command('list').description('the API tokens (never their values)')).action(
    async (options: GatewayOptions) => {
      const result = await withGatewayClient(context, options, ['operator.admin'], (client) =>
        client.request('tokens.list', {}),
      );
      if (options.json) return context.stdout(`${JSON.stringify(result, null, 2)}\n`);
      context.stdout(
        result.tokens.length === 0 ? 'no API tokens\n' : `${result.tokens.map(describeToken).join('\n')}\n`,
      );
    },
  );

  withGatewayOptions(
    tokens.command('revoke <id>').description('stop accepting a token (by id, or by name if only one has it)'),
  ).action(async (id: string, options: GatewayOptions) => {
    const result = await withGatewayClient(context, options, ['operator.admin'], (client) =>
      client.request('tokens.revoke', { id }),
    );
    if (options.json) return context.stdout(`${JSON.stringify(result, null, 2)}\n`);
    context.stdout(`revoked ${result.revoked.id} (${result.revoked.name})\n`);
  });
}
