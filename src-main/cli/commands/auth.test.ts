import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Command } from 'commander';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createFakeClock } from '../../testing/fake-clock.js';
import { type CliContext, CliError, createCliContext } from '../cli-context.js';
import { registerAuthCommands } from './auth.js';

let home: string;
let out: string[];
let stdin: string;
let context: CliContext;

beforeEach(async () => {
  home = await mkdtemp(join(tmpdir(), 'hearth-auth-cli-'));
  out = [];
  stdin = '';
  context = createCliContext({
    env: { HEARTH_HOME: home, HEARTH_SECRET_STORE: 'file' },
    clock: createFakeClock(),
    stdout: (t) => out.push(t),
    stderr: () => {},
    readStdin: async () => stdin,
  });
});
afterEach(() => rm(home, { recursive: true, force: true, maxRetries: 5, retryDelay: 50 }));

async function run(...args: string[]): Promise<string> {
  out = [];
  const program = new Command().exitOverride();
  registerAuthCommands(program, context);
  await program.parseAsync(['node', 'hearth', ...args]);
  return out.join('');
}

describe('hearth auth', () => {
  it('sets a profile from stdin, lists it without the secret, and removes it', async () => {
    stdin = 'sk-cli-secret-value\n';
    expect(await run('auth', 'set', 'work', '--provider', 'openai')).toContain('Saved auth profile "work"');
    const listed = await run('auth', 'list');
    expect(listed).toContain('work  openai  api_key  ok');
    expect(listed).not.toContain('sk-cli-secret-value');
    const json = JSON.parse(await run('auth', 'list', '--json'));
    expect(json.profiles[0]).toMatchObject({ id: 'work', status: 'ok' });
    expect(await readFile(join(home, 'state', 'auth-profiles.json'), 'utf8')).not.toContain('sk-cli-secret-value');
    expect(await run('auth', 'remove', 'work')).toContain('Removed');
    expect(await run('auth', 'list')).toContain('No auth profiles');
  });

  it('gives one clear line for bad input', async () => {
    await expect(run('auth', 'set', 'x', '--provider', 'openai')).rejects.toThrow(/no secret on stdin/);
    stdin = 'k';
    await expect(run('auth', 'set', 'x', '--provider', 'openai', '--type', 'password')).rejects.toThrow(
      /--type must be one of api_key, token, oauth/,
    );
    await expect(run('auth', 'set', 'bad id', '--provider', 'openai')).rejects.toThrow(CliError);
    await expect(run('auth', 'set', 'x', '--provider', 'openai', '--expires-at', 'someday')).rejects.toThrow(
      /--expires-at "someday"/,
    );
    await expect(run('auth', 'remove', 'ghost')).rejects.toThrow(/no auth profile "ghost"/);
  });
});
