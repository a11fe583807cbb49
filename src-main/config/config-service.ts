import { createHash } from 'node:crypto';
import { type FSWatcher, watch } from 'node:fs';
import { copyFile, readFile } from 'node:fs/promises';
import { basename, dirname } from 'node:path';
import type { z } from 'zod';
import type { Clock } from '../base/clock.js';
import type { Disposable } from '../base/disposable.js';
import { Emitter } from '../base/emitter.js';
import type { Logger } from '../base/logger.js';
import { writeFileAtomic } from '../fs/atomic-write.js';
import { applyMergePatch, changedPaths, prefixMatches } from './config-diff.js';
import { type ConfigProblem, validateConfigText, validateConfigValue } from './config-validation.js';

export interface ConfigChange<C> {
  config: C;
  changedPaths: string[];
  hash: string;
}

export interface ConfigSnapshot {
  path: string;
  exists: boolean;
  raw: string;
  parsed: unknown;
  hash: string;
  valid: boolean;
  errors?: ConfigProblem[];
}

export class ConfigValidationError extends Error {
  constructor(readonly errors: ConfigProblem[]) {
    super(`invalid config: ${errors.map((e) => (e.path ? `${e.path}: ${e.message}` : e.message)).join('; ')}`);
    this.name = 'ConfigValidationError';
  }
}

export class ConfigConflictError extends Error {
  constructor() {
    super('config changed since it was read (baseHash does not match); reload and try again');
    this.name = 'ConfigConflictError';
  }
}

function hashText(text: string): string {
  return createHash('sha256').update(text).digest('hex').slice(0, 16);
}

/**
 * hearth.json, validated, hot-reloaded. An invalid edit keeps the last good config and
 * reports the problem; subsystems subscribe to the prefixes they care about and only
 * they hear about a change. Writes are atomic and keep the previous file as `.bak`.
 * Which sections exist is the schema's business: the host passes the merge of every
 * capability's section (host/hearth-config.ts), so this module knows no capability.
 */
export class ConfigService<C> implements Disposable {
  private good: C;
  private goodParsed: unknown;
  private raw: string;
  private exists: boolean;
  private lastErrors: ConfigProblem[] | undefined;
  private watcher: FSWatcher | undefined;
  private debounce: Disposable | undefined;
  private readonly didChange = new Emitter<ConfigChange<C>>();
  private readonly didError = new Emitter<{ path: string; errors: ConfigProblem[] }>();
  /** Fires after any applied change (with every changed path). */
  readonly onDidChangeAny = this.didChange.event;
  readonly onDidError = this.didError.event;

  private constructor(
    readonly path: string,
    /** What the file must match; config.schema shows it to editors as JSON Schema. */
    readonly schema: z.ZodType<C>,
    private readonly clock: Clock,
    private readonly log: Logger,
    initial: { config: C; parsed: unknown; raw: string; exists: boolean; errors?: ConfigProblem[] },
  ) {
    this.good = initial.config;
    this.goodParsed = initial.parsed;
    this.raw = initial.raw;
    this.exists = initial.exists;
    this.lastErrors = initial.errors;
  }

