import { describe, expect, it } from 'vitest';
import { HearthError } from '../../base/index.js';
import { createAgentPause, type PauseState } from './agent-pause.js';

function refusalOf(run: () => void): HearthError {
  try {
    run();
  } catch (error) {
    return error as HearthError;
  }
  throw new Error('expected a refusal');
}

describe('agent pause', () => {
  it('refuses each kind of turn by name while paused, and tells listeners once per change', async () => {
    let now = 1_000;
    const pause = createAgentPause({ now: () => now });
    const seen: boolean[] = [];
    const listening = pause.onDidChange((state) => seen.push(state.paused));
    expect(() => pause.assertRunning('cron run')).not.toThrow();
    expect(await pause.pause()).toEqual({ paused: true, since: 1_000 });
    now = 2_000;
    expect(await pause.pause()).toEqual({ paused: true, since: 1_000 });
    for (const what of ['message', 'heartbeat', 'cron run']) {
      const refusal = refusalOf(() => pause.assertRunning(what));
      expect(refusal).toBeInstanceOf(HearthError);
      expect(refusal.code).toBe('unavailable');
      expect(refusal.message).toMatch(new RegExp(`^Hearth is paused: .*This ${what} was not started\\.$`));
      expect(refusal.details).toEqual({ reason: 'agent_paused', pausedSince: 1_000 });
    }
    expect(await pause.resume()).toEqual({ paused: false });
    expect(() => pause.assertRunning('heartbeat')).not.toThrow();
    expect(seen).toEqual([true, false]);
    listening.dispose();
    pause.dispose();
  });

  it('says the reason given in its refusal, and pausing again changes the reason but not since', async () => {
    let now = 5_000;
    const pause = createAgentPause({ now: () => now });
    await pause.pause('  on holiday  ');
    now = 6_000;
    expect(await pause.pause('back Monday')).toEqual({ paused: true, since: 5_000, reason: 'back Monday' });
    expect(refusalOf(() => pause.assertRunning('message')).message).toContain(
      'Reason given: back Monday. This message was not started.',
    );
    pause.dispose();
  });

  it('starts from the saved state and saves every change in order', async () => {
    const saves: PauseState[] = [];
    let release: () => void = () => undefined;
    const firstSaveHeld = new Promise<void>((resolve) => {
      release = resolve;
    });
    let started: () => void = () => undefined;
    const firstSaveStarted = new Promise<void>((resolve) => {
      started = resolve;
    });
    const pause = createAgentPause(
      { now: () => 7_000 },
      {
        initial: { paused: true, since: 3_000, reason: 'saved' },
        save: async (state) => {
          if (saves.length === 0) {
            saves.push(state);
            started();
            await firstSaveHeld;
            return;
          }
          saves.push(state);
        },
      },
    );
    expect(() => pause.assertRunning('heartbeat')).toThrow(/Reason given: saved\./);
    const resumed = pause.resume();
    const pausedAgain = pause.pause();
    await firstSaveStarted;
    // The second save waits for the first, so the file ends as the last change made.
    expect(saves).toEqual([{ paused: false }]);
    release();
    await resumed;
    await pausedAgain;
    expect(saves).toEqual([{ paused: false }, { paused: true, since: 7_000 }]);
    pause.dispose();
  });

  it('a failed save rejects saying the pause will not outlive a restart, and the pause still holds', async () => {
    const pause = createAgentPause(
      { now: () => 1 },
      {
        initial: { paused: false },
        save: async () => {
          throw new Error('EACCES: permission denied');
        },
      },
    );
    await expect(pause.pause()).rejects.toThrow(
      /^Paused now, but it could not be saved \(EACCES: permission denied\): after a restart Hearth will not remember it$/,
    );
    expect(pause.state.paused).toBe(true);
    expect(() => pause.assertRunning('message')).toThrow(/^Hearth is paused/);
    pause.dispose();
  });
});
