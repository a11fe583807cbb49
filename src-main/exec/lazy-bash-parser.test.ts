import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { silentLogger } from '../base/logger.js';
import { createFakeClock } from '../testing/fake-clock.js';
import { approvalsHistoryPath, createApprovalHistory } from './approval-history.js';
import { ApprovalService } from './approval-service.js';
import { BashParserNotReadyError, lazyBashParser, loadBashParser } from './bash-parser.js';
import { createCommandScreen } from './command-screen.js';

// Issue 23: the host's bash parser (web-tree-sitter, its WASM and the grammar) loads on the first
// command instead of while composing. Deny by default must hold across that gap: a command that
// reaches the parser before it has loaded is refused, never passed unparsed, and every async path
// that runs a command waits for the load first.
describe('the bash parser that loads on first use', () => {
  it('loads nothing until the first ready(), then parses real bash', async () => {
    let loads = 0;
    const parser = lazyBashParser(() => {
      loads++;
      return loadBashParser();
    });
    expect(loads).toBe(0);
    await Promise.all([parser.ready(), parser.ready()]);
    expect(loads).toBe(1);
    expect(parser.withTree('echo hi | wc -c', (root) => root.type)).toBe('program');
  });

  it('refuses to parse before it has loaded, naming why', () => {
    const parser = lazyBashParser();
    expect(() => parser.withTree('rm -rf /', () => 'parsed')).toThrow(BashParserNotReadyError);
    expect(() => parser.withTree('rm -rf /', () => 'parsed')).toThrow(/not loaded yet.*refused/);
  });

  it('tries again on the next command after a failed load', async () => {
    let attempts = 0;
    const parser = lazyBashParser(async () => {
      attempts++;
      if (attempts === 1) throw new Error('tree-sitter-bash.wasm is missing');
      return loadBashParser();
    });
    await expect(parser.ready()).rejects.toThrow('tree-sitter-bash.wasm is missing');
    await parser.ready();
    expect(attempts).toBe(2);
    expect(parser.withTree('ls', (root) => root.type)).toBe('program');
  });
});

describe('an approval requested before the parser has loaded', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'hearth-lazy-parser-'));
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('waits for the parser and still meets the hard floor', async () => {
    const parser = lazyBashParser();
    const published: string[] = [];
    const service = new ApprovalService({
      clock: createFakeClock(),
      events: { publish: (event) => published.push(event) },
      history: createApprovalHistory(approvalsHistoryPath(dir)),
      logger: silentLogger,
      hasWireApprovers: () => true,
      screen: createCommandScreen(parser, { home: '/home/me' }),
      screenReady: parser.ready,
    });
    try {
      // The very first command of the process, with the caller claiming it is harmless.
      const answer = await service.request({
        agentId: 'main',
        sessionKey: 'agent:main:main',
        command: 'rm -rf ~',
        analysis: { commands: [], findings: [], parseError: false },
        reasons: [],
        cwd: '/work',
        askFallback: 'full',
        allowlistSatisfied: true,
      });
      expect(answer).toMatchObject({ decision: 'deny', resolvedBy: 'hard-floor' });
      expect(answer.floor?.length).toBeGreaterThan(0);
      expect(published).toEqual([]);
    } finally {
      service.dispose();
    }
  });
});
