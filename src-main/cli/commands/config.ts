import { readFile } from 'node:fs/promises';
import type { Command } from 'commander';
import { silentLogger } from '../../base/logger.js';
import { redactValue } from '../../base/secret-redaction.js';
import { ConfigValidationError, formatProblems } from '../../config/index.js';
import { type HearthConfigService, openHearthConfig, validateHearthConfigText } from '../../host/hearth-config.js';
import { type CliContext, CliError } from '../cli-context.js';

function getPath(value: unknown, path: string): unknown {
  if (!path) return value;
  // Walks the file as parsed: only own keys of objects, so no cast is needed to read a field.
  return path
    .split('.')
    .reduce<unknown>(
      (node, key) =>
        node !== null && typeof node === 'object' ? Object.getOwnPropertyDescriptor(node, key)?.value : undefined,
      value,
    );
}

function buildPatch(path: string, value: unknown): Record<string, unknown> {
  const keys = path.split('.');
  if (keys.some((k) => k === ''))
    throw new CliError(`invalid config path "${path}": use dotted keys like gateway.port`);
  const last = keys.at(-1) ?? '';
  return keys.slice(0, -1).reduceRight<Record<string, unknown>>((inner, key) => ({ [key]: inner }), { [last]: value });
}

async function openConfig(context: CliContext): Promise<HearthConfigService> {
  try {
    return await openHearthConfig({
      path: context.paths().configFile,
      clock: context.clock,
      log: silentLogger,
      watch: false,
    });
  } catch (error) {
    if (error instanceof ConfigValidationError)
      throw new CliError(`${context.paths().configFile} is invalid:\n${formatProblems(error.errors)}`);
    throw error;
  }
}

export function registerConfigCommands(program: Command, context: CliContext): void {
  const config = program.command('config').description('read, change and check hearth.json');

  config
    .command('get [path]')
    .description('print the config (or one dotted path), secrets redacted')
    .action(async (path: string | undefined) => {
      const service = await openConfig(context);
      try {
        const value = getPath(redactValue(path ? service.current : service.snapshot().parsed), path ?? '');
        if (value === undefined) throw new CliError(`no value at "${path}"`);
        context.stdout(`${JSON.stringify(value, null, 2)}\n`);
      } finally {
        service.dispose();
      }
    });

  config
    .command('set <path> <value>')
    .description('set a dotted path to a JSON value (strings may be bare); validated, atomic, keeps a .bak')
    .action(async (path: string, raw: string) => {
      let value: unknown;
      try {
        value = JSON.parse(raw);
      } catch {
        value = raw;
      }
      const service = await openConfig(context);
      try {
        await service.patch(buildPatch(path, value));
        context.stdout(`set ${path}\n`);
      } catch (error) {
        if (error instanceof ConfigValidationError) throw new CliError(`not changed: ${formatProblems(error.errors)}`);
        throw error;
      } finally {
        service.dispose();
      }
    });

  config
    .command('validate [file]')
    .description('check hearth.json (or another file) against the schema')
    .action(async (file: string | undefined) => {
      const target = file ?? context.paths().configFile;
      let text: string;
      try {
        text = await readFile(target, 'utf8');
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') {
          if (file) throw new CliError(`${target} does not exist`);
          context.stdout(`${target} does not exist; the defaults are in use (valid)\n`);
          return;
        }
        throw error;
      }
      const result = validateHearthConfigText(text);
      if (!result.ok) throw new CliError(`${target} is invalid:\n${formatProblems(result.errors)}`);
      context.stdout(`${target} is valid\n`);
    });
}
