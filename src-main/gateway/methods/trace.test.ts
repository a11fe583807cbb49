import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CACHE_TRACE_STAGES, createCacheTraceWriter } from '../../agent/context/index.js';
import type { Disposable } from '../../base/disposable.js';
import type { TraceShowResult } from '../../protocol/methods/trace.js';
import { createFakeClock } from '../../testing/fake-clock.js';
import { testCaller } from '../../testing/test-caller.js';
import type { CallerIdentity } from '../caller.js';
import { type CallContext, MethodRegistry } from '../method-router.js';
import { registerTraceMethods } from './trace.js';

const caller = (scopes: string[]): CallerIdentity => testCaller(scopes);

let dir: string;
let registry: MethodRegistry;
const call = (params: unknown, scopes = ['operator.read']) => {
  const context: CallContext = {
    caller: caller(scopes),
    requestId: 'r1',
    signal: new AbortController().signal,
    acknowledge() {},
  };
  return registry.dispatch('trace.show', params, context);
};

let registration: Disposable;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'hearth-trace-method-'));
  registry = new MethodRegistry();
  registration = registerTraceMethods(registry, { cacheTraceDir: dir });
  const writer = createCacheTraceWriter({ dir, clock: createFakeClock() });
  for (const [callId, system] of [
    ['c1', 'S'],
    ['c2', 'S2'],
  ] as const) {
    for (const stage of CACHE_TRACE_STAGES) {
      await writer.record({
        sessionKey: 'agent:main:main',
        callId,
        stage,
        snapshot: { system, messages: [{ content: 'secret words' }] },
      });
    }
  }
});
afterEach(async () => {
  registration.dispose();
  await rm(dir, { recursive: true, force: true, maxRetries: 5, retryDelay: 50 });
});

describe('trace.show', () => {
  it('explains the miss for a session given by its short key, without content', async () => {
    const outcome = await call({ sessionKey: 'main' });
    expect(outcome.ok).toBe(true);
    const result = (outcome as { payload: TraceShowResult }).payload;
    expect(result.sessionKey).toBe('agent:main:main');
    expect(result.calls.map((c) => c.verdict)).toEqual(['first_call', 'cache_miss']);
    expect(result.calls[1]?.reason).toBe('system prompt changed');
    expect(JSON.stringify(result)).not.toContain('secret words');
  });

  it('needs operator.read', async () => {
    const outcome = await call({ sessionKey: 'main' }, []);
    expect(outcome).toMatchObject({ ok: false, error: { code: 'FORBIDDEN' } });
  });

  it('rejects bad params by name', async () => {
    expect(await call({})).toMatchObject({
      ok: false,
      error: { code: 'INVALID_REQUEST', message: expect.stringContaining('sessionKey') },
    });
    expect(await call({ sessionKey: 'main', limit: 0 })).toMatchObject({
      ok: false,
      error: { message: expect.stringContaining('limit') },
    });
    expect(await call({ sessionKey: 'agent::' })).toMatchObject({
      ok: false,
      error: { code: 'INVALID_REQUEST', message: expect.stringContaining('sessionKey') },
    });
  });
});
