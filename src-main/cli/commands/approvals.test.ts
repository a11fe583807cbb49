import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Command } from 'commander';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { systemClock } from '../../base/clock.js';
import { type ApprovalHistoryEntry, approvalsHistoryPath, createApprovalHistory } from '../../exec/index.js';
import { type CliContext, CliError, createCliContext } from '../cli-context.js';
import { registerApprovalsCommands } from './approvals.js';

let home: string;
let out: string[];
let context: CliContext;

beforeEach(async () => {
  home = await mkdtemp(join(tmpdir(), 'hearth-approvals-cli-'));
  out = [];
  context = createCliContext({
    env: { HEARTH_HOME: home },
    clock: systemClock,
    stdout: (text) => out.push(text),
    stderr: () => undefined,
    readStdin: async () => '',
  });
});
afterEach(async () => {
  await rm(home, { recursive: true, force: true, maxRetries: 5, retryDelay: 50 });
});

async function run(...args: string[]): Promise<string> {
  const program = new Command().exitOverride();
  registerApprovalsCommands(program, context);
  await program.parseAsync(['node', 'hearth', ...args]);
  return out.join('');
}

let seq = 0;
const decision = (
  command: string,
  programs: [string, ...string[]][],
  verdict: ApprovalHistoryEntry['decision'],
  resolvedBy = 'operator:ui',
): ApprovalHistoryEntry => ({
  id: `ap-${++seq}`,
  agentId: 'main',
  sessionKey: 's',
  command,
  programs: programs.map(([name, ...args]) => ({ name, args })),
  decision: verdict,
  resolvedBy,
  requestedAtMs: 1,
  decidedAtMs: 2,
});

describe('hearth approvals suggest', () => {
  it('proposes programs people keep allowing, narrowed where they also denied', async () => {
    const history = createApprovalHistory(approvalsHistoryPath(join(home, 'state')));
    for (const entry of [
      decision('make build', [['make', 'build']], 'allow-once'),
      decision('make test', [['make', 'test']], 'allow-once'),
      decision('make', [['make']], 'allow-once'),
      decision('npm test', [['npm', 'test']], 'allow-once'),
      decision('npm test -- --watch', [['npm', 'test', '--', '--watch']], 'allow-once'),
      decision('npm test', [['npm', 'test']], 'allow-once'),
      decision('npm publish', [['npm', 'publish']], 'deny'),
      decision('curl x', [['curl', 'x']], 'allow-once', 'expiry'),
      decision('curl x', [['curl', 'x']], 'allow-once', 'expiry'),
      decision('curl x', [['curl', 'x']], 'allow-once', 'expiry'),
    ])
      await history.append(entry);
    const lines = (await run('approvals', 'suggest', '--json'))
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    expect(lines.map((line) => line.entry)).toEqual([
      { pattern: 'make' },
      { pattern: 'npm', argPattern: '^test( |$)' },
    ]);
    expect(lines[0].approvals).toBe(3);
  });

  it('says so when there is nothing to suggest', async () => {
    expect(await run('approvals', 'suggest')).toBe('no suggestions yet (0 decisions recorded)\n');
  });

  it('rejects a bad --min', async () => {
    const error = await run('approvals', 'suggest', '--min', 'zero').catch((caught) => caught);
    expect(error).toBeInstanceOf(CliError);
    expect(error.message).toBe('--min must be a positive whole number, got "zero"');
  });
});

describe('hearth approvals resolve', () => {
  it('rejects an unknown decision before contacting the gateway', async () => {
    const error = await run('approvals', 'resolve', 'ap-1', 'maybe').catch((caught) => caught);
    expect(error).toBeInstanceOf(CliError);
    expect(error.message).toMatch(/unknown decision "maybe"/);
  });

  it('says the gateway is unreachable in one line', async () => {
    const error = await run('approvals', 'list', '--url', 'ws://127.0.0.1:9', '--token', 't').catch((caught) => caught);
    expect(error).toBeInstanceOf(CliError);
    expect(error.message).toMatch(/cannot reach the gateway at ws:\/\/127\.0\.0\.1:9/);
  });
});
