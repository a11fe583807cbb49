import { useDomain, useT } from '../../app/stores-context.js';
import type { PendingApproval } from '../../stores/approvals-store.js';
import type { ChatMessage } from '../../stores/chat-message.js';
import { describeDecider } from '../../stores/decider.js';
import { ApprovalCard } from './approval-card.js';
import { SubagentCardView } from './subagent-card.js';

const approvalTone = { pending: 'warn', allowed: 'ok', denied: 'danger' } as const;

function preview(value: unknown): string {
  if (value === undefined) return '';
  if (typeof value === 'string') return value;
  const record = value as Record<string, unknown>;
  if (record && typeof record.command === 'string') return record.command;
  return JSON.stringify(value);
}

/** A subagent's spawn shows as its live card; any other tool call as a collapsed line. */
export function ToolCallView({ message }: { message: ChatMessage }) {
  return message.toolName === 'sessions_spawn' ? (
    <SubagentCardView message={message} />
  ) : (
    <PlainToolCall message={message} />
  );
}

/**
 * The pending approval this tool call waits on: the one the chat store tied to it, or (a page that
 * opened after the request was published) a pending request for the same command while the call runs.
 */
function useWaitingOn(message: ChatMessage): PendingApproval | undefined {
  const command = preview(message.toolInput);
  return useDomain('approvals', (s) =>
    message.approvalId
      ? s.pending.find((p) => p.id === message.approvalId)
      : message.status === 'streaming' && message.approval === undefined && message.toolName === 'exec'
        ? s.pending.find((p) => p.command === command)
        : undefined,
  );
}

/**
 * A tool call, collapsed to one line (name + input gist + approval and who answered it); open it for
 * input and output. While it waits on an approval, the approval card sits inside it, open.
 */
function PlainToolCall({ message }: { message: ChatMessage }) {
  const t = useT();
  const gist = preview(message.toolInput);
  const waitingOn = useWaitingOn(message);
  const approval = message.approval ?? (waitingOn ? 'pending' : undefined);
  const decider = message.decision && describeDecider(message.decision.by);
  return (
    <details className="tool-call" open={approval === 'pending'} data-approval={approval}>
      <summary>
        <span className="tool-name">{t('chat.toolCall', { name: message.toolName ?? 'tool' })}</span>
        {/* While the card asks, it shows the whole command; the line would only repeat it. */}
        {gist && !waitingOn && <code className="tool-gist">{gist.length > 90 ? `${gist.slice(0, 90)}…` : gist}</code>}
        {approval && <span className={`badge ${approvalTone[approval]}`}>{t(`chat.approval.${approval}`)}</span>}
        {message.decision && decider && approval !== 'pending' && (
          <span className="tool-decider" data-testid="approval-decider">
            {t(`chat.approval.by.${message.decision.decision}`, { who: t(decider.key, { name: decider.name ?? '' }) })}
          </span>
        )}
        {message.status === 'streaming' && !approval && <span className="typing" aria-hidden="true" />}
      </summary>
      <div className="tool-detail">
        {waitingOn && <ApprovalCard entry={waitingOn} />}
        {message.toolInput !== undefined && <pre>{JSON.stringify(message.toolInput, null, 2)}</pre>}
        {message.toolOutput !== undefined && <pre className="tool-output">{message.toolOutput}</pre>}
      </div>
    </details>
  );
}
