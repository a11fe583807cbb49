import type { Command } from 'commander';
import type { PermissionRuleView, SessionGrantView } from '../../protocol/methods/permissions.js';
import type { CliContext } from '../cli-context.js';
import { type GatewayOptions, withGatewayClient, withGatewayOptions } from '../gateway-command.js';

/** One rule in a line: id, what it allows, its scope, for whom, until when, who gave it. */
function ruleLine(rule: PermissionRuleView): string {
  const what =
    rule.kind === 'exec'
      ? `${rule.pattern ?? ''}${rule.argPattern ? ` ${rule.argPattern}` : ''}`
      : rule.scope === 'server'
        ? `server ${rule.server ?? ''}`
        : `${rule.tool ?? ''}${rule.scope === 'exact' && rule.args ? ` ${rule.args}` : ''}`;
  const until = rule.expiresAtMs === undefined ? 'no end' : `until ${new Date(rule.expiresAtMs).toISOString()}`;
  return `${rule.id}  ${rule.kind}  ${rule.scope}  ${what}  agent ${rule.agentId ?? '*'}  ${until}  by ${rule.origin}`;
}

function grantLine(grant: SessionGrantView): string {
  return `${grant.id}  ${grant.kind}  session ${grant.sessionKey}  ${grant.args ?? grant.tool}  by ${grant.origin}`;
}

/** `hearth permissions list|revoke`: what runs without asking ("always" rules, session answers), and undoing one. */
export function registerPermissionsCommands(program: Command, context: CliContext): void {
  const permissions = program
    .command('permissions')
    .description('What runs without asking: "always" rules and "for this session" answers');

  withGatewayOptions(permissions.command('list').description('Every rule and session answer')).action(
    async (options: GatewayOptions) => {
      const listed = await withGatewayClient(context, options, ['operator.read'], (client) =>
        client.request('permissions.list', {}),
      );
      if (options.json) {
        context.stdout(`${JSON.stringify(listed)}\n`);
        return;
      }
      if (listed.rules.length === 0 && listed.session.length === 0) context.stdout('nothing is allowed always\n');
      for (const rule of listed.rules) context.stdout(`${ruleLine(rule)}\n`);
      for (const grant of listed.session) context.stdout(`${grantLine(grant)}\n`);
    },
  );

  withGatewayOptions(
    permissions
      .command('revoke')
      .description('End a rule or session answer: the next call asks again')
      .argument('<id>', 'rule id (permissions list)'),
  ).action(async (id: string, options: GatewayOptions) => {
    const { revoked } = await withGatewayClient(context, options, ['operator.approvals'], (client) =>
      client.request('permissions.revoke', { id }),
    );
    context.stdout(options.json ? `${JSON.stringify(revoked)}\n` : `revoked ${revoked.id}\n`);
  });
}
