import { describe, expect, it } from 'vitest';
import { silentLogger } from '../../base/logger.js';
import { countO200kTokens, o200kTokensUpperBound } from '../../base/o200k-tokens.js';
import { createFakeClock } from '../../testing/fake-clock.js';
import type { AgentMessage } from '../messages.js';
import type { AssembledContext } from './context-engine.js';
import { LinearContextEngine } from './linear-engine.js';
import { chooseOverflowRoute } from './prompt-budget.js';
import { budgetWithFixedText, fitsByUpperBound } from './token-budget.js';
import {
  estimateMessagesTokens,
  estimateMessageTokens,
  estimateTokens,
  messageTokensUpperBound,
  tokensUpperBound,
} from './token-estimate.js';
import { truncateToolResults } from './tool-result-truncation.js';
import { fitNewestTurns } from './turns.js';

let counter = 0;
const newId = () => `m${++counter}`;

/** Deterministic code points from every plane's busy ranges, surrogates (lone ones too) included. */
function scrambled(seed: number, length: number): string {
  let state = seed;
  const next = () => {
    state = (state * 1_103_515_245 + 12_345) % 2 ** 31;
    return state;
  };
  const ranges: [number, number][] = [
    [0x20, 0x7e],
    [0xa0, 0x24f],
    [0x400, 0x4ff],
    [0x600, 0x6ff],
    [0x900, 0x97f],
    [0x3040, 0x30ff],
    [0x4e00, 0x9fff],
    [0xac00, 0xd7a3],
    [0xd800, 0xdfff],
    [0x1f300, 0x1faff],
    [0x20000, 0x2a6df],
  ];
  let out = '';
  for (let i = 0; i < length; i += 1) {
    const [low, high] = ranges[next() % ranges.length]!;
    const point = low + (next() % (high - low + 1));
    out += point >= 0xd800 && point <= 0xdfff ? String.fromCharCode(point) : String.fromCodePoint(point);
  }
  return out;
}

const texts: Record<string, string> = {
  empty: '',
  english: 'The quick brown fox jumps over the lazy dog. '.repeat(40),
  code: 'export function add(a: number, b: number): number {\n  return a + b; // sum\n}\n'.repeat(30),
  json: JSON.stringify({ tools: [{ name: 'exec', description: 'Run a shell command', args: { cwd: '/tmp' } }] }),
  cjk: '我们今天去公园散步，天气很好。日本語のテキストも。한국어 문장도 있습니다。'.repeat(30),
  emoji: '👍🏽🎉👨‍👩‍👧‍👦🇯🇵🏳️‍🌈 ok '.repeat(40),
  whitespace: `${' '.repeat(3_000)}\n\n\t\t${'\u00a0'.repeat(200)}`,
  digits: '3.14159265358979323846'.repeat(100),
  special: '<|endoftext|> <|im_start|>user<|im_sep|>hi<|im_end|>'.repeat(10),
  loneSurrogates: 'a\ud800b\udfffc\ud83d'.repeat(50),
  scrambled: scrambled(7, 4_000),
  scrambledShort: scrambled(99, 37),
};

describe('the byte bound', () => {
  it('is never below the o200k count, nor its estimate below the exact estimate', () => {
    for (const [name, text] of Object.entries(texts)) {
      const exact = countO200kTokens(text);
      expect(o200kTokensUpperBound(text), name).toBeGreaterThanOrEqual(exact);
      expect(tokensUpperBound(text), name).toBeGreaterThanOrEqual(estimateTokens(text));
    }
  });

  it('holds for every kind of message, attachments and images included', () => {
    const messages: AgentMessage[] = [
      {
        kind: 'user',
        id: newId(),
        ts: 0,
        text: texts.cjk!,
        hiddenPrefix: texts.emoji,
        attachments: [
          { kind: 'image', mediaType: 'image/png', data: 'iVBORw0KGgo=' },
          { kind: 'file', mediaType: 'text/plain', data: Buffer.from(texts.code!).toString('base64') },
        ],
      },
      { kind: 'assistant', id: newId(), ts: 0, text: texts.english! },
      { kind: 'tool_call', id: newId(), ts: 0, toolCallId: 'c', toolName: 'exec', input: { command: texts.special } },
      {
        kind: 'tool_result',
        id: newId(),
        ts: 0,
        toolCallId: 'c',
        toolName: 'exec',
        output: texts.scrambled!,
        images: [{ mediaType: 'image/png', data: 'iVBORw0KGgo=' }],
      },
      { kind: 'compaction_summary', id: newId(), ts: 0, summary: texts.digits!, replaces: [], identifiers: [] },
      { kind: 'notification', id: newId(), ts: 0, text: texts.loneSurrogates! },
      { kind: 'steering', id: newId(), ts: 0, text: texts.whitespace! },
    ];
    for (const message of messages) {
      // The bound first: once counted, a message's bound is its exact figure.
      const bound = messageTokensUpperBound(message);
      expect(bound, message.kind).toBeGreaterThanOrEqual(estimateMessageTokens(message));
      expect(messageTokensUpperBound(message), message.kind).toBe(estimateMessageTokens(message));
    }
  });
});

describe('budgetWithFixedText', () => {
  it('counts the fixed text as estimateTokens does, bounded by fixedTokensBound', () => {
    const fixedText = `${texts.english}${texts.json}${texts.cjk}`;
    const budget = budgetWithFixedText({ promptTokens: 10_000, contextWindow: 12_000, fixedText });
    expect(budget.fixedTokensBound).toBe(tokensUpperBound(fixedText));
    expect(budget.fixedTokens).toBe(estimateTokens(fixedText));
    expect(budget.fixedTokensBound).toBeGreaterThanOrEqual(budget.fixedTokens);
  });
});

