import { Emitter } from '../../base/emitter.js';
import type { Logger } from '../../base/logger.js';
import type { MemoryModelInfo, MemoryModelStatus } from '../../protocol/methods/memory.js';
import type { MemoryEmbedderConfig } from '../memory-config.js';
import { type CatalogueModel, findCatalogueModel, totalSize } from './model-catalogue.js';
import { ModelDownloadError } from './model-download.js';
import { embedderConfigFor, installModel, partialBytes, readInstalledModel } from './model-install.js';

export interface LocalModelsDeps {
  /** `HEARTH_HOME/models`. */
  modelsDir: string;
  catalogue: readonly CatalogueModel[];
  fetch: typeof globalThis.fetch;
  now(): number;
  /** The embedder memory runs with now (`memory.embedder`). */
  currentEmbedder(): MemoryEmbedderConfig;
  /** Makes an installed model the embedder (writes `memory.embedder`; memory then re-embeds). */
  switchEmbedder(config: MemoryEmbedderConfig): Promise<void>;
  log: Logger;
}

/**
 * The person's local embedding models: what the catalogue offers, what is installed, and one
 * install at a time (download → verify → switch `memory.embedder`). A failed install changes
 * nothing: memory keeps its embedder — the offline lexical engine by default — and the status
 * says so in words, with the parts kept for the next try to resume.
 */
export class LocalModels {
  private readonly didChange = new Emitter<MemoryModelStatus>();
  readonly onDidChange = this.didChange.event;
  private current: MemoryModelStatus = { state: 'idle' };
  private running: Promise<MemoryModelStatus> | undefined;
  private lastPublished = 0;

  constructor(private readonly deps: LocalModelsDeps) {}

  status(): MemoryModelStatus {
    return this.current;
  }

  async list(): Promise<MemoryModelInfo[]> {
    const active = this.activeDir();
    return Promise.all(
      this.deps.catalogue.map(async (model) => {
        const installed = await readInstalledModel(this.deps.modelsDir, model.name);
        const size = totalSize(model);
        const partial = installed ? 0 : await partialBytes(this.deps.modelsDir, model);
        return {
          name: model.name,
          description: model.description,
          languages: model.languages,
          ...(model.dimension ? { dimension: model.dimension } : {}),
          ...(size !== undefined ? { size } : {}),
          installed: Boolean(installed),
          active: Boolean(installed && active === installed.dir),
          ...(partial > 0 ? { partialBytes: partial } : {}),
        };
      }),
    );
  }

  /**
   * Starts installing `name` (and, with `activate`, switching memory to it); resolves at once
   * with the starting status. A second install while one runs is refused, naming the first.
   */
  start(name: string, options: { activate?: boolean } = {}): MemoryModelStatus {
    const model = findCatalogueModel(this.deps.catalogue, name);
    if (this.running) {
      const busy = this.current.name ?? 'a model';
      throw new Error(`already installing ${busy}; wait for it to finish`);
    }
    this.set({ state: 'downloading', name, received: 0, ...sizeOf(model) }, true);
    this.running = this.run(model, options.activate ?? true).finally(() => {
      this.running = undefined;
    });
    return this.current;
  }

  /** Installs and waits: what the CLI and tests use. Rejects with the person's message on failure. */
  async install(name: string, options: { activate?: boolean } = {}): Promise<MemoryModelStatus> {
    this.start(name, options);
    const outcome = await this.running!;
    if (outcome.state === 'failed') throw new Error(outcome.error);
    return outcome;
  }

  /** Resolves when no install is running (the outcome of the last one). */
  async idle(): Promise<MemoryModelStatus> {
    return (await this.running) ?? this.current;
  }

  private async run(model: CatalogueModel, activate: boolean): Promise<MemoryModelStatus> {
    try {
      const installed = await installModel(model, {
        modelsDir: this.deps.modelsDir,
        fetch: this.deps.fetch,
        now: this.deps.now,
        onProgress: (progress) =>
          this.set({
            state: progress.phase === 'verify' ? 'verifying' : 'downloading',
            name: model.name,
            file: progress.file,
            received: progress.received,
            ...(progress.total !== undefined ? { total: progress.total } : {}),
          }),
      });
      this.deps.log.info('embedding model installed', { model: model.name, activated: activate });
      const done: MemoryModelStatus = { state: 'installed', name: model.name, dir: installed.dir, activated: activate };
      if (!activate) return this.set(done, true);
      // Said before switching: the switch reopens memory (this object included) with the new embedder.
      this.set(done, true);
      await this.deps.switchEmbedder(embedderConfigFor(installed));
      return done;
    } catch (error) {
      const message = failureMessage(model.name, error, this.fallbackName());
      this.deps.log.warn('embedding model install failed', { model: model.name, error: message });
      return this.set(
        {
          state: 'failed',
          name: model.name,
          error: message,
          ...(error instanceof ModelDownloadError ? { failure: error.failure } : {}),
        },
        true,
      );
    }
  }

  /** In words, what memory keeps using when an install fails. */
  private fallbackName(): string {
    const embedder = this.deps.currentEmbedder();
    switch (embedder.kind) {
      case 'hashed':
        return 'the offline lexical engine';
      case 'onnx':
        return `the local model in ${embedder.modelDir}`;
      case 'provider':
        return `${embedder.provider}:${embedder.model}`;
    }
  }

  private activeDir(): string | undefined {
    const embedder = this.deps.currentEmbedder();
    return embedder.kind === 'onnx' ? embedder.modelDir : undefined;
  }

  /** Publishes state changes; byte progress at most every 1 % (a 100 MB file is ~thousands of chunks). */
  private set(next: MemoryModelStatus, always = false): MemoryModelStatus {
    this.current = next;
    const fraction = next.total ? (next.received ?? 0) / next.total : 0;
    const step = Math.floor(fraction * 100);
    if (always || next.state !== 'downloading' || step !== this.lastPublished) {
      this.lastPublished = step;
      this.didChange.fire(next);
    }
    return next;
  }

  dispose(): void {
    this.didChange.dispose();
  }
}

function sizeOf(model: CatalogueModel): { total?: number } {
  const total = totalSize(model);
  return total !== undefined ? { total } : {};
}

function failureMessage(name: string, error: unknown, fallback: string): string {
  const detail = error instanceof Error ? error.message : String(error);
  const keeps = `memory search keeps using ${fallback}`;
  if (error instanceof ModelDownloadError) {
    switch (error.failure) {
      case 'unreachable':
      case 'interrupted':
        return `could not download ${name}: ${detail}. You may be offline; ${keeps}, and the bytes fetched so far are kept for the next try`;
      case 'checksum':
        return `${name} was not installed: ${detail}. ${capitalise(keeps)}`;
      case 'http':
      case 'aborted':
        return `could not download ${name}: ${detail}; ${keeps}`;
    }
  }
  return `${name} was not installed: ${detail}; ${keeps}`;
}

function capitalise(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
