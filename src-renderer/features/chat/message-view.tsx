import { memo, useState } from 'react';
import { useT } from '../../app/stores-context.js';
import type { MessageKey } from '../../i18n/en.js';
import type { Translate } from '../../i18n/translate.js';
import type { ChatMessage } from '../../stores/chat-message.js';
import { Icon } from '../../ui/icons.js';
import { AttachmentChip } from './attachment-chip.js';
import { CopyButton } from './copy-button.js';
import { Markdown } from './markdown.js';
import { MemorySearchCall } from './memory-search-call.js';
import { ToolCallView } from './tool-call-view.js';

/** What can be done to a message; each is offered only where it makes sense (see Transcript). */
export interface MessageActions {
  /** A new chat with the transcript up to this message. */
  onFork?: (message: ChatMessage) => void;
  /** Regenerate (a finished answer) or Retry (a failed or stopped one): the last answer only. */
  onRegenerate?: () => void;
  /** Edit and resend: the person's last message only. */
  onEdit?: (text: string) => void;
}

/** "openai/gpt-4o" → "gpt-4o": the provider is in the model picker; here the name is enough. */
function modelName(model: string): string {
  return model.slice(model.indexOf('/') + 1);
}

function when(ts: number): string {
  const date = new Date(ts);
  const today = new Date().toDateString() === date.toDateString();
  return today
    ? date.toLocaleTimeString(undefined, { hour: '2-digit', minute: '2-digit' })
    : date.toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });
}

function Meta({ message }: { message: ChatMessage }) {
  const t = useT();
  const parts = [message.model ? modelName(message.model) : undefined, message.ts ? when(message.ts) : undefined];
  if (!parts.some(Boolean)) return null;
  return (
    <span
      className="msg-meta"
      title={message.model ? t('chat.answeredBy', { model: message.model }) : undefined}
      data-testid="msg-meta"
    >
      {parts.filter(Boolean).join(' · ')}
    </span>
  );
}

function EditBox({ initial, onSend, onCancel }: { initial: string; onSend(text: string): void; onCancel(): void }) {
  const t = useT();
  const [draft, setDraft] = useState(initial);
  return (
    <form
      className="msg-edit"
      onSubmit={(event) => {
        event.preventDefault();
        if (draft.trim()) onSend(draft);
      }}
    >
      <textarea
        className="textarea"
        value={draft}
        rows={Math.min(8, Math.max(2, draft.split('\n').length))}
        aria-label={t('chat.editMessage')}
        // biome-ignore lint/a11y/noAutofocus: the person just asked to edit this message
        autoFocus
        onChange={(e) => setDraft(e.target.value)}
        onKeyDown={(e) => {
          if (e.key === 'Escape') onCancel();
          if (e.key === 'Enter' && !e.shiftKey && !e.nativeEvent.isComposing) {
            e.preventDefault();
            if (draft.trim()) onSend(draft);
          }
        }}
      />
      <div className="row msg-edit-buttons">
        <span className="faint">{t('chat.editHint')}</span>
        <button type="button" className="button small" onClick={onCancel}>
          {t('common.cancel')}
        </button>
        <button type="submit" className="button small primary" disabled={!draft.trim()}>
          {t('chat.editSend')}
        </button>
      </div>
    </form>
  );
}

