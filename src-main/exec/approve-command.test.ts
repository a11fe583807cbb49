import { describe, expect, it } from 'vitest';
import type { ApprovalDecision } from './approval-types.js';
import { answerApproveCommand } from './approve-command.js';

function approvals(known: string[]) {
  const resolved: { id: string; decision: ApprovalDecision; resolvedBy: string }[] = [];
  return {
    resolved,
    resolve(id: string, decision: ApprovalDecision, resolvedBy: string) {
      if (!known.includes(id)) throw new Error(`unknown approval id: ${id}`);
      resolved.push({ id, decision, resolvedBy });
    },
  };
}

const operator = { clientId: 'ui-1', mayResolveApprovals: true };

describe('/approve from chat', () => {
  it('passes other text on to the agent', () => {
    expect(answerApproveCommand('approve it please', operator, approvals([]))).toBeUndefined();
  });

  it('resolves the approval in the name of the chat client', () => {
    const service = approvals(['a1']);
    expect(answerApproveCommand('/approve a1 allow-once', operator, service)).toEqual({
      name: 'approve',
      ok: true,
      reply: 'allow-once for approval a1',
    });
    expect(service.resolved).toEqual([{ id: 'a1', decision: 'allow-once', resolvedBy: 'chat:ui-1' }]);
  });

  it('refuses a sender without operator.approvals, naming the scope', () => {
    const service = approvals(['a1']);
    const reply = answerApproveCommand('/approve a1 deny', { clientId: 'x', mayResolveApprovals: false }, service);
    expect(reply).toMatchObject({ ok: false, reply: expect.stringContaining('operator.approvals') });
    expect(service.resolved).toEqual([]);
  });

  it('answers a malformed command or an unknown id with what was wrong', () => {
    expect(answerApproveCommand('/approve a1 maybe', operator, approvals(['a1']))).toMatchObject({
      ok: false,
      reply: expect.stringContaining('unknown decision "maybe"'),
    });
    expect(answerApproveCommand('/approve zz deny', operator, approvals(['a1']))).toMatchObject({
      ok: false,
      reply: 'unknown approval id: zz',
    });
  });
});
