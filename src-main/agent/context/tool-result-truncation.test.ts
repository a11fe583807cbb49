import { describe, expect, it } from 'vitest';
import type { AgentMessage, ToolResultMessage } from '../messages.js';
import {
  TOOL_RESULT_MIN_HEAD_CHARS,
  tailHoldsError,
  toolResultCharLimit,
  truncateToolOutput,
  truncateToolResults,
} from './tool-result-truncation.js';

const filler = (n: number, ch = 'a') => ch.repeat(n);

describe('toolResultCharLimit', () => {
  it('is 16 000 chars on a large context', () => {
    expect(toolResultCharLimit(200_000)).toBe(16_000);
  });
  it('is 30% of a small context (in chars, margin applied)', () => {
    // 8 000 tokens × 0.3 × 4 chars / 1.2 = 8 000 chars
    expect(toolResultCharLimit(8_000)).toBe(8_000);
  });
  it('never goes below the 2 000-char head', () => {
    expect(toolResultCharLimit(1_000)).toBe(TOOL_RESULT_MIN_HEAD_CHARS);
  });
  it('rejects a bad context window by name', () => {
    expect(() => toolResultCharLimit(0)).toThrow(/contextWindowTokens/);
  });
});

describe('truncateToolOutput', () => {
  it('leaves output at the limit untouched', () => {
    const text = filler(16_000);
    expect(truncateToolOutput(text, 16_000)).toMatchObject({ text, truncated: false });
  });

  it('keeps exactly the head when the tail is ordinary', () => {
    const text = `${filler(10_000, 'h')}${filler(10_000, 't')}`;
    const result = truncateToolOutput(text, 16_000);
    expect(result).toMatchObject({
      truncated: true,
      headChars: 16_000,
      tailChars: 0,
      keptChars: 16_000,
      originalChars: 20_000,
    });
    expect(result.text.startsWith(filler(10_000, 'h') + filler(6_000, 't'))).toBe(true);
    expect(result.text).toContain('[… 4000 of 20000 characters cut from this tool result');
    expect(result.text.endsWith('…]\n\n')).toBe(true);
  });

  it('keeps the tail when it holds an error', () => {
    const tail = `${filler(100, 'x')}\nTraceback (most recent call last):\n  File "x.py"\nValueError: bad`;
    const text = filler(30_000, 'h') + tail;
    const result = truncateToolOutput(text, 16_000);
    expect(result.tailChars).toBe(4_800);
    expect(result.headChars).toBe(11_200);
    expect(result.text.endsWith('ValueError: bad')).toBe(true);
    expect(result.text).toContain('characters cut from this tool result');
  });

  it('keeps at least 2 000 head chars even with an error tail at the smallest limit', () => {
    const text = `${filler(5_000)}\nError: boom`;
    const result = truncateToolOutput(text, 2_000);
    expect(result.headChars).toBe(2_000);
    expect(result.tailChars).toBe(0);
  });

  it('detects error words only in the tail', () => {
    expect(tailHoldsError(`error at start${filler(5_000)}`)).toBe(false);
    expect(tailHoldsError(`${filler(5_000)} Uncaught Exception`)).toBe(true);
  });
});

describe('truncateToolResults', () => {
  it('marks cut results and reports the original size, even when cut twice', () => {
    const big: ToolResultMessage = {
      kind: 'tool_result',
      id: 'r1',
      ts: 1,
      toolCallId: 'c1',
      toolName: 'exec',
      output: filler(50_000),
    };
    const messages: AgentMessage[] = [{ kind: 'user', id: 'u1', ts: 0, text: 'run it' }, big];
    const once = truncateToolResults(messages, { contextWindowTokens: 200_000 });
    const cut = once.messages[1] as ToolResultMessage;
    expect(once.truncatedCount).toBe(1);
    expect(cut.truncated).toEqual({ originalChars: 50_000, keptChars: 16_000 });
    expect(once.messages[0]).toBe(messages[0]);
    const twice = truncateToolResults(once.messages, { contextWindowTokens: 8_000 });
    expect((twice.messages[1] as ToolResultMessage).truncated).toEqual({ originalChars: 50_000, keptChars: 8_000 });
  });
});
