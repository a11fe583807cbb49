import { useState } from 'react';
import { useDomain, useStores, useT } from '../../app/stores-context.js';
import { formatTime } from '../../ui/use-now.js';

/**
 * "Why did the prompt cache miss?" for the open conversation: each recent model call with its
 * verdict from the cache trace (first call, prefix stable, or where the prefix changed).
 */
export function CacheTracePanel({ sessionKey }: { sessionKey: string }) {
  const t = useT();
  const { chat } = useStores();
  const [open, setOpen] = useState(false);
  const trace = useDomain('chat', (s) => s.cacheTrace[sessionKey]);
  const toggle = () => {
    if (!open) void chat.getState().loadCacheTrace(sessionKey);
    setOpen(!open);
  };
  return (
    <div className="cache-trace wide-only">
      <button type="button" className="button small ghost" aria-expanded={open} onClick={toggle}>
        {t('chat.cacheTrace')}
      </button>
      {open && (
        <section className="cache-trace-panel card" aria-label={t('chat.cacheTrace')}>
          {trace?.error && <p role="alert">{t('common.error', { message: trace.error })}</p>}
          {trace && !trace.error && trace.calls.length === 0 && <p className="faint">{t('chat.cacheTraceEmpty')}</p>}
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
      )}
    </div>
  );
}