// What the linear engine decided when it counted every text exactly (before the bound existed).
function exactAssembly(messages: readonly AgentMessage[], fixedText: string, promptTokens: number, window: number) {
  const available = Math.max(0, promptTokens - estimateTokens(fixedText));
  const fullTokens = estimateMessagesTokens(messages);
  const cut = truncateToolResults(messages, { contextWindowTokens: window });
  const cutTokens = cut.truncatedCount > 0 ? estimateMessagesTokens(cut.messages) : fullTokens;
  const route = chooseOverflowRoute({
    estimatedPromptTokens: fullTokens,
    promptBudgetTokens: available,
    toolResultSavingsTokens: fullTokens - cutTokens,
  });
  if (route === 'fits') {
    return {
      sent: messages,
      history: messages,
      route,
      omitted: 0,
      truncated: 0,
      historyTokens: fullTokens,
      fullTokens,
    };
  }
  const fitted = fitNewestTurns(cut.messages, available);
  return {
    sent: fitted.messages,
    history: cut.messages,
    route,
    omitted: fitted.omittedCount,
    truncated: cut.truncatedCount,
    historyTokens: estimateMessagesTokens(fitted.messages),
    fullTokens,
  };
}

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

function session(turns: number, toolOutputChars = 0): AgentMessage[] {
  const out: AgentMessage[] = [];
  for (let t = 0; t < turns; t += 1) {
    out.push({ kind: 'user', id: newId(), ts: t, text: `question ${t}: ${texts.cjk!.slice(0, 40 + t)}` });
    if (toolOutputChars > 0 && t === 1) {
      out.push({ kind: 'tool_call', id: newId(), ts: t, toolCallId: `c${t}`, toolName: 'exec', input: { t } });
      out.push({
        kind: 'tool_result',
        id: newId(),
        ts: t,
        toolCallId: `c${t}`,
        toolName: 'exec',
        output: 'log line: all fine\n'.repeat(toolOutputChars / 19),
      });
    }
    out.push({ kind: 'assistant', id: newId(), ts: t, text: `answer ${t}: ${texts.english!.slice(0, 200 + t * 7)}` });
  }
  return out;
}

const ids = (messages: readonly AgentMessage[]) => messages.map((m) => m.id);

async function compare(messages: AgentMessage[], fixedText: string, promptTokens: number, window: number) {
  const expected = exactAssembly(messages, fixedText, promptTokens, window);
  const e = engine();
  await e.bootstrap({ messages });
  const budget = budgetWithFixedText({ promptTokens, contextWindow: window, fixedText });
  const got: AssembledContext = await e.assemble(budget);
  expect(ids(got.messages)).toEqual(ids(expected.sent));
  expect(got.route).toBe(expected.route);
  expect(got.omittedCount).toBe(expected.omitted);
  expect(got.truncatedToolResults).toBe(expected.truncated);
  expect(got.historyTokens).toBe(expected.historyTokens);
  expect(got.requiredTokens).toBe(expected.fullTokens);
  expect(e.history().map((m) => (m.kind === 'tool_result' ? m.output.length : m.id))).toEqual(
    expected.history.map((m) => (m.kind === 'tool_result' ? m.output.length : m.id)),
  );
  // Whatever fits is sent whole and within budget by the exact count.
  if (got.route === 'fits') expect(budget.fixedTokens + got.historyTokens).toBeLessThanOrEqual(promptTokens);
  return got;
}

describe('assembly with the bound decides as exact counting did', () => {
  const fixedText = `You are Hearth.\n${texts.english}${texts.json}`;

  it('far under budget: everything is kept, settled by the bound alone', async () => {
    const messages = session(6);
    const budget = budgetWithFixedText({ promptTokens: 100_000, contextWindow: 128_000, fixedText });
    expect(fitsByUpperBound(messages, budget)).toBe(true);
    const got = await compare(messages, fixedText, 100_000, 128_000);
    expect(got.route).toBe('fits');
  });

  it('at the budget edge: exactly full fits, one token less trims, in between the bound defers to the count', async () => {
    const messages = session(8);
    const exactTotal = estimateTokens(fixedText) + estimateMessagesTokens(messages);
    const boundTotal = tokensUpperBound(fixedText) + messages.reduce((sum, m) => sum + messageTokensUpperBound(m), 0);
    expect(boundTotal).toBeGreaterThan(exactTotal);
    const window = exactTotal + 2_000;
    expect((await compare(messages, fixedText, exactTotal, window)).route).toBe('fits');
    expect((await compare(messages, fixedText, exactTotal + 1, window)).route).toBe('fits');
    expect((await compare(messages, fixedText, Math.floor((exactTotal + boundTotal) / 2), window)).route).toBe('fits');
    expect((await compare(messages, fixedText, boundTotal, window)).route).toBe('fits');
    const over = await compare(messages, fixedText, exactTotal - 1, window);
    expect(over.route).toBe('compact_only');
    expect(over.omittedCount).toBeGreaterThan(0);
  });

  it('with a big tool result: the same cut and the same turns kept on either side of the edge', async () => {
    const messages = session(5, 40_000);
    const exactTotal = estimateTokens(fixedText) + estimateMessagesTokens(messages);
    const window = 16_000;
    const routes = new Set<string>();
    for (const promptTokens of [exactTotal, exactTotal - 1, exactTotal - 500, Math.floor(exactTotal / 2), 3_000]) {
      routes.add((await compare(messages, fixedText, promptTokens, window)).route);
    }
    expect([...routes].sort()).toEqual(['compact_then_truncate', 'fits', 'truncate_tool_results_only']);
  });
});
