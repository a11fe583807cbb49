import type { Command } from 'commander';
import { silentLogger } from '../../base/index.js';
import {
  AuthProfileError,
  type AuthProfileHealth,
  type AuthProfileType,
  authConfigSchema,
  createAuthProfileManager,
} from '../../providers/index.js';
import { openSecretStore } from '../../secrets/index.js';
import { type CliContext, CliError } from '../cli-context.js';

const profileTypes: readonly AuthProfileType[] = ['api_key', 'token', 'oauth'];

interface SetOptions {
  provider: string;
  type: string;
  label?: string;
  expiresAt?: string;
  secretStdin?: boolean;
}

/**
 * `hearth auth list|set|remove`: manage provider credentials (auth profiles) offline. Secrets
 * are read from stdin, never from argv, so they do not land in shell history. Profiles declared
 * in hearth.json are managed there; a running gateway picks changes up on restart.
 */
export function registerAuthCommands(program: Command, context: CliContext): void {
  const auth = program.command('auth').description('Provider credentials (auth profiles)');

  const open = async () => {
    const paths = context.paths();
    const { store } = await openSecretStore({ paths, log: silentLogger, env: context.env });
    const manager = await createAuthProfileManager({
      stateDir: paths.stateDir,
      secrets: store,
      clock: context.clock,
      log: silentLogger,
      config: () => authConfigSchema.parse({}),
    });
    return { manager, store };
  };

  auth
    .command('list')
    .description('Show each profile with its health (never the secret)')
    .option('--provider <id>', 'only this provider')
    .option('--json', 'print JSON')
    .action(async (options: { provider?: string; json?: boolean }) => {
      const { manager, store } = await open();
      const rows = (await manager.health()).filter((p) => !options.provider || p.provider === options.provider);
      if (options.json) {
        context.stdout(`${JSON.stringify({ profiles: rows, secretBackend: store.backend }, null, 2)}\n`);
        return;
      }
      if (store.warning) context.stderr(`warning: ${store.warning}\n`);
      context.stdout(
        rows.length === 0
          ? 'No auth profiles. Add one with "hearth auth set <id> --provider <id>".\n'
          : formatRows(rows),
      );
    });

  auth
    .command('set')
    .description('Add or update a profile; the secret is read from stdin')
    .argument('<id>', 'profile id, e.g. openai-work')
    .requiredOption('--provider <id>', 'provider id, e.g. openai, anthropic, deepseek')
    .option('--type <type>', 'api_key | token | oauth (oauth: JSON {access, refresh, expires})', 'api_key')
    .option('--label <text>', 'a name shown in the UI')
    .option('--expires-at <date>', 'token expiry (ISO date or epoch ms)')
    .option('--keep-secret', 'keep the stored secret (e.g. to re-enable a disabled profile)')
    .action(async (id: string, options: SetOptions & { keepSecret?: boolean }) => {
      if (!profileTypes.includes(options.type as AuthProfileType)) {
        throw new CliError(`auth set: --type must be one of ${profileTypes.join(', ')}, got "${options.type}"`);
      }
      const expiresAt = options.expiresAt === undefined ? undefined : parseDate(options.expiresAt);
      let secret: string | undefined;
      if (!options.keepSecret) {
        secret = (await context.readStdin()).trim();
        if (!secret) throw new CliError('auth set: no secret on stdin (pipe it in, or pass --keep-secret)');
      }
      const { manager } = await open();
      try {
        await manager.set({
          id,
          provider: options.provider,
          type: options.type as AuthProfileType,
          label: options.label,
          expiresAt,
          secret,
        });
      } catch (error) {
        if (error instanceof AuthProfileError) throw new CliError(`auth set: ${error.message}`);
        throw error;
      }
      await manager.flush();
      context.stdout(`Saved auth profile "${id}" (${options.provider}, ${options.type}).\n`);
    });

  auth
    .command('remove')
    .description('Remove a profile and its secret')
    .argument('<id>', 'profile id')
    .action(async (id: string) => {
      const { manager } = await open();
      let removed: boolean;
      try {
        removed = await manager.remove(id);
      } catch (error) {
        if (error instanceof AuthProfileError) throw new CliError(`auth remove: ${error.message}`);
        throw error;
      }
      await manager.flush();
      if (!removed) throw new CliError(`auth remove: no auth profile "${id}"`);
      context.stdout(`Removed auth profile "${id}".\n`);
    });
}

function parseDate(value: string): number {
  const asNumber = Number(value);
  const ms = Number.isFinite(asNumber) ? asNumber : Date.parse(value);
  if (!Number.isFinite(ms) || ms <= 0)
    throw new CliError(`auth set: --expires-at "${value}" is not a date or epoch ms`);
  return ms;
}

export function formatRows(rows: readonly AuthProfileHealth[]): string {
  const lines = rows.map((p) => {
    const extra =
      p.status === 'cooldown'
        ? ` (${Math.ceil(p.cooldownRemainingMs / 1000)} s left)`
        : p.status === 'disabled'
          ? ` (${p.disabledReason}${p.disabledUntil ? ` until ${new Date(p.disabledUntil).toISOString()}` : ', until you set it again'})`
          : '';
    const last = p.lastErrorReason ? `  last error: ${p.lastErrorReason}` : '';
    return `${p.id}  ${p.provider}  ${p.type}  ${p.status}${extra}${last}`;
  });
  return `${lines.join('\n')}\n`;
}
