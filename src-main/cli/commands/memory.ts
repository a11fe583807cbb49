import type { Command } from 'commander';
import { silentLogger } from '../../base/logger.js';
import { openHearthConfig } from '../../host/hearth-config.js';
import { resolveMemoryBackend } from '../../host/memory-backend-slot.js';
import { ingestRecentTranscripts } from '../../host/recent-transcripts.js';
import { accountOfSession } from '../../host/session-person.js';
import {
  agentScope,
  createEmbedder,
  type DreamIngestProgress,
  type DreamRunView,
  type IndexProgress,
  type MemoryBackend,
  type MemoryConfig,
  type MemoryScope,
  MemoryService,
  parseMemoryConfig,
  requireEmbedderSecret,
  resolveScope,
} from '../../memory/index.js';
import { configuredWorkspace, createHearthPaths, type HearthPaths } from '../../paths/index.js';
import {
  bundledPluginsDir,
  type InstalledPlugins,
  loadInstalledPlugins,
  type PluginsConfig,
} from '../../plugins/index.js';
import { openSecretStore, type SecretStore } from '../../secrets/index.js';
import { createSessionStore } from '../../sessions/index.js';
import { type CliContext, CliError } from '../cli-context.js';
import { registerModelCommands } from './memory-model.js';

/** The `memory`, `plugins` and agent workspaces of HEARTH_HOME/hearth.json: the CLI reads them as the gateway does. */
async function settingsFromFile(
  context: CliContext,
): Promise<{ memory: MemoryConfig; plugins: PluginsConfig; paths: HearthPaths }> {
  try {
    const service = await openHearthConfig({
      path: context.paths().configFile,
      clock: context.clock,
      log: silentLogger,
      watch: false,
    });
    const { memory, plugins, agents } = service.current;
    service.dispose();
    const paths = createHearthPaths(context.paths().home, {
      workspaceOf: (agentId) => configuredWorkspace(agents, agentId),
    });
    return { memory: parseMemoryConfig(memory), plugins, paths };
  } catch (error) {
    throw new CliError(`cannot read the memory settings: ${(error as Error).message}`);
  }
}

/** The backend in `plugins.slots.memory`, from the same plugins and through the same choice as the gateway. */
async function memoryBackendFor(context: CliContext, plugins: PluginsConfig): Promise<MemoryBackend> {
  const paths = context.paths();
  let backend: MemoryBackend | undefined;
  let installed: InstalledPlugins | undefined;
  try {
    installed = await loadInstalledPlugins({
      bundledDir: bundledPluginsDir(),
      userExtensionsDir: paths.userExtensionsDir,
      config: () => plugins,
      home: paths.home,
      log: silentLogger,
      uid: process.getuid?.(),
    });
    backend = await resolveMemoryBackend({
      plugins: installed.registry,
      slots: plugins.slots,
      pluginContext: installed.contextFor,
      log: silentLogger,
      report: installed.report,
    });
  } catch (error) {
    throw new CliError(error instanceof Error ? error.message : String(error));
  } finally {
    // The backend is created: the command needs none of the other plugins' registrations.
    installed?.registry.dispose();
  }
  if (!backend) throw new CliError('memory is off (plugins.slots.memory is "none")');
  return backend;
}

/**
 * Reads an embedder's API key from the gateway's secret store. The store is opened only when
 * the embedder names a secret: probing the OS keychain is not free, and most setups need none.
 */
function secretResolver(context: CliContext): (name: string) => Promise<string> {
  return async (name) => {
    let store: SecretStore;
    try {
      ({ store } = await openSecretStore({ paths: context.paths(), log: silentLogger, env: context.env }));
    } catch (error) {
      throw new CliError(`cannot open the secret store for memory.embedder.apiKeySecret: ${(error as Error).message}`);
    }
    return requireEmbedderSecret(store)(name);
  };
}

const PHASE_DONE: Record<DreamRunView['phases'][number]['name'], (count: number) => string> = {
  ingest: (n) => `read ${n} recent conversation${n === 1 ? '' : 's'} into today's notes`,
  light: (n) => `read ${n} daily note file${n === 1 ? '' : 's'}`,
  rem: (n) => `weighed ${n} recalled note${n === 1 ? '' : 's'}`,
  deep: (n) => `checked ${n} candidate${n === 1 ? '' : 's'}`,
  write: (n) => `wrote ${n} file${n === 1 ? '' : 's'}`,
};

