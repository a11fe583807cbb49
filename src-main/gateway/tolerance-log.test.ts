import { describe, expect, it } from 'vitest';
import { createMemoryLogger } from '../base/logger.js';
import { testCaller } from '../testing/test-caller.js';
import { MethodRegistry } from './method-router.js';
import { createToleranceLog } from './tolerance-log.js';

describe('the tolerance log', () => {
  it('logs each ignored field and clamped limit once per method, at debug, however often it comes', async () => {
    const log = createMemoryLogger();
    const registry = new MethodRegistry({ onTolerated: createToleranceLog(log) });
    let seenLimit: number | undefined;
    const handler = registry.handle('trace.show', (params) => {
      seenLimit = params.limit;
      return { sessionKey: params.sessionKey, calls: [] };
    });
    const call = {
      caller: testCaller(['operator.admin']),
      requestId: 'r',
      signal: new AbortController().signal,
      acknowledge() {},
    };
    for (let poll = 0; poll < 3; poll += 1) {
      const outcome = await registry.dispatch('trace.show', { sessionKey: 'main', limit: 5000, view: 'all' }, call);
      expect(outcome.ok).toBe(true);
    }
    handler.dispose();
    expect(seenLimit).toBe(1000);
    expect(log.entries).toEqual([
      {
        level: 'debug',
        message: 'ignored unknown fields (logged once)',
        fields: { where: 'trace.show', fields: ['view'] },
      },
      {
        level: 'debug',
        message: 'clamped limits to their maximum (logged once)',
        fields: { where: 'trace.show', limits: ['limit (5000 → 1000)'] },
      },
    ]);
  });
});
