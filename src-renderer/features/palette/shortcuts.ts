import type { MessageKey } from '../../i18n/en.js';

/** What a global shortcut does; the command layer runs it. */
export type ShortcutAction = 'palette' | 'new-chat' | 'search-chats' | 'focus-composer' | 'stop' | 'help';

/** The parts of a KeyboardEvent a shortcut reads (a plain object in tests). */
export interface KeyPress {
  key: string;
  ctrlKey: boolean;
  metaKey: boolean;
  shiftKey: boolean;
  altKey: boolean;
  /** An IME is composing (Chinese input): the key belongs to the composition, never a shortcut. */
  isComposing?: boolean;
}

/** Where the key was pressed, as the command layer sees the focused element. */
export interface KeyContext {
  /** Focus is in a text field, select or editable element. */
  typing: boolean;
  /** …and that field is the chat's message box (Esc there still stops the answer). */
  inComposer: boolean;
  /** A dialog (palette, help, a menu) is open and owns its keys. */
  dialogOpen: boolean;
  /** macOS: ⌘ is the modifier; elsewhere Ctrl. */
  mac: boolean;
}

export interface ShortcutInfo {
  action: ShortcutAction;
  label: MessageKey;
  /** Keys as shown in the help panel, per platform modifier. */
  keys(mac: boolean): string[];
}

const mod = (mac: boolean) => (mac ? '⌘' : 'Ctrl');

/** Every global shortcut, in the order the help panel lists them. */
export const shortcuts: ShortcutInfo[] = [
  { action: 'palette', label: 'shortcuts.palette', keys: (mac) => [`${mod(mac)} K`] },
  { action: 'new-chat', label: 'shortcuts.newChat', keys: (mac) => [`${mod(mac)} Shift O`] },
  { action: 'search-chats', label: 'shortcuts.searchChats', keys: (mac) => [`${mod(mac)} Shift F`] },
  { action: 'focus-composer', label: 'shortcuts.focusComposer', keys: () => ['/'] },
  { action: 'stop', label: 'shortcuts.stop', keys: () => ['Esc'] },
  { action: 'help', label: 'shortcuts.help', keys: (mac) => ['?', `${mod(mac)} /`] },
];

export function isTypingTarget(target: EventTarget | null): boolean {
  const element = target as { tagName?: string; isContentEditable?: boolean; type?: string } | null;
  if (!element?.tagName) return false;
  if (element.isContentEditable) return true;
  if (element.tagName === 'TEXTAREA' || element.tagName === 'SELECT') return true;
  // Buttons-as-inputs (checkbox, radio, button) take no text: a shortcut there is fine.
  return (
    element.tagName === 'INPUT' && !/^(checkbox|radio|button|submit|reset|range|color|file)$/.test(element.type ?? '')
  );
}

/**
 * Which shortcut a key press is, if any. Ctrl/⌘ chords work while typing (they type nothing);
 * plain keys (`/`, `?`) only outside fields, so typing a `?` in a message stays a `?`. Esc stops a
 * running answer from the message box too (that is where the person is while it streams), but not
 * from another field, where Esc means "leave this field", nor while a dialog owns the keys.
 */
export function shortcutFor(press: KeyPress, context: KeyContext): ShortcutAction | undefined {
  if (press.isComposing) return undefined;
  const modifier = context.mac ? press.metaKey && !press.ctrlKey : press.ctrlKey && !press.metaKey;
  const key = press.key.length === 1 ? press.key.toLowerCase() : press.key;
  if (modifier && !press.altKey) {
    if (key === 'k' && !press.shiftKey) return 'palette';
    if (key === '/' || key === '?') return context.dialogOpen ? undefined : 'help';
    if (context.dialogOpen) return undefined;
    if (key === 'o' && press.shiftKey) return 'new-chat';
    if (key === 'f' && press.shiftKey) return 'search-chats';
    return undefined;
  }
  if (press.ctrlKey || press.metaKey || press.altKey || context.dialogOpen) return undefined;
  if (key === 'Escape') return !context.typing || context.inComposer ? 'stop' : undefined;
  if (context.typing) return undefined;
  if (key === '/') return 'focus-composer';
  if (key === '?') return 'help';
  return undefined;
}
