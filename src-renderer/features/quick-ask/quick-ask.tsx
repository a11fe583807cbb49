import { type KeyboardEvent, useEffect, useRef, useState } from 'react';
import { useDomain, useStores, useT } from '../../app/stores-context.js';
import './quick-ask.css';

export interface QuickAskProps {
  /**
   * The question is in its chat: show that chat. The page points its hash at the chat
   * (`#/sessions/<key>`); in the desktop the shell takes that to the main window and
   * hides this one, in a browser the page becomes the full app on that chat.
   */
  openChat(sessionKey: string): void;
  /** Esc: put the composer away (the desktop hides its window; a browser tab has nothing to hide). */
  dismiss?: () => void;
}

/**
 * The quick-ask composer: one box, Enter asks. Every question starts a new chat of the
 * default agent, so a quick question never lands in the middle of another conversation.
 * A refusal (no model, a paused agent) is shown here, where the person asked.
 */
export function QuickAsk({ openChat, dismiss }: QuickAskProps) {
  const t = useT();
  const { sessions, chat } = useStores();
  const status = useDomain('connection', (s) => s.connection.status);
  const [text, setText] = useState('');
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string>();
  const input = useRef<HTMLTextAreaElement>(null);
  const connected = status === 'connected';

  useEffect(() => {
    input.current?.focus();
    // The desktop shows this page again and again: focus the box each time the window is.
    const refocus = () => input.current?.focus();
    window.addEventListener('focus', refocus);
    return () => window.removeEventListener('focus', refocus);
  }, []);

  const ask = async () => {
    const question = text.trim();
    if (!question || busy || !connected) return;
    setBusy(true);
    setProblem(undefined);
    await sessions.getState().create();
    const { activeKey, error } = sessions.getState();
    if (error) {
      setBusy(false);
      setProblem(error);
      return;
    }
    // Loaded (empty) before the question goes: the chat view then shows the live run instead of
    // loading a history that may predate it.
    await chat.getState().load(activeKey);
    await chat.getState().send(activeKey, question);
    const last = chat.getState().transcripts[activeKey]?.messages.at(-1);
    setBusy(false);
    if (last?.status === 'error' && last.sendRefused) {
      setProblem(last.error ?? t('quickAsk.refused'));
      return;
    }
    setText('');
    openChat(activeKey);
  };

  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (event.key === 'Enter' && !event.shiftKey && !event.nativeEvent.isComposing) {
      event.preventDefault();
      void ask();
    } else if (event.key === 'Escape' && dismiss) {
      event.preventDefault();
      dismiss();
    }
  };

  return (
    <form
      className="quick-ask"
      aria-label={t('quickAsk.title')}
      onSubmit={(event) => {
        event.preventDefault();
        void ask();
      }}
    >
      <div className="quick-ask-row">
        <span className="brand-mark" aria-hidden="true" />
        <textarea
          ref={input}
          className="quick-ask-input"
          aria-label={t('quickAsk.title')}
          placeholder={t('quickAsk.placeholder')}
          value={text}
          rows={2}
          disabled={busy}
          onChange={(event) => setText(event.target.value)}
          onKeyDown={onKeyDown}
        />
        <button type="submit" className="button primary" disabled={!connected || busy || text.trim() === ''}>
          {busy ? t('quickAsk.sending') : t('quickAsk.send')}
        </button>
      </div>
      <p className={problem ? 'quick-ask-status error' : 'quick-ask-status'} role={problem ? 'alert' : 'status'}>
        {problem ?? (connected ? t('quickAsk.hint') : t('quickAsk.connecting'))}
      </p>
    </form>
  );
}
