import { describe, expect, it } from 'vitest';
import type { ApprovalHistoryEntry } from '../../exec/index.js';
import { historyItem } from './openclaw-agents.js';

const base: ApprovalHistoryEntry = {
  id: 'a1',
  agentId: 'main',
  sessionKey: 'agent:main:main',
  command: 'echo hi',
  programs: [{ name: 'echo', args: ['hi'] }],
  decision: 'allow-once',
  resolvedBy: 'operator:openclaw-control-ui',
  requestedAtMs: 1000,
  decidedAtMs: 2000,
};

describe("approval.history in OpenClaw's closed record", () => {
  it.each([
    [{}, { status: 'allowed', decision: 'allow-once', reason: 'user', resolver: { kind: 'device' } }],
    [{ decision: 'deny' }, { status: 'denied', decision: 'deny', reason: 'user' }],
    [
      { decision: 'deny', resolvedBy: 'no-approver' },
      { status: 'denied', reason: 'no-route', resolver: { kind: 'system' } },
    ],
    [
      { decision: 'deny', resolvedBy: 'expiry' },
      { status: 'expired', reason: 'timeout' },
    ],
    [
      { decision: 'deny', resolvedBy: 'cancelled' },
      { status: 'cancelled', reason: 'gateway-restart' },
    ],
    [{ resolvedBy: 'chat:telegram' }, { status: 'allowed', resolver: { kind: 'channel', id: 'chat:telegram' } }],
    [{ resolvedBy: 'smart-judge' }, { resolver: { kind: 'runtime' } }],
  ] as const)('%j → %j', (change, expected) => {
    const item = historyItem({ ...base, ...change } as ApprovalHistoryEntry);
    expect(item).toMatchObject(expected);
    expect(item).toMatchObject({
      urlPath: '/approve/a1',
      presentation: { kind: 'exec', commandText: 'echo hi', nodeId: null },
      resolvedAtMs: 2000,
    });
    // Expired and cancelled records carry no decision in OpenClaw's schema.
    if (item.status === 'expired' || item.status === 'cancelled') expect(item).not.toHaveProperty('decision');
  });
});
