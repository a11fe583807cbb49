import { useEffect, useState } from 'react';
import { useT } from '../../app/stores-context.js';
import { Icon } from '../../ui/icons.js';

/**
 * Copies `text` to the clipboard and says so for a moment. A refused clipboard (no permission,
 * an insecure origin) says that instead of failing silently.
 */
export function CopyButton({ text, label, className }: { text: string; label?: string; className?: string }) {
  const t = useT();
  const [state, setState] = useState<'idle' | 'copied' | 'failed'>('idle');
  useEffect(() => {
    if (state === 'idle') return;
    const timer = setTimeout(() => setState('idle'), 1600);
    return () => clearTimeout(timer);
  }, [state]);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(text);
      setState('copied');
    } catch {
      setState('failed');
    }
  };
  const shown =
    state === 'copied' ? t('chat.copied') : state === 'failed' ? t('chat.copyFailed') : (label ?? t('chat.copy'));
  return (
    <button
      type="button"
      className={className ?? 'button small ghost icon-text'}
      onClick={() => void copy()}
      aria-label={shown}
      title={shown}
      data-state={state}
    >
      <Icon name={state === 'copied' ? 'check' : 'copy'} size={14} />
      <span className="sr-only" aria-live="polite">
        {state === 'idle' ? '' : shown}
      </span>
    </button>
  );
}
