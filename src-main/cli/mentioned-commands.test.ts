import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { systemClock } from '../base/clock.js';
import { createCliContext } from './cli-context.js';
import { buildProgram } from './run-cli.js';

// A message that tells a person to run `hearth something` must name a command that exists:
// the sign-in page once pointed to a `hearth dashboard` nobody had built. This reads every
// user-facing text the project ships (the CLI and gateway sources, the renderer's strings, the
// README and docs/) and checks each `hearth <command> [<subcommand>]` against the real program.

const root = fileURLToPath(new URL('../..', import.meta.url));

function* textFiles(dir: string): Generator<string> {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) {
      if (entry.name === 'node_modules' || entry.name === 'testing') continue;
      yield* textFiles(path);
    } else if (/\.(ts|tsx|md)$/.test(entry.name) && !/\.(test|spec)\.tsx?$/.test(entry.name)) yield path;
  }
}

/** Places a person reads from: sources that print or render text, and the documentation. */
const sources = [
  ...['src-main', 'src-renderer', 'src-preload', 'extensions', 'docs'].flatMap((dir) => [
    ...textFiles(join(root, dir)),
  ]),
  join(root, 'README.md'),
];

/** `hearth memory promote` written in backticks, or inside a fenced shell line. */
const MENTION = /(?:`|^\s*(?:\$\s*)?)hearth ([a-z][a-z-]*)(?: ([a-z][a-z-]*))?/gm;

function mentions(): { where: string; words: [string, string | undefined] }[] {
  const found: { where: string; words: [string, string | undefined] }[] = [];
  for (const file of sources) {
    const text = readFileSync(file, 'utf8');
    for (const match of text.matchAll(MENTION)) {
      const line = text.slice(0, match.index).split('\n').length;
      found.push({ where: `${relative(root, file)}:${line}`, words: [match[1]!, match[2]] });
    }
  }
  return found;
}

function lookUp(program: Command, [name, sub]: [string, string | undefined]): string | undefined {
  const command = program.commands.find((c) => c.name() === name || c.aliases().includes(name));
  if (!command) return `no command "hearth ${name}"`;
  // A second word is a subcommand only when the command has subcommands (else it is an argument).
  if (
    sub &&
    command.commands.length > 0 &&
    !command.commands.some((c) => c.name() === sub || c.aliases().includes(sub))
  )
    return `no subcommand "hearth ${name} ${sub}" (it has: ${command.commands.map((c) => c.name()).join(', ')})`;
  return undefined;
}

describe('commands the product tells people to run', () => {
  it('all exist', async () => {
    const context = createCliContext({
      env: {},
      clock: systemClock,
      stdout: () => {},
      stderr: () => {},
      readStdin: async () => '',
    });
    const program = await buildProgram(context);
    const found = mentions();
    expect(found.length).toBeGreaterThan(50);
    const missing = found.flatMap(({ where, words }) => {
      const problem = lookUp(program, words);
      return problem ? [`${where}: ${problem}`] : [];
    });
    expect(missing).toEqual([]);
  });
});
