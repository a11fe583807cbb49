import { join } from 'node:path';
import type { Command } from 'commander';
import { silentLogger } from '../../base/logger.js';
import { ConfigValidationError, formatProblems } from '../../config/index.js';
import { openHearthConfig } from '../../host/hearth-config.js';
import {
  DEFAULT_MODEL,
  embedderMergePatch,
  LocalModels,
  type MemoryConfig,
  modelCatalogue,
} from '../../memory/index.js';
import type { MemoryModelStatus } from '../../protocol/methods/memory.js';
import { type CliContext, CliError } from '../cli-context.js';

export interface ModelCommandDeps {
  /** `memory` of hearth.json, as the gateway reads it. */
  settings(): Promise<MemoryConfig>;
  /** Re-embeds an agent's memory with the embedder now configured; resolves with the files done. */
  reembed(agent: string): Promise<number>;
}

/** `hearth memory model list | install [name]`: the local embedding models. */
export function registerModelCommands(memory: Command, context: CliContext, deps: ModelCommandDeps): void {
  const model = memory.command('model').description('Local embedding models for search by meaning');

  const localModels = async () => {
    const config = await deps.settings();
    const paths = context.paths();
    return new LocalModels({
      modelsDir: join(paths.home, 'models'),
      catalogue: modelCatalogue(config.models),
      fetch: globalThis.fetch,
      now: () => context.clock.now(),
      currentEmbedder: () => config.embedder,
      switchEmbedder: async (embedder) => {
        const service = await openHearthConfig({
          path: paths.configFile,
          clock: context.clock,
          log: silentLogger,
          watch: false,
        });
        try {
          await service.patch({ memory: { embedder: embedderMergePatch(embedder) } });
        } catch (error) {
          if (error instanceof ConfigValidationError)
            throw new Error(`memory.embedder not changed: ${formatProblems(error.errors)}`);
          throw error;
        } finally {
          service.dispose();
        }
      },
      log: silentLogger,
    });
  };

  model
    .command('list')
    .description('The models there are, which are installed, and which one memory uses')
    .action(async () => {
      const models = await (await localModels()).list();
      for (const entry of models) {
        const mark = entry.active ? 'active' : entry.installed ? 'installed' : entry.partialBytes ? 'partial' : '-';
        const size = entry.size ? ` ${megabytes(entry.size)}` : '';
        context.stdout(`${entry.name.padEnd(40)} ${mark.padEnd(9)}${size}  ${entry.description}\n`);
      }
    });

  model
    .command('install [name]')
    .description(`Download, verify and switch memory to a model (default ${DEFAULT_MODEL}); re-embeds the notes`)
    .option('--agent <id>', 'agent whose notes are re-embedded now', 'main')
    .option('--no-activate', 'install only; leave memory.embedder as it is')
    .option('--no-reembed', 'switch without re-embedding now (the gateway re-embeds when it next opens memory)')
    .action(async (name: string | undefined, opts: { agent: string; activate: boolean; reembed: boolean }) => {
      const local = await localModels();
      const wanted = name ?? DEFAULT_MODEL;
      const reporting = local.onDidChange(progressReporter(context));
      let outcome: MemoryModelStatus;
      try {
        outcome = await local.install(wanted, { activate: opts.activate });
      } catch (error) {
        throw new CliError((error as Error).message);
      } finally {
        // The download is over: its progress has nothing more to say (and the CLI may run in-process).
        reporting.dispose();
      }
      context.stdout(`installed ${wanted} in ${outcome.dir}\n`);
      if (!opts.activate) return;
      context.stdout(`memory.embedder now uses ${wanted}\n`);
      if (!opts.reembed) return;
      const files = await deps.reembed(opts.agent);
      context.stdout(`re-embedded ${files} files of ${opts.agent}\n`);
    });
}

/** Progress on stderr (stdout stays the summary): each file as it starts, then every tenth. */
function progressReporter(context: CliContext): (status: MemoryModelStatus) => void {
  let lastFile: string | undefined;
  let lastTenth = -1;
  return (status) => {
    if (status.state !== 'downloading' || !status.file) return;
    const tenth = status.total ? Math.floor(((status.received ?? 0) / status.total) * 10) : -1;
    if (status.file === lastFile && tenth === lastTenth) return;
    lastFile = status.file;
    lastTenth = tenth;
    const of = status.total ? `/${megabytes(status.total)} (${tenth * 10}%)` : '';
    context.stderr(`downloading ${status.name}: ${status.file} ${megabytes(status.received ?? 0)}${of}\n`);
  };
}

function megabytes(bytes: number): string {
  return `${(bytes / 1_000_000).toFixed(1)} MB`;
}
