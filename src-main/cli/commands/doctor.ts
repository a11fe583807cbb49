import { stat } from 'node:fs/promises';
import { createServer } from 'node:net';
import type { Command } from 'commander';
import { silentLogger } from '../../base/logger.js';
import { ConfigValidationError, formatProblems } from '../../config/index.js';
import { gatewayTokenPath } from '../../gateway/auth/gateway-secret.js';
import { openHearthConfig } from '../../host/hearth-config.js';
import { listBackups, readUpgradeReport } from '../../migrations/index.js';
import type { HearthPaths } from '../../paths/index.js';
import type { CliContext } from '../cli-context.js';

export interface DoctorCheck {
  name: string;
  ok: boolean;
  /** 'warn' checks do not fail the run. */
  level: 'error' | 'warn';
  detail: string;
}

export interface DoctorProbes {
  /** Reports which secret store would be used and why (the secrets capability supplies it). */
  secretStore?: () => Promise<{ backend: string; warning?: string }>;
}

async function checkMode(path: string, maxMode: number, what: string): Promise<DoctorCheck> {
  try {
    const info = await stat(path);
    const loose = info.mode & 0o777 & ~maxMode;
    return loose
      ? {
          name: what,
          ok: false,
          level: 'error',
          detail: `${path} is mode ${(info.mode & 0o777).toString(8)}; run chmod ${maxMode.toString(8)} "${path}"`,
        }
      : { name: what, ok: true, level: 'error', detail: `${path} (mode ${(info.mode & 0o777).toString(8)})` };
  } catch {
    return { name: what, ok: true, level: 'warn', detail: `${path} does not exist yet (made on first run)` };
  }
}

function portFree(port: number, host = '127.0.0.1'): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(false));
    server.listen(port, host, () => server.close(() => resolve(true)));
  });
}

export async function runDoctor(context: CliContext, probes: DoctorProbes = {}): Promise<DoctorCheck[]> {
  const paths = context.paths();
  const checks: DoctorCheck[] = [];
  checks.push(await checkMode(paths.home, 0o700, 'home folder permissions'));
  checks.push(await checkMode(paths.identityDir, 0o700, 'identity folder permissions'));
  checks.push(await checkMode(gatewayTokenPath(paths.identityDir), 0o600, 'gateway token permissions'));

  let port = 18_790;
  try {
    const config = await openHearthConfig({
      path: paths.configFile,
      clock: context.clock,
      log: silentLogger,
      watch: false,
    });
    port = Number(context.env.HEARTH_PORT ?? config.current.gateway.port);
    checks.push({ name: 'config', ok: true, level: 'error', detail: `${paths.configFile} is valid` });
    config.dispose();
  } catch (error) {
    const detail = error instanceof ConfigValidationError ? formatProblems(error.errors) : String(error);
    checks.push({ name: 'config', ok: false, level: 'error', detail: `${paths.configFile}: ${detail}` });
  }

  try {
    checks.push(...(await upgradeChecks(paths)));
  } catch (error) {
    // A hand-broken upgrades.json or backup manifest stops the start (it holds what a crash
    // restore relies on); doctor is where the person finds out which file and field.
    const detail = error instanceof Error ? error.message : String(error);
    checks.push({
      name: 'upgrades',
      ok: false,
      level: 'error',
      detail: `${detail}; Hearth will not start until it is fixed`,
    });
  }

  const free = await portFree(port);
  checks.push({
    name: 'gateway port',
    ok: true,
    level: 'warn',
    detail: free
      ? `port ${port} is free`
      : `port ${port} is in use (a running gateway, or another program; \`hearth gateway call health\` tells which)`,
  });

  if (probes.secretStore) {
    try {
      const store = await probes.secretStore();
      checks.push({
        name: 'keychain',
        ok: store.warning === undefined,
        level: 'warn',
        detail: store.warning ?? `secrets are kept in the ${store.backend}`,
      });
    } catch (error) {
      checks.push({
        name: 'keychain',
        ok: false,
        level: 'error',
        detail: `no secret store is usable: ${String(error)}`,
      });
    }
  }
  return checks;
}

/**
 * One line per copy of each on-disk format (its version and the one this Hearth reads), then what
 * the last starts did: a migration, a failed one undone, a crash-twice restore (docs/UPGRADES.md).
 */
async function upgradeChecks(paths: HearthPaths): Promise<DoctorCheck[]> {
  const report = await readUpgradeReport(paths);
  const checks: DoctorCheck[] = report.formats.map((copy) => {
    const name = `format ${copy.label}`;
    if (copy.unreadable)
      return { name, ok: false, level: 'warn', detail: `${copy.path} cannot be read (${copy.unreadable})` };
    const implicit = copy.explicit ? '' : ' (no version field)';
    const detail = `${copy.path}: version ${copy.version}${implicit}`;
    if (copy.version > copy.current)
      return {
        name,
        ok: false,
        level: 'error',
        detail: `${detail}, written by a newer Hearth (this one reads up to ${copy.current}); Hearth will not start on it`,
      };
    if (copy.version < copy.current)
      return {
        name,
        ok: false,
        level: 'warn',
        detail: `${detail}; upgraded to version ${copy.current} at the next start${report.held ? ' (held: see upgrades)' : ', after a backup'}`,
      };
    return { name, ok: true, level: 'error', detail: `${detail}, current` };
  });
  const backups = await listBackups(paths.home);
  const kept =
    backups.length === 0
      ? `no backups yet (a migration makes one in ${paths.home}/backups)`
      : `${backups.length} backup${backups.length === 1 ? '' : 's'} in ${paths.home}/backups, the latest ${backups.at(-1)?.dir.split('/').pop()}`;
  const event = report.lastEvent;
  const held = report.held ? ` Migrations are held for ${report.held.appVersion}: ${report.held.reason}.` : '';
  checks.push({
    name: 'upgrades',
    ok: event === undefined || event.kind === 'migrated',
    level: 'warn',
    detail: `${event ? `${new Date(event.atMs).toISOString()} (${event.appVersion}): ${event.message}.` : 'no migration has run.'}${held} ${kept}`,
  });
  return checks;
}

export function registerDoctorCommand(program: Command, context: CliContext, probes: DoctorProbes = {}): void {
  program
    .command('doctor')
    .description('check home permissions, port, keychain, config and the versions of the files in the home')
    .option('--json', 'print the checks as JSON')
    .action(async (options: { json?: boolean }) => {
      const checks = await runDoctor(context, probes);
      if (options.json) context.stdout(`${JSON.stringify({ checks }, null, 2)}\n`);
      else
        for (const check of checks)
          context.stdout(`${check.ok ? '✓' : check.level === 'warn' ? '!' : '✗'} ${check.name}: ${check.detail}\n`);
      if (checks.some((c) => !c.ok && c.level === 'error')) context.exitCode = 1;
    });
}
