import { describe, expect, it } from 'vitest';
import {
  agentMemoryConfigSchema,
  memoryRecallConfigSchema,
  recallConfigFor,
  scopeSettingsFor,
} from './memory-config.js';

// Memory settings per agent: `agents.list[].memory` changes the shared `memory` section for one
// agent only; what it leaves unset is inherited. host/per-agent-recall.test.ts has the wiring
// (an edit of hearth.json reaching the next turn).

const base = memoryRecallConfigSchema.parse({});
const agents = (recall: Record<string, unknown>, scope?: 'per-agent' | 'per-user') => ({
  list: [
    { id: 'main' },
    { id: 'quiet', memory: agentMemoryConfigSchema.parse({ recall, ...(scope ? { scope } : {}) }) },
  ],
});

describe('per-agent memory settings', () => {
  it('an agent’s recall override changes only what it names, and only for that agent', () => {
    const list = agents({ enabled: false });
    expect(recallConfigFor(base, list, 'quiet')).toEqual({ ...base, enabled: false });
    expect(recallConfigFor(base, list, 'main')).toEqual(base);
    expect(recallConfigFor(base, undefined, 'quiet')).toEqual(base);
    expect(recallConfigFor(base, agents({ style: 'strict', model: true }), 'quiet')).toMatchObject({
      enabled: true,
      style: 'strict',
      model: true,
      mode: base.mode,
      cacheMs: base.cacheMs,
    });
  });

  it('an agent’s own scope wins over memory.scope', () => {
    const shared = { scope: 'per-agent' as const, identityLinks: {} };
    expect(scopeSettingsFor(shared, agents({}, 'per-user'), 'quiet').scope).toBe('per-user');
    expect(scopeSettingsFor(shared, agents({}, 'per-user'), 'main').scope).toBe('per-agent');
  });

  it('refuses a recall setting that does not exist, naming it', () => {
    expect(agentMemoryConfigSchema.safeParse({ recall: { mode: 'sometimes' } }).error?.issues[0]?.path).toEqual([
      'recall',
      'mode',
    ]);
    expect(agentMemoryConfigSchema.safeParse({ recall: { loud: true } }).success).toBe(false);
  });
});
