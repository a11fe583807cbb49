import { describe, expect, it } from 'vitest';
import { ContextOverflowError, createCompactionPolicy } from './compaction-policy.js';

describe('compaction policy', () => {
  it('compacts preemptively only when the call would not fit', () => {
    const policy = createCompactionPolicy();
    expect(policy.beforeCall({ estimatedPromptTokens: 8_000, promptBudgetTokens: 8_000 }).action).toBe('none');
    expect(policy.beforeCall({ estimatedPromptTokens: 8_001, promptBudgetTokens: 8_000 })).toEqual({
      action: 'compact',
      reason: 'preemptive',
    });
  });

  it('compacts on timeout only at ≥ 65% of the context', () => {
    const policy = createCompactionPolicy();
    expect(policy.onTimeout({ usedTokens: 6_499, contextWindow: 10_000 })).toMatchObject({ action: 'none' });
    expect(policy.onTimeout({ usedTokens: 6_500, contextWindow: 10_000 })).toEqual({
      action: 'compact',
      reason: 'timeout',
    });
  });

  it('on overflow: 3 compactions, then one truncation, then a clear error', () => {
    const policy = createCompactionPolicy();
    expect(policy.onOverflow()).toEqual({ action: 'compact', reason: 'overflow', attempt: 1 });
    expect(policy.onOverflow()).toEqual({ action: 'compact', reason: 'overflow', attempt: 2 });
    expect(policy.onOverflow()).toEqual({ action: 'compact', reason: 'overflow', attempt: 3 });
    expect(policy.onOverflow()).toEqual({ action: 'truncate_tool_results' });
    const last = policy.onOverflow();
    expect(last.action).toBe('fail');
    if (last.action !== 'fail') return;
    expect(last.error).toBeInstanceOf(ContextOverflowError);
    expect(last.error.message).toMatch(/no longer fits.*after 3 compaction/);
  });

  it('stops compacting on overflow once compaction proved useless', () => {
    const policy = createCompactionPolicy();
    expect(policy.onOverflow().action).toBe('compact');
    policy.noteCompactionIneffective();
    expect(policy.onOverflow()).toEqual({ action: 'truncate_tool_results' });
  });

  it('rejects bad options by name', () => {
    expect(() => createCompactionPolicy({ maxOverflowCompactions: -1 })).toThrow(/maxOverflowCompactions/);
    expect(() => createCompactionPolicy({ timeoutUsageThreshold: 0 })).toThrow(/timeoutUsageThreshold/);
    expect(() => createCompactionPolicy().onTimeout({ usedTokens: 1, contextWindow: 0 })).toThrow(/contextWindow/);
  });
});
