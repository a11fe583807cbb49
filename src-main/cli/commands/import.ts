import { connect } from 'node:net';
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import type { Command } from 'commander';
import { appRootFrom } from '../../base/app-root.js';
import { silentLogger } from '../../base/logger.js';
import { ConfigValidationError, formatProblems } from '../../config/index.js';
import { type HearthConfigService, openHearthConfig } from '../../host/hearth-config.js';
import {
  defaultSourceFolder,
  formatImportReport,
  type ImportSource,
  type OfflineTargets,
  openOfflineTargets,
  planImport,
  readImportSource,
} from '../../import/index.js';
import { openSecretStore } from '../../secrets/index.js';
import { type CliContext, CliError } from '../cli-context.js';

interface ImportOptions {
  from?: string;
  apply?: boolean;
  dryRun?: boolean;
  json?: boolean;
}

/**
 * `hearth import openclaw|hermes [--from <dir>] [--apply]`: bring another agent's workspace files,
 * sessions, providers and keys, agents, bindings, cron jobs and exec allowlist into HEARTH_HOME
 * (docs/IMPORT.md). The default is the plan, changing nothing; `--apply` carries it out. Works on
 * the files directly: stop the gateway first, or use the onboarding button while it runs.
 */
export function registerImportCommands(program: Command, context: CliContext): void {
  const command = program
    .command('import')
    .description('Import from OpenClaw or Hermes Agent (dry run unless --apply)');
  for (const source of ['openclaw', 'hermes'] as const) {
    command
      .command(source)
      .description(`Import from ${source === 'openclaw' ? 'OpenClaw (~/.openclaw)' : 'Hermes Agent (~/.hermes)'}`)
      .option('--from <dir>', `the ${source === 'openclaw' ? 'OpenClaw' : 'Hermes'} folder to read`)
      .option('--dry-run', 'show what would be imported, skipped and why (the default)')
      .option('--apply', 'import it (nothing Hearth has is overwritten)')
      .option('--json', 'print the report as JSON')
      .action((options: ImportOptions) => runImport(context, source, options));
  }
}

async function runImport(context: CliContext, source: ImportSource, options: ImportOptions): Promise<void> {
  if (options.apply && options.dryRun)
    throw new CliError("import: --apply and --dry-run are each other's opposite; give one");
  const userHome = context.env.HOME ?? homedir();
  const from = options.from ? resolve(options.from) : defaultSourceFolder(source, userHome, context.env);
  let inventory: Awaited<ReturnType<typeof readImportSource>>;
  try {
    inventory = await readImportSource(source, from, userHome);
  } catch (error) {
    throw new CliError(`import ${source}: ${(error as Error).message}`);
  }
  const paths = context.paths();
  const { store } = await openSecretStore({ paths, log: silentLogger, env: context.env });
  let targets: OfflineTargets<HearthConfigService>;
  try {
    targets = await openOfflineTargets({
      paths,
      secrets: store,
      clock: context.clock,
      log: silentLogger,
      // Hearth's starter files, from the sources, the build or the bundle.
      templatesDir: join(appRootFrom(import.meta.url), 'resources', 'workspace'),
      openConfig: (path) => openHearthConfig({ path, clock: context.clock, log: silentLogger, watch: false }),
    });
  } catch (error) {
    if (error instanceof ConfigValidationError)
      throw new CliError(
        `import ${source}: ${paths.configFile} is invalid, fix it first:\n${formatProblems(error.errors)}`,
      );
    throw new CliError(`import ${source}: ${(error as Error).message}`);
  }
  try {
    // A running gateway holds the session index, cron jobs and auth state in memory and would
    // write over what this writes to the files: then the import goes through the gateway instead.
    const port = targets.config.current.gateway.port;
    if (options.apply && (await somethingListens(port))) {
      throw new CliError(
        `import ${source}: a Hearth gateway is running on 127.0.0.1:${port}; importing beside it would be lost. ` +
          `Stop it, or import through it: the onboarding card's Import button, or ` +
          `hearth gateway call import.apply --params '{"source":"${source}"}'`,
      );
    }
    const plan = await planImport(inventory, targets);
    const report = options.apply ? await plan.apply() : plan.report;
    if (store.warning && options.apply) context.stderr(`warning: ${store.warning}\n`);
    context.stdout(options.json ? `${JSON.stringify(report, null, 2)}\n` : formatImportReport(report));
    if (report.counts.failed > 0) context.exitCode = 1;
  } finally {
    await targets.close();
  }
}

/** Whether something accepts connections on the loopback port (refused at once when nothing does). */
function somethingListens(port: number): Promise<boolean> {
  if (port === 0) return Promise.resolve(false);
  return new Promise((done) => {
    const socket = connect({ host: '127.0.0.1', port });
    socket.once('connect', () => {
      socket.destroy();
      done(true);
    });
    socket.once('error', () => done(false));
  });
}
