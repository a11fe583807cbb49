import { useRef } from 'react';
import { useT } from '../../app/stores-context.js';
import { ModalDialog } from './modal-dialog.js';
import { shortcuts } from './shortcuts.js';

/** `?` or Ctrl/⌘-/: every global shortcut and its keys for this platform. */
export function ShortcutsHelp({ mac, onClose }: { mac: boolean; onClose(): void }) {
  const t = useT();
  const close = useRef<HTMLButtonElement>(null);
  return (
    <ModalDialog
      className="palette shortcuts-help card"
      labelledBy="shortcuts-help-title"
      testId="shortcuts-help"
      initialFocus={close}
      closesOn={(event) => event.key === '?'}
      onClose={onClose}
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
    </ModalDialog>
  );
}