/** A Dreaming run's phases on stderr as each ends (stdout stays the run's result). */
function dreamReporter(context: CliContext): (run: DreamRunView) => void {
  const said = new Map<string, string>();
  return (run) => {
    for (const phase of run.phases) {
      if (phase.state === 'waiting' || phase.state === 'running' || said.get(phase.name) === phase.state) continue;
      said.set(phase.name, phase.state);
      const what =
        phase.state === 'done'
          ? PHASE_DONE[phase.name](phase.total ?? 0)
          : phase.state === 'skipped'
            ? 'nothing to do'
            : `failed: ${phase.error}`;
      context.stderr(`dreaming ${phase.name}: ${what}\n`);
    }
  };
}

/** `hearth memory …`: status, index, search, promote, promote-explain, model. */
export function registerMemoryCommands(program: Command, context: CliContext): void {
  const memory = program.command('memory').description('Inspect and maintain the agent memory');

  const withService = async <T>(
    agent: string,
    run: (service: MemoryService, paths: HearthPaths) => Promise<T>,
    options: {
      onProgress?(progress: IndexProgress): void;
      onDreamProgress?(run: DreamRunView): void;
      syncOnOpen?: boolean;
      /** Dreaming's ingest phase: the agent's conversations of the last day filed first, like the nightly run. */
      ingest?: boolean;
    } = {},
  ): Promise<T> => {
    if (!/^[a-z0-9][a-z0-9_-]{0,63}$/i.test(agent)) throw new CliError(`invalid --agent: ${agent}`);
    const settings = await settingsFromFile(context);
    const backend = await memoryBackendFor(context, settings.plugins);
    const config = settings.memory;
    const service: MemoryService = new MemoryService({
      paths: settings.paths,
      backend,
      config,
      embedder: () => createEmbedder(config.embedder, { resolveSecret: secretResolver(context) }),
      clock: context.clock,
      log: silentLogger,
      onProgress: (_agentId, progress) => options.onProgress?.(progress),
      onDreamProgress: (_agentId, _scope, run) => options.onDreamProgress?.(run),
      syncOnOpen: options.syncOnOpen,
      ...(options.ingest
        ? {
            ingest: (agentId: string, scope: MemoryScope, progress: DreamIngestProgress): Promise<void> =>
              ingestRecentTranscripts(
                {
                  sessions: createSessionStore({ paths: settings.paths, clock: context.clock, log: silentLogger }),
                  memory: service,
                  clock: context.clock,
                  accountOf: accountOfSession,
                },
                agentId,
                { scope, progress },
              ),
          }
        : {}),
    });
    try {
      const engine = await service.engine(agent);
      await engine.idle();
      return await run(service, settings.paths);
    } catch (error) {
      if (error instanceof CliError) throw error;
      throw new CliError(error instanceof Error ? error.message : String(error));
    } finally {
      await service.close();
    }
  };

  registerModelCommands(memory, context, {
    settings: async () => (await settingsFromFile(context)).memory,
    reembed: (agent) =>
      withService(
        agent,
        async (service) => {
          const engine = await service.engine(agent);
          await engine.sync();
          return (await engine.status()).files;
        },
        { onProgress: progressReporter(context, agent), syncOnOpen: false },
      ),
  });

  // The agent's own scope, or in per-user mode the named user's (never a silent fall-back).
  const scopeOf = (config: MemoryConfig, opts: { agent: string; user?: string }) => {
    if (config.scope === 'per-agent') return agentScope(opts.agent);
    if (!opts.user) throw new CliError('memory.scope is per-user: pass --user <account>');
    return resolveScope(opts.agent, config, opts.user);
  };

  memory
    .command('status')
    .description('Index and Dreaming status')
    .option('--agent <id>', 'agent id', 'main')
    .option('--user <account>', 'with memory.scope per-user: whose memory')
    .option('--deep', 'also list indexing issues and promotion candidates')
    .action(async (opts: { agent: string; user?: string; deep?: boolean }) => {
      await withService(opts.agent, async (service) => {
        const engine = await service.engine(opts.agent);
        const status = await engine.status();
        context.stdout(
          `agent ${status.agentId}: ${status.files} files, ${status.chunks} chunks, backend ${status.backend}, embedder ${status.embedder.id} (${status.embedder.dimension} dims)\n`,
        );
        if (status.recovered) context.stdout(`recovered: ${status.recovered}\n`);
        const { dreaming } = service.config;
        context.stdout(
          `dreaming: ${dreaming.enabled ? `on (${dreaming.cron})` : 'off'}${dreaming.review ? ', review mode' : ''}\n`,
        );
        // What waits for the person is worth saying even without --deep (per-user: only with --user).
        if (service.config.scope === 'per-agent' || opts.user) {
          const waiting = (await service.pending(opts.agent, scopeOf(service.config, opts))).length;
          if (waiting > 0) context.stdout(`waiting for review: ${waiting} (hearth memory promote to see them)\n`);
          // A run going now, or one that hangs: what it is doing, or how to end it.
          const run = await service.dreamRun(opts.agent, scopeOf(service.config, opts));
          if (run?.state === 'running')
            context.stdout(
              `dreaming now: ${run.phases.find((p) => p.state === 'running')?.name ?? 'starting'} (run ${run.id})\n`,
            );
          if (run?.state === 'stalled')
            context.stdout(
              `dreaming stalled: run ${run.id} (pid ${run.pid}) has not progressed since ${new Date(run.updatedAt ?? run.startedAt).toISOString()}; end it with hearth memory clear-stalled ${run.id}\n`,
            );
        }
        if (!opts.deep) return;
        for (const issue of status.issues) context.stdout(`issue: ${issue.path}:${issue.line} ${issue.reason}\n`);
        const summary = await service.candidates(opts.agent, scopeOf(service.config, opts));
        context.stdout(
          `candidates: ${summary.candidates.length} (${summary.candidates.filter((c) => c.failures.length === 0).length} pass the gates)\n`,
        );
      });
    });

  memory
    .command('index')
    .description("Index the agent workspace (every user's folder too) and exit when done")
    .option('--agent <id>', 'agent id', 'main')
    .option('--force', 're-embed every file')
    .action(async (opts: { agent: string; force?: boolean }) => {
      await withService(
        opts.agent,
        async (service) => {
          const engine = await service.engine(opts.agent);
          const report = await engine.sync({ force: opts.force });
          const status = await engine.status();
          context.stdout(
            `indexed ${status.files} files (${report.indexed} updated, ${report.removed} removed), ${status.chunks} chunks\n`,
          );
          for (const issue of status.issues) context.stdout(`issue: ${issue.path}:${issue.line} ${issue.reason}\n`);
        },
        // One run, the one asked for: its progress and its counts are what is reported.
        { onProgress: progressReporter(context, opts.agent), syncOnOpen: false },
      );
    });

  memory
    .command('search <query>')
    .description('Hybrid search over memory')
    .option('--agent <id>', 'agent id', 'main')
    .option('--user <account>', 'with memory.scope per-user: whose memory')
    .option('--k <n>', 'number of results', '6')
    .option('--json', 'print {"results":[…]}')
    .action(async (query: string, opts: { agent: string; user?: string; k: string; json?: boolean }) => {
      const k = Number(opts.k);
      if (!Number.isInteger(k) || k < 1 || k > 100)
        throw new CliError(`--k must be an integer from 1 to 100, got ${opts.k}`);
      await withService(opts.agent, async (service) => {
        const engine = await service.engine(opts.agent);
        const results = await engine.search(query, { scope: scopeOf(service.config, opts), k, record: false });
        if (opts.json) {
          const out = results.map(({ path, startLine, endLine, score, snippet }) => ({
            path,
            startLine,
            endLine,
            score,
            snippet,
          }));
          context.stdout(`${JSON.stringify({ results: out })}\n`);
          return;
        }
        if (results.length === 0) context.stdout('no results\n');
        for (const result of results)
          context.stdout(
            `${result.score.toFixed(3)}  ${result.path}:${result.startLine}-${result.endLine}  ${result.snippet.replace(/\s+/g, ' ').slice(0, 120)}\n`,
          );
      });
    });

  memory
    .command('promote')
    .description(
      'Run Dreaming now: a preview, or in review mode (memory.dreaming.review) the candidates queued with ids; --apply promotes at once',
    )
    .option('--agent <id>', 'agent id', 'main')
    .option('--user <account>', 'with memory.scope per-user: whose memory')
    .option('--apply', 'append the passing notes to MEMORY.md now (auto-apply)')
    .option('--review', 'queue the passing notes for approval, as review mode does')
    .option('--approve <ids...>', 'append these waiting candidates to MEMORY.md')
    .option('--reject <ids...>', 'drop these waiting candidates (never proposed again)')
    .action(
      async (opts: {
        agent: string;
        user?: string;
        apply?: boolean;
        review?: boolean;
        approve?: string[];
        reject?: string[];
      }) => {
        const deciding = Boolean(opts.approve?.length || opts.reject?.length);
        if (deciding && (opts.apply || opts.review))
          throw new CliError(
            '--approve/--reject decide on waiting candidates; they do not combine with --apply or --review',
          );
        if (opts.apply && opts.review) throw new CliError('--apply and --review are two different runs: pick one');
        await withService(
          opts.agent,
          async (service) => {
            const scope = scopeOf(service.config, opts);
            if (deciding) {
              const outcome = await service.review(opts.agent, scope, { approve: opts.approve, reject: opts.reject });
              for (const item of outcome.approved) context.stdout(`approved ${item.id}: ${item.text}\n`);
              for (const item of outcome.rejected) context.stdout(`rejected ${item.id}: ${item.text}\n`);
              for (const item of outcome.refused) context.stdout(`not approved ${item.id}: ${item.reason}\n`);
              if (outcome.rebased && outcome.approved.length > 0)
                context.stdout('MEMORY.md had changed since; the notes were appended after your edits\n');
              return;
            }
            const mode = opts.apply ? 'apply' : opts.review || service.config.dreaming.review ? 'review' : 'preview';
            const summary = await service.dream(opts.agent, scope, mode, { origin: 'cli' });
            const passing = summary.candidates.filter(
              (candidate) => candidate.failures.length === 0 && !candidate.withdrawn,
            );
            const note = {
              preview: ' (preview; --apply to write MEMORY.md)',
              review: ' (review; --approve ID or --reject ID)',
              apply: '',
            }[mode];
            context.stdout(`${summary.candidates.length} candidates, ${passing.length} pass the gates${note}\n`);
            for (const candidate of summary.candidates)
              context.stdout(
                `${candidate.signals.score.toFixed(3)}  ${candidate.text}${candidate.failures.length ? `  [held: ${candidate.failures.join(', ')}]` : ''}\n`,
              );
            if (mode === 'apply') context.stdout(`promoted ${summary.promoted.length}\n`);
            const pending = await service.pending(opts.agent, scope);
            if (pending.length === 0) return;
            context.stdout(`waiting for review: ${pending.length}\n`);
            for (const item of pending) {
              context.stdout(
                `\n${item.id}  ${item.text}  (${item.path}:${item.line}, score ${item.score.toFixed(3)})${item.rebased ? '  [MEMORY.md changed since; diff re-based]' : ''}\n`,
              );
              context.stdout(`${item.diff}\n`);
            }
          },
          { onDreamProgress: dreamReporter(context), ingest: true },
        );
      },
    );

  memory
    .command('clear-stalled <runId>')
    .description(
      'End a stalled Dreaming run (its process alive but no progress for 5 min) and free its lock; a run that still progresses is refused',
    )
    .option('--agent <id>', 'agent id', 'main')
    .option('--user <account>', 'with memory.scope per-user: whose memory')
    .action(async (runId: string, opts: { agent: string; user?: string }) => {
      await withService(opts.agent, async (service) => {
        const run = await service.clearStalledDream(opts.agent, scopeOf(service.config, opts), runId);
        context.stdout(`cleared run ${run.id}: ${run.error}\n`);
      });
    });

  memory
    .command('promote-explain <text>')
    .description('Why a note would or would not be promoted, signal by signal')
    .option('--agent <id>', 'agent id', 'main')
    .option('--user <account>', 'with memory.scope per-user: whose memory')
    .action(async (text: string, opts: { agent: string; user?: string }) => {
      await withService(opts.agent, async (service) => {
        for (const line of await service.explain(opts.agent, scopeOf(service.config, opts), text))
          context.stdout(`${line}\n`);
      });
    });
}

/**
 * A long (re-)index says how far it is, on stderr so stdout stays the summary: a line per tenth
 * of the files, only when there are enough files for it to take a while.
 */
function progressReporter(context: CliContext, agent: string): (progress: IndexProgress) => void {
  let lastTenth = -1;
  return (progress) => {
    if (progress.total < 20) return;
    const tenth = Math.floor((progress.done / progress.total) * 10);
    if (tenth === lastTenth) return;
    lastTenth = tenth;
    const verb = progress.phase === 'reembed' ? 're-embedding' : 'indexing';
    context.stderr(`${verb} ${agent}: ${progress.done}/${progress.total} files\n`);
  };
}
