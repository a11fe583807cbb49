import { type ChangeEvent, type FormEvent, type KeyboardEvent, useRef, useState } from 'react';
import { useT } from '../../app/stores-context.js';
import type { OutgoingAttachment } from '../../stores/chat-store.js';
import { Icon } from '../../ui/icons.js';
import { AttachmentChip } from './attachment-chip.js';

export interface ComposerProps {
  running: boolean;
  canRetry: boolean;
  onSend(text: string, attachments: OutgoingAttachment[]): void;
  onAbort(): void;
  onRetry(): void;
}

const MAX_ATTACHMENT_BYTES = 10 * 1024 * 1024;

async function readAttachment(file: File): Promise<OutgoingAttachment> {
  if (file.size > MAX_ATTACHMENT_BYTES) throw new Error(`${file.name} is larger than 10 MB`);
  const bytes = new Uint8Array(await file.arrayBuffer());
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return { name: file.name, mediaType: file.type || 'application/octet-stream', data: btoa(binary) };
}

/** Enter sends, Shift+Enter breaks the line; while a run streams the send button becomes Stop. */
export function Composer({ running, canRetry, onSend, onAbort, onRetry }: ComposerProps) {
  const t = useT();
  const [text, setText] = useState('');
  const [attachments, setAttachments] = useState<(OutgoingAttachment & { id: number })[]>([]);
  const nextId = useRef(0);
  const [attachError, setAttachError] = useState<string>();
  const fileRef = useRef<HTMLInputElement>(null);

  const submit = (event?: FormEvent) => {
    event?.preventDefault();
    if (running || (!text.trim() && attachments.length === 0)) return;
    onSend(
      text,
      attachments.map(({ id: _id, ...a }) => a),
    );
    setText('');
    setAttachments([]);
  };
  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (event.key === 'Enter' && !event.shiftKey && !event.nativeEvent.isComposing) {
      event.preventDefault();
      submit();
    }
  };
  const onFiles = async (event: ChangeEvent<HTMLInputElement>) => {
    const files = [...(event.target.files ?? [])];
    event.target.value = '';
    try {
      const read = await Promise.all(files.map(readAttachment));
      setAttachments((current) => [...current, ...read.map((a) => ({ ...a, id: ++nextId.current }))]);
      setAttachError(undefined);
    } catch (error) {
      setAttachError(error instanceof Error ? error.message : String(error));
    }
  };

  return (
    <form className="composer" onSubmit={submit}>
      {(attachments.length > 0 || attachError) && (
        <div className="composer-attachments">
          {attachments.map((a) => (
            <AttachmentChip
              key={a.id}
              name={a.name}
              mediaType={a.mediaType}
              size={Math.floor((a.data.length * 3) / 4)}
              removeLabel={t('chat.removeAttachment', { name: a.name })}
              onRemove={() => setAttachments((current) => current.filter((b) => b.id !== a.id))}
            />
          ))}
          {attachError && <span className="error-text">{attachError}</span>}
        </div>
      )}
      <div className="composer-box">
        <button
          type="button"
          className="button ghost icon"
          aria-label={t('chat.attach')}
          title={t('chat.attach')}
          onClick={() => fileRef.current?.click()}
        >
          <Icon name="paperclip" />
        </button>
        <input ref={fileRef} type="file" multiple hidden onChange={onFiles} aria-hidden="true" tabIndex={-1} />
        <textarea
          id="composer-input"
          className="composer-input"
          rows={1}
          value={text}
          placeholder={t('chat.placeholder')}
          aria-label={t('chat.placeholder')}
          onChange={(e) => setText(e.target.value)}
          onKeyDown={onKeyDown}
        />
        {canRetry && !running && (
          <button type="button" className="button small" onClick={onRetry}>
            {t('chat.retry')}
          </button>
        )}
        {running ? (
          <button
            type="button"
            className="button icon stop"
            onClick={onAbort}
            aria-label={t('chat.abort')}
            title={t('chat.abortHint')}
          >
            <Icon name="stop" />
          </button>
        ) : (
          <button
            type="submit"
            className="button primary icon"
            aria-label={t('chat.send')}
            disabled={!text.trim() && attachments.length === 0}
          >
            <Icon name="send" />
          </button>
        )}
      </div>
    </form>
  );
}
