import { useT } from '../../app/stores-context.js';
import type { ChatMessage } from '../../stores/chat-message.js';
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

/** A tool call, collapsed to one line (name + input gist + approval); open it for input and output. */
function PlainToolCall({ message }: { message: ChatMessage }) {
  const t = useT();
  const gist = preview(message.toolInput);
  return (
    <details className="tool-call" open={message.approval === 'pending'}>
      <summary>
        <span className="tool-name">{t('chat.toolCall', { name: message.toolName ?? 'tool' })}</span>
        {gist && <code className="tool-gist">{gist.length > 90 ? `${gist.slice(0, 90)}…` : gist}</code>}
        {message.approval && (
          <span className={`badge ${approvalTone[message.approval]}`}>{t(`chat.approval.${message.approval}`)}</span>
        )}
        {message.status === 'streaming' && !message.approval && <span className="typing" aria-hidden="true" />}
      </summary>
      <div className="tool-detail">
        {message.toolInput !== undefined && <pre>{JSON.stringify(message.toolInput, null, 2)}</pre>}
        {message.toolOutput !== undefined && <pre className="tool-output">{message.toolOutput}</pre>}
      </div>
    </details>
  );
}
