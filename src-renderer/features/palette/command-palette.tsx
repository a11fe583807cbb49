import { type KeyboardEvent, useEffect, useId, useMemo, useRef, useState } from 'react';
import { useT } from '../../app/stores-context.js';
import { ModalDialog } from './modal-dialog.js';
import { filterCommands, moveSelection, type PaletteCommand } from './palette-model.js';

/**
 * Ctrl/⌘-K: a filter box over a list of commands (the ARIA combobox + listbox pattern). Arrows move,
 * Enter runs, Esc or a click outside closes; focus returns to where it was.
 */
export function CommandPalette({ commands, onClose }: { commands: PaletteCommand[]; onClose(): void }) {
  const t = useT();
  const [query, setQuery] = useState('');
  const [active, setActive] = useState(0);
  const listId = useId();
  const input = useRef<HTMLInputElement>(null);
  const shown = useMemo(() => filterCommands(commands, query), [commands, query]);
  const current = shown.length === 0 ? -1 : Math.min(active, shown.length - 1);

  useEffect(() => {
    document.getElementById(`${listId}-${current}`)?.scrollIntoView?.({ block: 'nearest' });
  }, [listId, current]);

  const run = (command: PaletteCommand | undefined) => {
    if (!command) return;
    onClose();
    command.run();
  };
  const onKey = (event: KeyboardEvent) => {
    if (event.key === 'Enter') {
      event.preventDefault();
      run(shown[current]);
    } else if (['ArrowDown', 'ArrowUp'].includes(event.key) || (query === '' && ['Home', 'End'].includes(event.key))) {
      event.preventDefault();
      setActive(moveSelection(current, event.key, shown.length));
    }
  };

  return (
    <ModalDialog
      className="palette card"
      label={t('palette.label')}
      testId="command-palette"
      initialFocus={input}
      closesOn={isPaletteChord}
      onKey={onKey}
      onClose={onClose}
    >
      <input
        ref={input}
        className="input palette-input"
        role="combobox"
        aria-expanded="true"
        aria-controls={listId}
        aria-autocomplete="list"
        aria-activedescendant={current >= 0 ? `${listId}-${current}` : undefined}
        aria-label={t('palette.label')}
        placeholder={t('palette.placeholder')}
        value={query}
        onChange={(e) => {
          setQuery(e.target.value);
          setActive(0);
        }}
      />
      <div id={listId} className="palette-list" role="listbox" aria-label={t('palette.label')}>
        {shown.map((command, i) => (
          // biome-ignore lint/a11y/useKeyWithClickEvents: keys are the filter box's (aria-activedescendant); a click runs too
          <div
            key={command.id}
            id={`${listId}-${i}`}
            role="option"
            tabIndex={-1}
            aria-selected={i === current}
            className="palette-option"
            onPointerMove={() => i !== current && setActive(i)}
            onClick={() => run(command)}
          >
            <span>{command.label}</span>
            {command.hint && <kbd className="palette-hint">{command.hint}</kbd>}
          </div>
        ))}
      </div>
      {shown.length === 0 && (
        <p className="faint palette-empty" role="status">
          {t('palette.empty')}
        </p>
      )}
      <p className="faint palette-footer" aria-hidden="true">
        {t('palette.hint')}
      </p>
    </ModalDialog>
  );
}

/** Ctrl/⌘-K again closes what it opened. */
const isPaletteChord = (event: KeyboardEvent) => (event.ctrlKey || event.metaKey) && event.key.toLowerCase() === 'k';
