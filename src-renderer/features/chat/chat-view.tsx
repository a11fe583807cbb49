import { useCallback, useEffect, useRef, useState } from 'react';
import { useDomain, useStores, useT } from '../../app/stores-context.js';
import type { ChatMessage } from '../../stores/chat-message.js';
import type { Transcript as TranscriptData } from '../../stores/chat-store.js';
import { Icon } from '../../ui/icons.js';
import { OnboardingCard } from '../onboarding/onboarding-card.js';
import { ChatDetailsMenu } from './cache-trace-panel.js';
import { useChatTitle } from './chat-title.js';
import { Composer } from './composer.js';
import { SessionList } from './session-list.js';
import { Transcript } from './transcript.js';
import './chat.css';

const noTranscript: TranscriptData = { messages: [], loading: false, loaded: false, hasMore: false };

export function ChatView({ viewport }: { viewport?: { width: number; height: number } }) {
  const t = useT();
  const { chat, sessions } = useStores();
  const sessionKey = useDomain('sessions', (s) => s.activeKey);
  // Readable even before the list has the chat (never the raw agent:main:main).
  const title = useChatTitle(sessionKey);
  // A reply seen streaming has no stored id yet: it forks by its run (through the end of that reply).
  const onFork = useCallback(
    (message: ChatMessage) =>
      void sessions
        .getState()
        .fork(sessionKey, message.stored || !message.runId ? { messageId: message.id } : { runId: message.runId }),
    [sessions, sessionKey],
  );
  const onRegenerate = useCallback(() => void chat.getState().retry(sessionKey), [chat, sessionKey]);
  const onEdit = useCallback((text: string) => void chat.getState().editLast(sessionKey, text), [chat, sessionKey]);
  const transcript = useDomain('chat', (s) => s.transcripts[sessionKey] ?? noTranscript);
  const models = useDomain('chat', (s) => s.models);
  const model = useDomain('chat', (s) => s.model);
  const modelError = useDomain('chat', (s) => s.modelError);
  const connected = useDomain('connection', (s) => s.connection.status === 'connected');
  const [sessionsOpen, setSessionsOpen] = useState(false);
  const root = useRef<HTMLDivElement>(null);
  const focusRequest = useDomain('ui', (s) => s.focusRequest);
  const { ui } = useStores();

  // A keyboard command (palette, shortcut) asked for the message box or the chat search: on a phone
  // the chat list slides in first, then the field takes focus once it is on screen.
  useEffect(() => {
    if (!focusRequest) return;
    ui.getState().clearFocusRequest();
    setSessionsOpen(focusRequest === 'chat-search');
    const selector = focusRequest === 'composer' ? '#composer-input' : '.session-search input[type="search"]';
    // Not cancelled when the request clears (that re-runs this effect at once); a gone view finds no field.
    requestAnimationFrame(() => root.current?.querySelector<HTMLElement>(selector)?.focus());
  }, [focusRequest, ui]);

  useEffect(() => {
    const state = chat.getState().transcripts[sessionKey];
    if (connected && !state?.loaded && !state?.loading) void chat.getState().load(sessionKey);
  }, [chat, sessionKey, connected]);

  const last = transcript.messages[transcript.messages.length - 1];
  const running = transcript.runId !== undefined;
  const canRetry = last?.role === 'assistant' && (last.status === 'error' || last.status === 'aborted');

  return (
    <div className={sessionsOpen ? 'chat sessions-open' : 'chat'} ref={root}>
      <SessionList onSelect={() => setSessionsOpen(false)} />
      <section className="conversation" aria-label={title}>
        <header className="conversation-header">
          <button
            type="button"
            className="button ghost icon sessions-toggle"
            aria-label={t('chat.sessions')}
            aria-expanded={sessionsOpen}
            onClick={() => setSessionsOpen((open) => !open)}
          >
            <Icon name="menu" />
          </button>
          <h1 className="conversation-title">{title}</h1>
          <button
            type="button"
            className="button small ghost"
            disabled={running}
            aria-label={t('chat.reset')}
            title={t('chat.reset')}
            onClick={() => void chat.getState().reset(sessionKey)}
          >
            <Icon name="plus" size={16} />
            <span className="wide-only">{t('chat.reset')}</span>
          </button>
          <label className="model-picker">
            <span className="sr-only">{t('chat.model')}</span>
            <select
              className="select"
              value={model ?? ''}
              title={modelError}
              aria-invalid={modelError ? true : undefined}
              onChange={(e) => {
                if (e.target.value) void chat.getState().setModel(e.target.value);
              }}
            >
              {!model && <option value="">{t('chat.modelDefault')}</option>}
              {models.map((m) => (
                <option key={m.id} value={m.id} disabled={!m.available}>
                  {m.provider ? `${m.provider} · ${m.name}` : m.name}
                </option>
              ))}
            </select>
          </label>
          <ChatDetailsMenu sessionKey={sessionKey} />
        </header>
        <OnboardingCard />
        {transcript.error && (
          <p className="notice" role="alert" style={{ margin: '8px 20px' }}>
            {t('common.error', { message: transcript.error })}
          </p>
        )}
        {transcript.hasMore && (
          <div className="load-older">
            <button
              type="button"
              className="button small"
              disabled={transcript.loading}
              onClick={() => void chat.getState().loadOlder(sessionKey)}
            >
              {t('chat.loadOlder')}
            </button>
          </div>
        )}
        <Transcript
          messages={transcript.messages}
          viewport={viewport}
          onFork={running ? undefined : onFork}
          onRegenerate={running ? undefined : onRegenerate}
          onEdit={running ? undefined : onEdit}
        />
        <Composer
          running={running}
          canRetry={canRetry}
          onSend={(text, attachments) => void chat.getState().send(sessionKey, text, attachments)}
          onAbort={() => void chat.getState().abort(sessionKey)}
          onRetry={() => void chat.getState().retry(sessionKey)}
        />
      </section>
    </div>
  );
}
