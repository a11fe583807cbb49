import { type KeyboardEvent, type ReactNode, type RefObject, useEffect } from 'react';

/**
 * The frame the palette and the shortcuts help share: a backdrop that closes on a click, and a modal
 * dialog that keeps every key to itself (the view underneath, e.g. the approvals' A / D keys, hears
 * nothing), keeps Tab inside, closes on Esc, and gives focus back to where it was when it goes.
 */
export function ModalDialog({
  className,
  label,
  labelledBy,
  testId,
  initialFocus,
  closesOn,
  onKey,
  onClose,
  children,
}: {
  className: string;
  label?: string;
  labelledBy?: string;
  testId: string;
  initialFocus: RefObject<HTMLElement | null>;
  /** Keys besides Esc that close it (the chord that opened it, say). */
  closesOn?(event: KeyboardEvent): boolean;
  /** Keys the dialog's own content handles; called for every key that does not close it. */
  onKey?(event: KeyboardEvent): void;
  onClose(): void;
  children: ReactNode;
}) {
  useEffect(() => {
    const before = document.activeElement as HTMLElement | null;
    initialFocus.current?.focus();
    return () => before?.focus?.();
  }, [initialFocus]);
  const onKeyDown = (event: KeyboardEvent) => {
    event.stopPropagation();
    // An IME composition's Enter or Esc belongs to the composition.
    if (event.nativeEvent.isComposing) return;
    if (event.key === 'Escape' || closesOn?.(event)) {
      event.preventDefault();
      onClose();
    } else if (event.key === 'Tab') {
      event.preventDefault();
    } else {
      onKey?.(event);
    }
  };
  return (
    <div className="palette-layer">
      <div className="palette-backdrop" onClick={onClose} aria-hidden="true" />
      <div
        className={className}
        role="dialog"
        aria-modal="true"
        aria-label={label}
        aria-labelledby={labelledBy}
        onKeyDown={onKeyDown}
        data-testid={testId}
      >
        {children}
      </div>
    </div>
  );
}
