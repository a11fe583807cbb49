import { type KeyboardEvent, useEffect, useRef } from 'react';
import { useT } from '../../app/stores-context.js';
import { shortcuts } from './shortcuts.js';

/** `?` or Ctrl/⌘-/: every global shortcut and its keys for this platform. */
export function ShortcutsHelp({ mac, onClose }: { mac: boolean; onClose(): void }) {
  const t = useT();
  const close = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    const before = document.activeElement as HTMLElement | null;
    close.current?.focus();
    return () => before?.focus?.();
  }, []);
  const onKeyDown = (event: KeyboardEvent) => {
    // Modal: the view underneath (e.g. the approvals' A / D keys) hears nothing while this is open.
    event.stopPropagation();
    if (event.key === 'Escape' || event.key === '?') {
      event.preventDefault();
      onClose();
    } else if (event.key === 'Tab') {
      event.preventDefault();
    }
  };
  return (
    <div className="palette-layer">
      <div className="palette-backdrop" onClick={onClose} aria-hidden="true" />
      <div
        className="palette shortcuts-help card"
        role="dialog"
        aria-modal="true"
        aria-labelledby="shortcuts-help-title"
        onKeyDown={onKeyDown}
        data-testid="shortcuts-help"
      >
        <div className="spread">
          <h2 id="shortcuts-help-title">{t('shortcuts.title')}</h2>
          <button ref={close} type="button" className="button small ghost" onClick={onClose}>
            {t('shortcuts.close')}
          </button>
        </div>
        <dl className="shortcut-list">
          {shortcuts.map((shortcut) => (
            <div key={shortcut.action} className="shortcut-row" data-testid="shortcut-row">
              <dt>{t(shortcut.label)}</dt>
              <dd>
                {shortcut.keys(mac).map((keys) => (
                  <kbd key={keys}>{keys}</kbd>
                ))}
              </dd>
            </div>
          ))}
        </dl>
        <p className="faint">{t('shortcuts.note')}</p>
      </div>
    </div>
  );
}
