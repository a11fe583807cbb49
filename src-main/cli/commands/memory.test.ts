import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { parseMemoryConfig } from '../../memory/memory-config.js';
import { createFakeClock } from '../../testing/fake-clock.js';
import { type CliContext, CliError, createCliContext } from '../cli-context.js';
import { type MemoryCommandOptions, registerMemoryCommands } from './memory.js';

async function setup(options: MemoryCommandOptions = {}) {
  const home = await mkdtemp(join(tmpdir(), 'hearth-cli-memory-'));
  const workspace = join(home, 'workspace');
  await mkdir(join(workspace, 'memory'), { recursive: true });
  await writeFile(join(workspace, 'MEMORY.md'), '# Memory\n\n- Allergic to peanuts\n');
  await writeFile(join(workspace, 'memory/2026-11-02.md'), '- 08:00 [preference] Likes climbing on Saturdays\n');
  const out: string[] = [];
  const context = createCliContext({
    env: { HEARTH_HOME: home },
    clock: createFakeClock(new Date(2026, 10, 30, 9).getTime()),
    stdout: (text) => out.push(text),
    stderr: () => {},
    readStdin: async () => '',
  });
  const run = async (...args: string[]) => {
    out.length = 0;
    const program = new Command().exitOverride();
    registerMemoryCommands(program, context, options);
    await program.parseAsync(['memory', ...args], { from: 'user' });
    return out.join('');
  };
  return { home, context: context as CliContext, run };
}

describe('hearth memory', () => {
  it('indexes, then searches with --json in the documented shape', async () => {
    const { run } = await setup();
    expect(await run('index')).toMatch(/^indexed 2 files \(\d+ updated, 0 removed\), 2 chunks/);
    const json = JSON.parse(await run('search', 'climbing weekend', '--json', '--k', '3'));
    expect(Object.keys(json)).toEqual(['results']);
    expect(json.results[0]).toEqual({
      path: 'memory/2026-11-02.md',
      startLine: 1,
      endLine: 1,
      score: expect.any(Number),
      snippet: '- 08:00 [preference] Likes climbing on Saturdays',
    });
    expect(Object.keys(json.results[0])).toEqual(['path', 'startLine', 'endLine', 'score', 'snippet']);
    expect(await run('search', 'peanut allergy')).toContain('MEMORY.md:1-3');
  });

  it('shows status and previews promotion, explaining signals', async () => {
    const { run } = await setup();
    expect(await run('status', '--deep')).toMatch(
      /agent main: 2 files, \d+ chunks, backend memory-lancedb, embedder hashed-v1:384/,
    );
    expect(await run('promote')).toContain('(preview; --apply to write MEMORY.md)');
    expect(await run('promote-explain', 'Likes climbing on Saturdays')).toContain('has not been recalled');
  });

  it('rejects bad flags with a one-line error', async () => {
    const { run } = await setup();
    await expect(run('search', 'x', '--k', 'lots')).rejects.toThrow(
      new CliError('--k must be an integer from 1 to 100, got lots'),
    );
    await expect(run('status', '--agent', '../etc')).rejects.toThrow(/invalid --agent/);
  });

  it('in per-user scope, asks whose memory and searches only that user', async () => {
    const { home, run } = await setup({
      config: parseMemoryConfig({ scope: 'per-user', identityLinks: { ana: ['telegram:7'] } }),
    });
    await mkdir(join(home, 'workspace/users/ana/memory'), { recursive: true });
    await writeFile(join(home, 'workspace/users/ana/memory/2026-11-20.md'), '- Ana keeps bees on the roof\n');
    await expect(run('search', 'bees')).rejects.toThrow('memory.scope is per-user: pass --user <account>');
    const json = JSON.parse(await run('search', 'bees on the roof', '--user', 'telegram:7', '--json'));
    expect(json.results.map((r: { path: string }) => r.path)).toEqual(['users/ana/memory/2026-11-20.md']);
    const other = JSON.parse(await run('search', 'bees on the roof', '--user', 'telegram:8', '--json'));
    expect(other.results).toEqual([]);
  });
});
