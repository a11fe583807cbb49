import { describe, expect, it } from 'vitest';
import { readApprovalView } from './read-approval-view.js';

describe('readApprovalView', () => {
  it('fills the top-level fields from a PROTOCOL.md §7-only request', () => {
    expect(readApprovalView({ id: 'a', request: { command: 'ls -la', cwd: '/w', host: 'node' } })).toMatchObject({
      id: 'a',
      command: 'ls -la',
      cwd: '/w',
      host: 'node',
      reasons: [],
      allowedDecisions: [],
      createdAtMs: 0,
    });
  });

  it('keeps well-formed parts and drops malformed ones', () => {
    const view = readApprovalView({
      id: 'b',
      command: 'rm x',
      reasons: ['plain', { code: 'c', detail: 'detailed' }, { message: 'older' }, 7],
      allowedDecisions: ['deny', 'maybe'],
      alwaysScopes: ['exact', 'everything'],
      allowAlways: [{ pattern: 'rm', argPattern: '^x$' }, { argPattern: 'no binary' }],
      subject: { kind: 'teleport', tool: 'x' },
      waiting: 'three',
    });
    expect(view).toMatchObject({
      reasons: [
        { code: '', detail: 'plain' },
        { code: 'c', detail: 'detailed' },
        { code: '', detail: 'older' },
      ],
      allowedDecisions: ['deny'],
      alwaysScopes: ['exact'],
      allowAlways: [{ pattern: 'rm', argPattern: '^x$' }],
    });
    expect(view).not.toHaveProperty('subject');
    expect(view).not.toHaveProperty('waiting');
  });

  it('has nothing to answer without an id or a command', () => {
    expect(readApprovalView({ command: 'ls' })).toBeUndefined();
    expect(readApprovalView({ id: 'c', request: {} })).toBeUndefined();
    expect(readApprovalView('not an object')).toBeUndefined();
  });
});