export const MessageView = memo(function MessageView({
  message,
  actions = {},
}: {
  message: ChatMessage;
  actions?: MessageActions;
}) {
  const t = useT();
  const [editing, setEditing] = useState(false);
  // Recall the agent did shows as the notes it read; anything waiting on an approval stays a tool call.
  if (message.role === 'tool' && message.toolName === 'memory_search' && !message.approval) {
    return <MemorySearchCall message={message} />;
  }
  if (message.role === 'tool') return <ToolCallView message={message} />;
  if (message.role === 'notice') return <div className="msg-notice">{message.text}</div>;
  const mine = message.role === 'user';
  const settled = message.status !== 'streaming';
  const forkable =
    message.stored || (message.role === 'assistant' && message.runId !== undefined && message.status === 'done');
  const failed = message.status === 'error' || message.status === 'aborted';
  const bar = settled && (
    <div className="msg-actions">
      <Meta message={message} />
      {message.text && <CopyButton text={message.text} />}
      {mine && actions.onEdit && (
        <button
          type="button"
          className="button small ghost icon-text"
          aria-label={t('chat.edit')}
          title={t('chat.edit')}
          onClick={() => setEditing(true)}
        >
          <Icon name="edit" size={14} />
        </button>
      )}
      {!mine && actions.onRegenerate && (
        <button
          type="button"
          className="button small ghost icon-text"
          aria-label={failed ? t('chat.retry') : t('chat.regenerate')}
          title={failed ? t('chat.retryHint') : t('chat.regenerateHint')}
          onClick={actions.onRegenerate}
        >
          <Icon name="regenerate" size={14} />
          {failed && <span>{t('chat.retry')}</span>}
        </button>
      )}
      {actions.onFork && forkable && (
        <button
          type="button"
          className="button small ghost"
          title={t('chat.forkHint')}
          onClick={() => actions.onFork?.(message)}
        >
          {t('chat.fork')}
        </button>
      )}
    </div>
  );
  const attachments = message.attachments && message.attachments.length > 0 && (
    <ul className="msg-attachments" aria-label={t('chat.attachments')}>
      {message.attachments.map((a, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: two files may share a name; the list never reorders
        <li key={`${a.name}-${i}`}>
          <AttachmentChip name={a.name} mediaType={a.mediaType} />
        </li>
      ))}
    </ul>
  );
  if (mine) {
    return (
      <article className="msg msg-user" aria-label={t('chat.you')}>
        {editing && actions.onEdit ? (
          <EditBox
            initial={message.text}
            onCancel={() => setEditing(false)}
            onSend={(text) => {
              setEditing(false);
              actions.onEdit?.(text);
            }}
          />
        ) : (
          <>
            <div className="msg-bubble">
              {message.text && <p className="msg-plain">{message.text}</p>}
              {attachments}
            </div>
            {bar}
          </>
        )}
      </article>
    );
  }
  return (
    <article className="msg msg-assistant" aria-label={t('chat.assistant')}>
      <div className="msg-body">
        {message.text && <Markdown text={message.text} />}
        {message.status === 'streaming' && message.waiting && (
          <p className="msg-waiting" role="status">
            {t('chat.waiting', {
              seconds: String(Math.ceil(message.waiting.waitMs / 1000)),
              reason: waitReasonText(t, message.waiting.reason),
            })}
          </p>
        )}
        {message.status === 'streaming' && (
          <span className="typing" role="status">
            <span className="sr-only">{t('chat.streaming')}</span>
          </span>
        )}
        {message.status === 'aborted' && (
          <p className="msg-stopped" role="status">
            {message.text ? t('chat.stoppedKept') : t('chat.stoppedEmpty')}
          </p>
        )}
        {message.status === 'error' && (
          <p className="notice" role="alert">
            {t('chat.failed', { message: message.error ?? '' })}
          </p>
        )}
      </div>
      {bar}
    </article>
  );
});

/** The failover reasons a wait can follow (src-main/providers/failover-error.ts), in the person's words. */
const waitReasonKey: Record<string, MessageKey> = {
  rate_limit: 'chat.why.rate_limit',
  overloaded: 'chat.why.overloaded',
  server_error: 'chat.why.server_error',
  timeout: 'chat.why.timeout',
  auth: 'chat.why.auth',
  billing: 'chat.why.billing',
  empty_response: 'chat.why.empty_response',
};

function waitReasonText(t: Translate, reason: string): string {
  const key = Object.hasOwn(waitReasonKey, reason) ? waitReasonKey[reason] : undefined;
  return key ? t(key) : t('chat.why.other', { reason });
}
