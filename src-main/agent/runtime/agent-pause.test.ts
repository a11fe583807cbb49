import { describe, expect, it } from 'vitest';
import { HearthError } from '../../base/index.js';
import { createAgentPause } from './agent-pause.js';

describe('agent pause', () => {
  it('refuses each kind of turn by name while paused, and tells listeners once per change', () => {
    let now = 1_000;
    const pause = createAgentPause({ now: () => now });
    const seen: boolean[] = [];
    const listening = pause.onDidChange((state) => seen.push(state.paused));
    expect(() => pause.assertRunning('cron run')).not.toThrow();
    expect(pause.pause()).toEqual({ paused: true, since: 1_000 });
    now = 2_000;
    expect(pause.pause()).toEqual({ paused: true, since: 1_000 });
    for (const what of ['message', 'heartbeat', 'cron run']) {
      let refusal: unknown;
      try {
        pause.assertRunning(what);
      } catch (error) {
        refusal = error;
      }
      expect(refusal).toBeInstanceOf(HearthError);
      expect((refusal as HearthError).code).toBe('unavailable');
      expect((refusal as HearthError).message).toMatch(
        new RegExp(`^Hearth is paused: .*This ${what} was not started\\.$`),
      );
      expect((refusal as HearthError).details).toEqual({ reason: 'agent_paused', pausedSince: 1_000 });
    }
    expect(pause.resume()).toEqual({ paused: false });
    expect(() => pause.assertRunning('heartbeat')).not.toThrow();
    expect(seen).toEqual([true, false]);
    listening.dispose();
    pause.dispose();
  });
});
