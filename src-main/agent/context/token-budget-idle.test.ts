import { describe, expect, it } from 'vitest';
import { silentLogger } from '../../base/logger.js';
import { isTokenizerLoaded } from '../../base/o200k-tokens.js';
import { createFakeClock } from '../../testing/fake-clock.js';
import type { AgentMessage } from '../messages.js';
import { LinearContextEngine } from './linear-engine.js';
import { budgetWithFixedText, loadTokenizerWhenLikely, TOKENIZER_LIKELY_SHARE } from './token-budget.js';
import { messagesTokensUpperBound, tokensUpperBound } from './token-estimate.js';

// The tokenizer's state is per process: this file starts without it and checks when it loads.

let counter = 0;
const newId = () => `m${++counter}`;

function engine(): LinearContextEngine {
  return new LinearContextEngine({
    agentId: 'main',
    sessionKey: 'agent:main:main',
    workspaceDir: '/nonexistent-hearth-test',
    summarizer: async () => 'unused',
    clock: createFakeClock(0),
    newId,
    log: silentLogger,
  });
}

const messages: AgentMessage[] = Array.from({ length: 10 }, (_, t) => [
  { kind: 'user' as const, id: newId(), ts: t, text: `question ${t} ${'lorem ipsum '.repeat(30)}` },
  { kind: 'assistant' as const, id: newId(), ts: t, text: `answer ${t} ${'dolor sit '.repeat(30)}` },
]).flat();
const fixedText = 'You are Hearth. '.repeat(50);

describe('loading the tokenizer in idle time', () => {
  it('does not when every budget was far from its bound, and does once one came close', async () => {
    const e = engine();
    await e.bootstrap({ messages });
    const bound = tokensUpperBound(fixedText) + messagesTokensUpperBound(messages);

    const far = await e.assemble(
      budgetWithFixedText({ promptTokens: bound * 10, contextWindow: bound * 11, fixedText }),
    );
    expect(far.route).toBe('fits');
    const scheduled: (() => void)[] = [];
    expect(loadTokenizerWhenLikely((run) => scheduled.push(run))).toBe(false);
    expect(scheduled).toHaveLength(0);
    expect(isTokenizerLoaded()).toBe(false);

    // The bound at 80% of the budget: still settled without counting, but a few turns from needing it.
    const promptTokens = Math.ceil(bound / ((1 + TOKENIZER_LIKELY_SHARE) / 2 + 0.05));
    const close = await e.assemble(budgetWithFixedText({ promptTokens, contextWindow: promptTokens * 2, fixedText }));
    expect(close.route).toBe('fits');
    expect(isTokenizerLoaded()).toBe(false);
    expect(loadTokenizerWhenLikely((run) => scheduled.push(run))).toBe(true);
    expect(isTokenizerLoaded()).toBe(false);
    expect(scheduled).toHaveLength(1);
    scheduled[0]!();
    expect(isTokenizerLoaded()).toBe(true);
    expect(loadTokenizerWhenLikely((run) => scheduled.push(run))).toBe(false);
    expect(scheduled).toHaveLength(1);
  });
});
