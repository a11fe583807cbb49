import { describe, expect, it } from 'vitest';
import { chooseOverflowRoute, computePromptBudget } from './prompt-budget.js';

describe('computePromptBudget', () => {
  it('clamps a 100k reserve on a 20k context to an 8k prompt', () => {
    const budget = computePromptBudget({ contextWindow: 20_000, reserveTokens: 100_000 });
    expect(budget).toEqual({
      contextWindow: 20_000,
      minPromptTokens: 8_000,
      reserveTokens: 12_000,
      promptTokens: 8_000,
      reserveClamped: true,
    });
  });

  it('uses half the window as the floor for small models', () => {
    const budget = computePromptBudget({ contextWindow: 10_000, reserveTokens: 9_000 });
    expect(budget.minPromptTokens).toBe(5_000);
    expect(budget.promptTokens).toBe(5_000);
    expect(budget.reserveTokens).toBe(5_000);
  });

  it('keeps a reasonable reserve as configured', () => {
    const budget = computePromptBudget({ contextWindow: 200_000, reserveTokens: 16_000 });
    expect(budget.reserveClamped).toBe(false);
    expect(budget.promptTokens).toBe(184_000);
  });

  it('names the bad field', () => {
    expect(() => computePromptBudget({ contextWindow: 0, reserveTokens: 1 })).toThrow(/contextWindow/);
    expect(() => computePromptBudget({ contextWindow: 1.5, reserveTokens: 1 })).toThrow(/contextWindow/);
    expect(() => computePromptBudget({ contextWindow: 1000, reserveTokens: -1 })).toThrow(/reserveTokens/);
    expect(() => computePromptBudget({ contextWindow: 1000, reserveTokens: Number.NaN })).toThrow(/reserveTokens/);
  });
});

describe('chooseOverflowRoute', () => {
  it('fits when the estimate is within budget', () => {
    expect(
      chooseOverflowRoute({ estimatedPromptTokens: 100, promptBudgetTokens: 100, toolResultSavingsTokens: 0 }),
    ).toBe('fits');
  });
  it('prefers cutting tool results when that alone is enough', () => {
    expect(
      chooseOverflowRoute({ estimatedPromptTokens: 150, promptBudgetTokens: 100, toolResultSavingsTokens: 50 }),
    ).toBe('truncate_tool_results_only');
  });
  it('compacts only when there is nothing to cut', () => {
    expect(
      chooseOverflowRoute({ estimatedPromptTokens: 150, promptBudgetTokens: 100, toolResultSavingsTokens: 0 }),
    ).toBe('compact_only');
  });
  it('does both when cutting helps but is not enough', () => {
    expect(
      chooseOverflowRoute({ estimatedPromptTokens: 150, promptBudgetTokens: 100, toolResultSavingsTokens: 20 }),
    ).toBe('compact_then_truncate');
  });
});
