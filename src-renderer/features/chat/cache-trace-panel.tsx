import { useEffect, useRef, useState } from 'react';
import { useDomain, useStores, useT } from '../../app/stores-context.js';
import { Icon } from '../../ui/icons.js';
import { formatTime } from '../../ui/use-now.js';

/**
 * "Why did the prompt cache miss?" for the open conversation: each recent model call with its
 * verdict from the cache trace (first call, prefix stable, or where the prefix changed).
 */
function CacheTrace({ sessionKey }: { sessionKey: string }) {
  const t = useT();
  const trace = useDomain('chat', (s) => s.cacheTrace[sessionKey]);
  return (
    <section aria-labelledby="chat-details-cache">
      <h2 id="chat-details-cache">{t('chat.cacheTrace')}</h2>
      {trace?.error && <p role="alert">{t('common.error', { message: trace.error })}</p>}
      {(!trace || (!trace.error && trace.calls.length === 0)) && <p className="faint">{t('chat.cacheTraceEmpty')}</p>}
      <ol>
        {trace?.calls.map((call) => (
          <li key={call.callId}>
            <span className={call.verdict === 'cache_miss' ? 'badge warn' : 'badge ok'}>
              {t(`chat.cacheVerdict.${call.verdict}` as 'chat.cacheVerdict.prefix_stable')}
            </span>{' '}
            <span className="faint">{formatTime(call.ts)}</span>
            {call.reason && <span> — {call.reason}</span>}
          </li>
        ))}
      </ol>
    </section>
  );
}

/**
 * The conversation's details, behind one "⋯" button: what only a curious person needs (the prompt
 * cache trace, the chat's key) stays out of the header until asked for.
 */
export function ChatDetailsMenu({ sessionKey }: { sessionKey: string }) {
  const t = useT();
  const { chat } = useStores();
  const [open, setOpen] = useState(false);
  const root = useRef<HTMLDivElement>(null);
  const button = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    if (!open) return;
    // Closes on a click elsewhere and on Esc (focus back on the button, where the person was).
    const onPointer = (event: PointerEvent) => {
      if (!root.current?.contains(event.target as Node)) setOpen(false);
    };
    const onKey = (event: KeyboardEvent) => {
      if (event.key !== 'Escape') return;
      event.stopPropagation();
      setOpen(false);
      button.current?.focus();
    };
    document.addEventListener('pointerdown', onPointer);
    root.current?.addEventListener('keydown', onKey);
    const node = root.current;
    return () => {
      document.removeEventListener('pointerdown', onPointer);
      node?.removeEventListener('keydown', onKey);
    };
  }, [open]);
  const toggle = () => {
    if (!open) void chat.getState().loadCacheTrace(sessionKey);
    setOpen(!open);
  };
  return (
    <div className="chat-details" ref={root}>
      <button
        ref={button}
        type="button"
        className="button small ghost icon"
        aria-label={t('chat.details')}
        title={t('chat.details')}
        aria-expanded={open}
        aria-haspopup="dialog"
        onClick={toggle}
        data-testid="chat-details"
      >
        <Icon name="more" size={16} />
      </button>
      {open && (
        <div className="chat-details-panel card" role="dialog" aria-label={t('chat.details')}>
          <CacheTrace sessionKey={sessionKey} />
          <p className="faint chat-details-key">
            <code>{sessionKey}</code>
          </p>
        </div>
      )}
    </div>
  );
}
