import { spawnSync } from 'node:child_process';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { ExecOutcome } from '../../exec/exec-host.js';
import { formatOutcome } from '../../exec/exec-tool.js';
import type { AgentMessage, ToolResultMessage } from '../messages.js';
import {
  TOOL_RESULT_MIN_HEAD_CHARS,
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

  it('keeps the head and the tail, and says how much was cut', () => {
    const text = `${filler(10_000, 'h')}${filler(10_000, 't')}`;
    const result = truncateToolOutput(text, 16_000);
    expect(result).toMatchObject({
      truncated: true,
      headChars: 10_400,
      tailChars: 5_600,
      keptChars: 16_000,
      originalChars: 20_000,
    });
    expect(result.text.startsWith(filler(10_000, 'h') + filler(400, 't'))).toBe(true);
    expect(result.text.endsWith(filler(5_600, 't'))).toBe(true);
    expect(result.text).toContain('[… 4000 of 20000 characters cut here; read them with a narrower request');
  });

  it('keeps the end of a failed command: `seq 1 30000; cat /nonexistent` through the exec tool', () => {
    const run = spawnSync('bash', ['-c', 'seq 1 30000; cat /nonexistent'], { encoding: 'utf8' });
    const outcome: ExecOutcome = {
      status: 'ran',
      sandbox: 'local',
      reasons: [],
      result: {
        output: run.stdout + run.stderr,
        exitCode: run.status,
        signal: null,
        truncated: false,
        timedOut: false,
        aborted: false,
      },
    };
    const { output } = formatOutcome(outcome);
    const result = truncateToolOutput(output, toolResultCharLimit(200_000));
    expect(result.truncated).toBe(true);
    expect(result.text).toMatch(/cat: \/nonexistent: No such file or directory\n\[exit code 1\]$/);
    expect(result.text.startsWith('1\n2\n3\n')).toBe(true);
    // Whole lines on both sides, and the marker names the missing lines so the model can ask for them.
    const [head, tail] = result.text.split(/\n\[… [^\]]*…\]\n/);
    expect(head?.endsWith('\n')).toBe(true);
    const firstTail = Number(tail?.split('\n')[0]);
    const lastHead = Number(head?.trimEnd().split('\n').at(-1));
    expect(result.text).toContain(`(lines ${lastHead + 1}–${firstTail - 1} of 30002)`);
    expect(result.text).toContain(`sed -n '${lastHead + 1},${firstTail - 1}p'`);
  });

  it('keeps the end of any output: the last line and status survive whatever comes before', () => {
    const line = fc.stringMatching(/^[a-z0-9 ]{0,120}$/);
    fc.assert(
      fc.property(
        fc.array(line, { minLength: 1, maxLength: 3000 }),
        fc.constantFrom('[exit code 1]', '[exit code 0]', '[killed: timed out]', '[killed by SIGKILL]'),
        fc.integer({ min: 2_000, max: 16_000 }),
        (lines, status, limit) => {
          const text = `${lines.join('\n')}\nlast line of output\n${status}`;
          const result = truncateToolOutput(text, limit);
          expect(result.text.endsWith(`last line of output\n${status}`)).toBe(true);
          expect(result.keptChars).toBeLessThanOrEqual(Math.max(limit, text.length));
          if (result.truncated) {
            expect(result.text).toMatch(/\[… \d+ of \d+ characters cut here/);
            expect(result.headChars + result.tailChars + Number(/… (\d+) of/.exec(result.text)?.[1])).toBe(text.length);
            // The tail gets a real share, never only the status line.
            expect(result.tailChars).toBeGreaterThanOrEqual(Math.floor(limit * 0.35 * 0.8));
          }
        },
      ),
    );
  });

  it('keeps the end of one long line without line breaks (minified output)', () => {
    const text = `${filler(40_000, 'm')}END`;
    const result = truncateToolOutput(text, 8_000);
    expect(result.text.endsWith('END')).toBe(true);
    expect(result.text).toContain('characters cut here; read them with a narrower request (a byte range');
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
