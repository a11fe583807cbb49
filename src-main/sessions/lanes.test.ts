import { describe, expect, it } from 'vitest';
import { createLanes, LaneAbortedError } from './lanes.js';

/** A job that runs until the test releases it, recording when it started. */
function gate() {
  let open!: () => void;
  const released = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { released, open };
}

const tick = () => new Promise((resolve) => setImmediate(resolve));

describe('lanes', () => {
  it('runs one turn at a time per session, first come first served', async () => {
    const lanes = createLanes();
    const log: string[] = [];
    const gates = [gate(), gate(), gate()];
    const runs = gates.map((g, i) =>
      lanes.run('agent:main:main', 'default', async () => {
        log.push(`start ${i}`);
        await g.released;
        log.push(`end ${i}`);
        return i;
      }),
    );
    await tick();
    expect(log).toEqual(['start 0']);
    gates[2]!.open();
    gates[1]!.open();
    await tick();
    expect(log).toEqual(['start 0']);
    gates[0]!.open();
    expect(await Promise.all(runs)).toEqual([0, 1, 2]);
    expect(log).toEqual(['start 0', 'end 0', 'start 1', 'end 1', 'start 2', 'end 2']);
  });

  it('runs different sessions at the same time up to the lane limit', async () => {
    const lanes = createLanes({ limits: { default: 2 } });
    const started: string[] = [];
    const g = gate();
    const runs = ['a', 'b', 'c'].map((key) =>
      lanes.run(`agent:main:telegram:direct:${key}`, 'default', async () => {
        started.push(key);
        await g.released;
      }),
    );
    await tick();
    expect(started).toEqual(['a', 'b']);
    expect(lanes.stats().default).toEqual({ active: 2, queued: 1, limit: 2 });
    g.open();
    await Promise.all(runs);
    expect(started).toEqual(['a', 'b', 'c']);
    expect(lanes.stats().default).toEqual({ active: 0, queued: 0, limit: 2 });
  });

  it('a pile of cron work never blocks a user chat', async () => {
    const lanes = createLanes({ limits: { cron: 1, default: 1 } });
    const cronGate = gate();
    const cron = Array.from({ length: 20 }, (_, i) =>
      lanes.run(`agent:main:cron:job${i}`, 'cron', () => cronGate.released),
    );
    await tick();
    expect(lanes.stats().cron).toMatchObject({ active: 1, queued: 19 });
    const reply = await lanes.run('agent:main:main', 'default', async () => 'hello');
    expect(reply).toBe('hello');
    cronGate.open();
    await Promise.all(cron);
  });

  it('subagent and nested work have their own budgets', async () => {
    const lanes = createLanes({ limits: { subagent: 1, nested: 1, default: 1 } });
    const hold = gate();
    const parent = lanes.run('agent:main:main', 'default', async () => {
      // A nested review started from inside a running turn must not wait on the parent's slot.
      const nested = await lanes.run('agent:main:subagent:review', 'nested', async () => 'nested ok');
      await hold.released;
      return nested;
    });
    const sub = lanes.run('agent:main:subagent:s1', 'subagent', async () => 'sub ok');
    expect(await sub).toBe('sub ok');
    hold.open();
    expect(await parent).toBe('nested ok');
  });

  it('keeps the queue moving after a failed turn', async () => {
    const lanes = createLanes();
    const failed = lanes.run('k', 'default', async () => {
      throw new Error('provider exploded');
    });
    const next = lanes.run('k', 'default', async () => 'next');
    await expect(failed).rejects.toThrow('provider exploded');
    expect(await next).toBe('next');
  });

  it('drops a queued turn whose signal aborts before it starts', async () => {
    const lanes = createLanes({ limits: { default: 1 } });
    const hold = gate();
    let ran = false;
    const first = lanes.run('a', 'default', () => hold.released);
    const controller = new AbortController();
    const waiting = lanes.run(
      'b',
      'default',
      async () => {
        ran = true;
      },
      { signal: controller.signal },
    );
    await tick();
    controller.abort();
    await expect(waiting).rejects.toThrow(LaneAbortedError);
    await expect(waiting).rejects.toThrow(/aborted while waiting in the default lane/);
    hold.open();
    await first;
    expect(ran).toBe(false);
    expect(lanes.stats().default).toMatchObject({ active: 0, queued: 0 });
  });

  it('rejects bad limits and unknown lanes with clear errors', () => {
    expect(() => createLanes({ limits: { cron: 0 } })).toThrow(/lane limit for "cron" must be a positive integer/);
    expect(() => createLanes({ limits: { default: 1.5 } })).toThrow(/positive integer \(got 1.5\)/);
    expect(() => createLanes({ limits: { fast: 2 } as never })).toThrow(/unknown lane "fast"/);
    expect(() => createLanes().run('k', 'turbo' as never, async () => 1)).toThrow(/unknown lane "turbo"/);
  });
});
