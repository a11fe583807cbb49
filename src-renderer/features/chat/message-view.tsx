import { memo } from 'react';
import { useT } from '../../app/stores-context.js';
import type { ChatMessage } from '../../stores/chat-message.js';
import { Markdown } from './markdown.js';
import { ToolCallView } from './tool-call-view.js';

export const MessageView = memo(function MessageView({
  message,
  onFork,
}: {
  message: ChatMessage;
  /** Offered on stored messages and finished replies: a new chat with the transcript up to this message. */
  onFork?: (message: ChatMessage) => void;
}) {
  const t = useT();
  const forkable =
    message.stored || (message.role === 'assistant' && message.runId !== undefined && message.status === 'done');
  const actions =
    onFork && forkable && message.status !== 'streaming' ? (
      <div className="msg-actions">
        <button type="button" className="button small ghost" title={t('chat.forkHint')} onClick={() => onFork(message)}>
          {t('chat.fork')}
        </button>
      </div>
    ) : null;
  if (message.role === 'tool') return <ToolCallView message={message} />;
  if (message.role === 'notice') return <div className="msg-notice">{message.text}</div>;
  const mine = message.role === 'user';
  return (
    <article
      className={mine ? 'msg msg-user' : 'msg msg-assistant'}
      aria-label={mine ? t('chat.you') : t('chat.assistant')}
    >
      {mine ? (
        <div className="msg-bubble">
          <p className="msg-plain">{message.text}</p>
          {message.attachments && message.attachments.length > 0 && (
            <ul className="msg-attachments">
              {message.attachments.map((a) => (
                <li key={a.name} className="badge plain">
                  {a.name}
                </li>
              ))}
            </ul>
          )}
          {actions}
        </div>
      ) : (
        <div className="msg-body">
          {message.text && <Markdown text={message.text} />}
          {message.status === 'streaming' && (
            <span className="typing" role="status">
              <span className="sr-only">{t('chat.streaming')}</span>
            </span>
          )}
          {message.status === 'aborted' && <p className="faint">{t('chat.aborted')}</p>}
          {message.status === 'error' && (
            <p className="notice" role="alert">
              {t('chat.failed', { message: message.error ?? '' })}
            </p>
          )}
          {actions}
        </div>
      )}
    </article>
  );
});
