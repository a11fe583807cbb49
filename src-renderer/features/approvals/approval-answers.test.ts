import { describe, expect, it } from 'vitest';
import { type PendingApproval, toPendingApproval } from '../../stores/approvals-store.js';
import { answerPlan, keyAction } from './approval-answers.js';

/** An exec request as the gateway publishes it, graded `level`. */
function request(level: 'safe' | 'caution' | 'destructive', more: Record<string, unknown> = {}): PendingApproval {
  const entry = toPendingApproval({
    id: 'ap1',
    agentId: 'main',
    sessionKey: 'agent:main:main',
    command: level === 'destructive' ? 'rm -r build' : 'ls -la',
    cwd: '/home/me/project',
    reasons: [{ code: 'allowlist-miss', detail: 'not on the allowlist' }],
    allowedDecisions: ['allow-once', 'allow-always', 'deny'],
    allowSession: true,
    suggested: 'once',
    alwaysScopes: level === 'destructive' ? ['exact', 'folder'] : ['binary', 'exact', 'folder'],
    allowAlways: [{ pattern: '/usr/bin/ls' }],
    allowAlwaysExact: [{ pattern: '/usr/bin/ls', argPattern: '^-la$' }],
    allowAlwaysFolder: [{ pattern: '/usr/bin/ls', argPattern: '^-la$', cwdWithin: '/home/me/project' }],
    risk: {
      level,
      because: level === 'destructive' ? [{ code: 'deletes', detail: 'rm -r deletes folders' }] : [],
      writes: level === 'destructive' ? ['build'] : [],
      network: false,
    },
    createdAtMs: 1,
    expiresAtMs: 2,
    ...more,
  });
  if (!entry) throw new Error('not a request');
  return entry;
}

describe('answer plan by risk', () => {
  it('reads the risk grade and the folder "always" would be limited to', () => {
    const entry = request('destructive');
    expect(entry.risk).toEqual({
      level: 'destructive',
      because: [{ code: 'deletes', detail: 'rm -r deletes folders' }],
      writes: ['build'],
      network: false,
    });
    expect(entry.alwaysFolder).toBe('/home/me/project');
  });

  it('a safe command: allow once first and focused, for this chat, every "always" the gateway offers', () => {
    expect(answerPlan(request('safe'))).toEqual({
      destructive: false,
      primary: 'allow-once',
      session: true,
      alwaysScopes: ['binary', 'exact', 'folder'],
      deny: true,
      focus: 'allow',
    });
  });

  it('a destructive command: Deny focused, "always" only for the exact arguments or the folder', () => {
    const plan = answerPlan(request('destructive'));
    expect(plan).toMatchObject({ destructive: true, focus: 'deny', alwaysScopes: ['exact', 'folder'] });
    // Even a gateway that offered the whole binary does not get it offered for a destructive command.
    expect(answerPlan(request('destructive', { alwaysScopes: ['binary', 'exact'] })).alwaysScopes).toEqual(['exact']);
  });

  it('single keys: A / F / S / D on a safe command; only D on a destructive one', () => {
    const safe = request('safe');
    expect(keyAction(safe, 'a')).toEqual({ answer: 'allow-once' });
    expect(keyAction(safe, 'F')).toEqual({ answer: 'allow-session' });
    expect(keyAction(safe, 's')).toEqual({ openAlways: true });
    expect(keyAction(safe, 'd')).toEqual({ answer: 'deny' });
    expect(keyAction(safe, 'x')).toBeUndefined();
    const destructive = request('destructive');
    for (const key of ['a', 'A', 'f', 's', 'S']) expect(keyAction(destructive, key)).toBeUndefined();
    expect(keyAction(destructive, 'd')).toEqual({ answer: 'deny' });
  });

  it('a request without "always" or "session" offers neither, by key or button', () => {
    const entry = request('caution', {
      allowedDecisions: ['allow-once', 'deny'],
      allowSession: false,
      alwaysScopes: [],
    });
    expect(answerPlan(entry)).toMatchObject({ session: false, alwaysScopes: [] });
    expect(keyAction(entry, 's')).toBeUndefined();
    expect(keyAction(entry, 'f')).toBeUndefined();
  });
});
