import { accessSync, statSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import type { Command } from 'commander';
import { systemClock } from '../../base/clock.js';
import {
  type CommandChecker,
  createFsExecutableCheck,
  createPathResolver,
  defaultExecPolicy,
  type ExecPolicy,
  loadCommandChecker,
  loadPolicyFile,
  PermissionStore,
} from '../../exec/index.js';
import { type CliContext, CliError } from '../cli-context.js';

interface CheckOptions {
  policy?: string;
  json?: boolean;
  batch?: string;
  cwd?: string;
  agent: string;
}

/** `hearth exec …`: `exec check` runs the same analysis and policy as the exec tool, without running anything. */
export function registerExecCommands(program: Command, context: CliContext): void {
  const exec = program.command('exec').description('Shell command policy');
  exec
    .command('check')
    .description('Decide allow/ask/deny for a command (or a JSONL batch) without running it')
    .option('--policy <policy.json>', 'policy file {security, ask, askFallback, allowlist}')
    .option('--json', 'print JSON')
    .option('--batch <cases.jsonl>', 'one {"id","command"} per line ("-" reads stdin)')
    .option('--cwd <dir>', 'working folder the command would run in')
    .option('--agent <id>', 'agent whose saved "allow always" entries apply without --policy', 'main')
    .argument('[command...]', 'the command string (after --)')
    .action(async (words: string[], options: CheckOptions) => {
      await runCheck(context, words, options);
    });
}

async function runCheck(context: CliContext, words: string[], options: CheckOptions): Promise<void> {
  const policy = await resolvePolicy(context, options);
  const checker = await loadCommandChecker(
    createPathResolver({
      path: context.env.PATH ?? '',
      isExecutable: createFsExecutableCheck({ accessSync, statSync }),
    }),
  );
  const where = { cwd: options.cwd ?? context.env.PWD ?? process.cwd(), home: context.env.HOME };
  if (options.batch !== undefined) {
    if (words.length > 0) throw new CliError('exec check: give either --batch or a command, not both');
    await runBatch(context, checker, policy, where, options.batch);
    return;
  }
  const command = words.join(' ');
  if (command.trim() === '') throw new CliError('exec check: no command given (usage: hearth exec check -- <command>)');
  const result = checker.check(command, policy, where);
  if (options.json) {
    context.stdout(`${JSON.stringify({ decision: result.decision, reasons: result.reasons })}\n`);
    return;
  }
  context.stdout(`${result.decision}\n`);
  for (const reason of result.reasons) context.stdout(`  ${reason.code}: ${reason.detail}\n`);
}

async function runBatch(
  context: CliContext,
  checker: CommandChecker,
  policy: ExecPolicy,
  where: { cwd: string; home?: string },
  source: string,
): Promise<void> {
  let text: string;
  try {
    text = source === '-' ? await context.readStdin() : await readFile(source, 'utf8');
  } catch {
    throw new CliError(`cannot read batch file ${source}`);
  }
  const out: string[] = [];
  const lines = text.split('\n');
  lines.forEach((line, index) => {
    if (line.trim() === '') return;
    const testCase = parseCase(line, source, index + 1);
    const result = checker.check(testCase.command, policy, where);
    out.push(JSON.stringify({ id: testCase.id, decision: result.decision, reasons: result.reasons }));
  });
  if (out.length > 0) context.stdout(`${out.join('\n')}\n`);
}

function parseCase(line: string, source: string, lineNumber: number): { id: unknown; command: string } {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    throw new CliError(`${source} line ${lineNumber}: not valid JSON`);
  }
  if (!value || typeof value !== 'object' || !('command' in value) || typeof value.command !== 'string')
    throw new CliError(`${source} line ${lineNumber}: expected {"id", "command": string}`);
  return { id: (value as { id?: unknown }).id ?? null, command: value.command };
}

async function resolvePolicy(context: CliContext, options: CheckOptions): Promise<ExecPolicy> {
  if (options.policy !== undefined) {
    try {
      return await loadPolicyFile(options.policy);
    } catch (error) {
      throw new CliError((error as Error).message);
    }
  }
  // Without a file: the defaults plus what this agent was allowed "always".
  try {
    const store = await PermissionStore.open(context.paths().stateDir, systemClock);
    return { ...defaultExecPolicy, allowlist: store.execEntries(options.agent) };
  } catch (error) {
    throw new CliError((error as Error).message);
  }
}
