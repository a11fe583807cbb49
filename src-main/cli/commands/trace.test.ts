import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Command } from 'commander';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CACHE_TRACE_STAGES, createCacheTraceWriter } from '../../agent/context/index.js';
import { createHearthPaths } from '../../paths/index.js';
import { createFakeClock } from '../../testing/fake-clock.js';
import { type CliContext, createCliContext } from '../cli-context.js';
import { registerTraceCommands } from './trace.js';

let home: string;
let out: string[];
let context: CliContext;

beforeEach(async () => {
  home = await mkdtemp(join(tmpdir(), 'hearth-trace-cli-'));
  out = [];
  const clock = createFakeClock(Date.UTC(2026, 10, 30, 12, 0));
  context = createCliContext({
    env: { HEARTH_HOME: home },
    clock,
    stdout: (t) => out.push(t),
    stderr: () => {},
    readStdin: async () => '',
  });
  const writer = createCacheTraceWriter({ dir: createHearthPaths(home).cacheTraceDir, clock });
  const messages = [{ role: 'user', content: 'hi' }];
  for (const [callId, msgs] of [
    ['call-1', messages],
    ['call-2', [...messages, { role: 'assistant', content: 'hello' }]],
    ['call-3', [{ role: 'user', content: 'rewritten' }]],
  ] as const) {
    for (const stage of CACHE_TRACE_STAGES)
      await writer.record({ sessionKey: 'agent:main:main', callId, stage, snapshot: { system: 'S', messages: msgs } });
  }
});
afterEach(() => rm(home, { recursive: true, force: true, maxRetries: 5, retryDelay: 50 }));

async function run(...args: string[]): Promise<string> {
  const program = new Command().exitOverride();
  registerTraceCommands(program, context);
  await program.parseAsync(['node', 'hearth', ...args]);
  return out.join('');
}

describe('hearth trace show', () => {
  it('prints each call with its verdict', async () => {
    const text = await run('trace', 'show', 'main');
    expect(text).toContain('agent:main:main: 3 call(s)');
    expect(text).toContain('call-1 [1 msgs, ');
    expect(text).toContain('first call');
    expect(text).toContain('prefix stable (cache should hit)');
    expect(text).toContain('CACHE MISS at session_loaded: message 1 changed');
  });

  it('prints JSON with --json', async () => {
    const result = JSON.parse(await run('trace', 'show', 'agent:main:main', '--json'));
    expect(result.calls.map((c: { verdict: string }) => c.verdict)).toEqual([
      'first_call',
      'prefix_stable',
      'cache_miss',
    ]);
  });

  it('says so when a session has no trace', async () => {
    expect(await run('trace', 'show', 'agent:main:cron:nightly')).toBe(
      'No traced LLM calls for agent:main:cron:nightly.\n',
    );
  });

  it('rejects a bad limit and a bad session key with a one-line error', async () => {
    await expect(run('trace', 'show', 'main', '--limit', 'x')).rejects.toThrow(/--limit must be a positive integer/);
    await expect(run('trace', 'show', 'agent::')).rejects.toThrow(/bad session key/);
  });
});
