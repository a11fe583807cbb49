import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Command } from 'commander';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { systemClock } from '../../base/clock.js';
import { type CliContext, CliError, createCliContext } from '../cli-context.js';
import { registerExecCommands } from './exec.js';

let home: string;
let out: string[];
let context: CliContext;

beforeEach(async () => {
  home = await mkdtemp(join(tmpdir(), 'hearth-exec-cli-'));
  out = [];
  context = createCliContext({
    env: { HEARTH_HOME: home, PATH: '/usr/bin:/bin', HOME: '/home/me', PWD: home },
    clock: systemClock,
    stdout: (text) => out.push(text),
    stderr: () => undefined,
    readStdin: async () => '{"id":"s1","command":"ls"}\n',
  });
});
afterEach(async () => {
  await rm(home, { recursive: true, force: true, maxRetries: 5, retryDelay: 50 });
});

async function run(...args: string[]): Promise<string> {
  const program = new Command().exitOverride();
  registerExecCommands(program, context);
  await program.parseAsync(['node', 'hearth', ...args]);
  return out.join('');
}

async function writePolicy(policy: unknown): Promise<string> {
  const path = join(home, 'policy.json');
  await writeFile(path, JSON.stringify(policy));
  return path;
}

describe('hearth exec check', () => {
  it('prints a JSON decision for one command', async () => {
    const policy = await writePolicy({
      security: 'allowlist',
      ask: 'on-miss',
      askFallback: 'deny',
      allowlist: [{ pattern: 'ls' }],
    });
    const text = await run('exec', 'check', '--policy', policy, '--json', '--', 'ls -la | grep x');
    const result = JSON.parse(text);
    expect(result.decision).toBe('ask');
    expect(result.reasons[0].code).toBe('allowlist-miss');
  });

  it('prints the decision and reasons as text without --json', async () => {
    const text = await run('exec', 'check', '--', 'rm -rf /');
    expect(text.split('\n')[0]).toBe('deny');
    expect(text).toContain('recursive-delete-root');
  });

  it('answers a batch in order, one line per case', async () => {
    const policy = await writePolicy({ allowlist: [{ pattern: 'ls' }, { pattern: 'git', argPattern: '^status$' }] });
    const cases = join(home, 'cases.jsonl');
    await writeFile(
      cases,
      [
        { id: 'a', command: 'ls' },
        { id: 'b', command: 'git status' },
        { id: 'c', command: 'git push' },
        { id: 'd', command: 'rm -rf ~' },
      ]
        .map((line) => JSON.stringify(line))
        .join('\n'),
    );
    const lines = (await run('exec', 'check', '--policy', policy, '--json', '--batch', cases)).trim().split('\n');
    const results = lines.map((line) => JSON.parse(line));
    expect(results.map((result) => [result.id, result.decision])).toEqual([
      ['a', 'allow'],
      ['b', 'allow'],
      ['c', 'ask'],
      ['d', 'deny'],
    ]);
    for (const result of results) {
      expect(Object.keys(result)).toEqual(['id', 'decision', 'reasons']);
      for (const reason of result.reasons) expect(Object.keys(reason)).toEqual(['code', 'detail']);
    }
  });

  it('reads a batch from stdin with -', async () => {
    const policy = await writePolicy({ allowlist: [{ pattern: 'ls' }] });
    const text = await run('exec', 'check', '--policy', policy, '--json', '--batch', '-');
    expect(JSON.parse(text)).toMatchObject({ id: 's1', decision: 'allow' });
  });

  it.each([
    ['a missing policy file', 'nope.json', /cannot read policy file .*nope\.json: no such file/],
    ['a policy file that is not JSON', '{oops', /policy file .*policy\.json is not valid JSON/],
    ['an unknown security value', { security: 'maybe' }, /policy file .*policy\.json is invalid at security/],
    ['an unknown key', { allowList: [] }, /policy file .*policy\.json is invalid at \(root\)/],
    ['a bad argPattern', { allowlist: [{ pattern: 'ls', argPattern: '(' }] }, /invalid at allowlist\.0\.argPattern/],
  ])('rejects %s naming the file and the problem', async (_label, content, message) => {
    let path = join(home, 'nope.json');
    if (content !== 'nope.json') {
      path = join(home, 'policy.json');
      await writeFile(path, typeof content === 'string' ? content : JSON.stringify(content));
    }
    const error = await run('exec', 'check', '--policy', path, '--', 'ls').catch((caught) => caught);
    expect(error).toBeInstanceOf(CliError);
    expect(String(error.message)).toMatch(message);
  });

  it('rejects a bad batch line naming the line', async () => {
    const cases = join(home, 'cases.jsonl');
    await writeFile(cases, '{"id":1,"command":"ls"}\nnot json\n');
    const error = await run('exec', 'check', '--json', '--batch', cases).catch((caught) => caught);
    expect(error).toBeInstanceOf(CliError);
    expect(error.message).toMatch(/cases\.jsonl line 2: not valid JSON/);
  });

  it('rejects a missing command', async () => {
    const error = await run('exec', 'check').catch((caught) => caught);
    expect(error).toBeInstanceOf(CliError);
    expect(error.message).toMatch(/no command given/);
  });
});
