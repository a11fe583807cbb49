import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createAgentPause } from './agent-pause.js';
import { agentPausePath, pauseSavingAt } from './agent-pause-file.js';

// "Pause agent" across a restart, with a real state file: each pause below is a fresh start.

let dir: string;
const logged: string[] = [];
const log = { error: (message: string) => void logged.push(message) };
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'hearth-pause-file-'));
  logged.length = 0;
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const start = async (now = 1_000) =>
  createAgentPause({ now: () => now }, await pauseSavingAt(agentPausePath(dir), log));

describe('agent pause file', () => {
  it('a pause and its reason survive a restart, and so does a resume', async () => {
    const first = await start(1_000);
    expect(first.state).toEqual({ paused: false });
    await first.pause('travelling');
    first.dispose();
    expect(JSON.parse(await readFile(agentPausePath(dir), 'utf8'))).toEqual({
      version: 1,
      paused: true,
      since: 1_000,
      reason: 'travelling',
    });

    const second = await start(9_000);
    expect(second.state).toEqual({ paused: true, since: 1_000, reason: 'travelling' });
    expect(() => second.assertRunning('heartbeat')).toThrow(
      /Reason given: travelling\. This heartbeat was not started/,
    );
    await second.resume();
    second.dispose();

    const third = await start();
    expect(third.state).toEqual({ paused: false });
    expect(() => third.assertRunning('cron run')).not.toThrow();
    third.dispose();
    expect(logged).toEqual([]);
  });

  for (const [what, text, named] of [
    ['not JSON', '{"version":1,"paused":tru', 'not JSON'],
    ['a wrong field', '{"version":1,"paused":"yes"}', 'paused: '],
    ['an unknown version', '{"version":2,"paused":false}', 'version: '],
  ] as const) {
    it(`a file with ${what} starts paused naming the file and the problem, and is left as it is`, async () => {
      await writeFile(agentPausePath(dir), text);
      const pause = await start();
      expect(pause.state.paused).toBe(true);
      expect(pause.state.problem).toContain(`${agentPausePath(dir)} cannot be read (${named}`);
      expect(pause.state.problem).toMatch(/left as it is, and Hearth started paused to be safe: fix or remove it/);
      expect(() => pause.assertRunning('message')).toThrow(/cannot be read/);
      expect(await readFile(agentPausePath(dir), 'utf8')).toBe(text);
      expect(logged).toEqual(['saved agent pause is damaged; starting paused']);
      // The person's resume is what replaces it.
      await pause.resume();
      expect(JSON.parse(await readFile(agentPausePath(dir), 'utf8'))).toEqual({ version: 1, paused: false });
      pause.dispose();
    });
  }
});