  /**
   * Loads the file. A missing file means defaults. An invalid file at start-up is an
   * error the caller reports (there is no last good config to keep yet).
   */
  static async open<C>(options: {
    path: string;
    schema: z.ZodType<C>;
    clock: Clock;
    log: Logger;
    watch?: boolean;
  }): Promise<ConfigService<C>> {
    let raw = '';
    let exists = true;
    try {
      raw = await readFile(options.path, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
      exists = false;
    }
    const validation = validateConfigText(options.schema, raw);
    if (!validation.ok) throw new ConfigValidationError(validation.errors);
    const service = new ConfigService(options.path, options.schema, options.clock, options.log, {
      config: validation.config,
      parsed: validation.parsed,
      raw,
      exists,
    });
    if (options.watch !== false) service.startWatching();
    return service;
  }

  get current(): C {
    return this.good;
  }

  get hash(): string {
    return hashText(this.raw);
  }

  snapshot(): ConfigSnapshot {
    return {
      path: this.path,
      exists: this.exists,
      raw: this.raw,
      parsed: this.goodParsed,
      hash: this.hash,
      valid: this.lastErrors === undefined,
      errors: this.lastErrors,
    };
  }

  /** Calls `listener` only when a path under one of `prefixes` changed. */
  onDidChange(prefixes: readonly string[], listener: (change: ConfigChange<C>) => void): Disposable {
    return this.didChange.event((change) => {
      if (change.changedPaths.some((path) => prefixes.some((prefix) => prefixMatches(prefix, path)))) listener(change);
    });
  }

  /** Re-reads the file (the watcher calls this; tests may too). */
  async reload(): Promise<'applied' | 'unchanged' | 'invalid'> {
    let raw: string;
    try {
      raw = await readFile(this.path, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
      raw = '';
    }
    if (raw === this.raw && this.lastErrors === undefined) return 'unchanged';
    const validation = validateConfigText(this.schema, raw);
    if (!validation.ok) {
      this.lastErrors = validation.errors;
      this.log.error('hearth.json is invalid; keeping the last good config', { errors: validation.errors });
      this.didError.fire({ path: this.path, errors: validation.errors });
      return 'invalid';
    }
    this.apply(raw, validation.config, validation.parsed);
    return 'applied';
  }

  /** Replaces the whole file (config.set). */
  async setRaw(raw: string, baseHash?: string): Promise<{ hash: string; backupPath?: string; changedPaths: string[] }> {
    if (baseHash !== undefined && baseHash !== this.hash) throw new ConfigConflictError();
    const validation = validateConfigText(this.schema, raw);
    if (!validation.ok) throw new ConfigValidationError(validation.errors);
    return this.write(raw, validation.config, validation.parsed);
  }

  /** Applies a JSON merge patch to the current file (config.patch). */
  async patch(patch: Record<string, unknown>, baseHash?: string) {
    if (baseHash !== undefined && baseHash !== this.hash) throw new ConfigConflictError();
    const next = applyMergePatch(this.goodParsed ?? {}, patch);
    const validation = validateConfigValue(this.schema, next);
    if (!validation.ok) throw new ConfigValidationError(validation.errors);
    return this.write(`${JSON.stringify(next, null, 2)}\n`, validation.config, validation.parsed);
  }

  private async write(raw: string, config: C, parsed: unknown) {
    let backupPath: string | undefined;
    if (this.exists) {
      backupPath = `${this.path}.bak`;
      await copyFile(this.path, backupPath).catch((error) => {
        if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
        backupPath = undefined;
      });
    }
    await writeFileAtomic(this.path, raw, 0o600);
    const changed = this.apply(raw, config, parsed);
    return { hash: this.hash, backupPath, changedPaths: changed };
  }

  private apply(raw: string, config: C, parsed: unknown): string[] {
    const changed = changedPaths(this.good, config);
    this.raw = raw;
    this.exists = true;
    this.good = config;
    this.goodParsed = parsed;
    this.lastErrors = undefined;
    if (changed.length > 0) this.didChange.fire({ config, changedPaths: changed, hash: this.hash });
    return changed;
  }

  private startWatching(): void {
    // Watch the folder: atomic saves replace the file, which a file watch would lose.
    try {
      this.watcher = watch(dirname(this.path), (_event, name) => {
        if (name !== null && name !== basename(this.path)) return;
        this.debounce?.dispose();
        this.debounce = this.clock.setTimeout(() => {
          this.reload().catch((error) => this.log.error('config reload failed', { error: String(error) }));
        }, 100);
      });
      this.watcher.on('error', (error) => this.log.warn('config watcher stopped', { error: String(error) }));
    } catch (error) {
      this.log.warn('cannot watch the config folder; hot reload is off', { error: String(error) });
    }
  }

  dispose(): void {
    this.watcher?.close();
    this.debounce?.dispose();
    this.didChange.dispose();
    this.didError.dispose();
  }
}
