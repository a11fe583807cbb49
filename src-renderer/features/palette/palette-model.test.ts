import { describe, expect, it } from 'vitest';
import { filterCommands, moveSelection, type PaletteCommand } from './palette-model.js';
import { isTypingTarget, type KeyContext, shortcutFor } from './shortcuts.js';

const command = (id: string, label: string, keywords?: string[]): PaletteCommand => ({
  id,
  label,
  keywords,
  run: () => {},
});
const commands = [
  command('new-chat', 'New chat'),
  command('search-chats', 'Search chats', ['find']),
  command('settings', 'Open settings'),
  command('view-chat', 'Go to Chat'),
  command('zh-new', '新对话', ['new chat']),
];
const ids = (list: PaletteCommand[]) => list.map((c) => c.id);

describe('filterCommands', () => {
  it('lists everything in order for an empty query', () => {
    expect(ids(filterCommands(commands, '  '))).toEqual(ids(commands));
  });

  it('matches word starts in labels and keywords, labels starting with the query first', () => {
    expect(ids(filterCommands(commands, 'chat'))).toEqual(['new-chat', 'search-chats', 'view-chat', 'zh-new']);
    expect(ids(filterCommands(commands, 'new'))).toEqual(['new-chat', 'zh-new']);
    expect(ids(filterCommands(commands, 'fin'))).toEqual(['search-chats']);
    expect(ids(filterCommands(commands, 'go ch'))).toEqual(['view-chat']);
  });

  it('finds Chinese labels by a part of them (no spaces between words)', () => {
    expect(ids(filterCommands(commands, '对话'))).toEqual(['zh-new']);
  });

  it('returns nothing when a word matches nothing', () => {
    expect(filterCommands(commands, 'chat zebra')).toEqual([]);
  });
});

describe('moveSelection', () => {
  it('wraps at both ends and jumps with Home / End', () => {
    expect(moveSelection(0, 'ArrowDown', 3)).toBe(1);
    expect(moveSelection(2, 'ArrowDown', 3)).toBe(0);
    expect(moveSelection(0, 'ArrowUp', 3)).toBe(2);
    expect(moveSelection(1, 'Home', 3)).toBe(0);
    expect(moveSelection(0, 'End', 3)).toBe(2);
    expect(moveSelection(5, 'x', 3)).toBe(2);
    expect(moveSelection(0, 'ArrowDown', 0)).toBe(-1);
  });
});

describe('shortcutFor', () => {
  const outside: KeyContext = { typing: false, inComposer: false, dialogOpen: false, mac: false };
  const typing: KeyContext = { ...outside, typing: true };
  const composer: KeyContext = { ...outside, typing: true, inComposer: true };
  const press = (key: string, mods: Partial<{ ctrl: boolean; meta: boolean; shift: boolean; alt: boolean }> = {}) => ({
    key,
    ctrlKey: mods.ctrl ?? false,
    metaKey: mods.meta ?? false,
    shiftKey: mods.shift ?? false,
    altKey: mods.alt ?? false,
  });

  it('opens the palette with Ctrl-K, or ⌘-K on a Mac, even while typing', () => {
    expect(shortcutFor(press('k', { ctrl: true }), typing)).toBe('palette');
    expect(shortcutFor(press('k', { meta: true }), { ...outside, mac: true })).toBe('palette');
    expect(shortcutFor(press('k', { meta: true }), outside)).toBeUndefined();
    expect(shortcutFor(press('k'), outside)).toBeUndefined();
  });

  it('new chat and search chats are Ctrl-Shift chords', () => {
    expect(shortcutFor(press('O', { ctrl: true, shift: true }), typing)).toBe('new-chat');
    expect(shortcutFor(press('F', { ctrl: true, shift: true }), outside)).toBe('search-chats');
    expect(shortcutFor(press('o', { ctrl: true }), outside)).toBeUndefined();
  });

  it('plain / and ? act only outside text fields, so typing them types them', () => {
    expect(shortcutFor(press('/'), outside)).toBe('focus-composer');
    expect(shortcutFor(press('?', { shift: true }), outside)).toBe('help');
    expect(shortcutFor(press('/'), typing)).toBeUndefined();
    expect(shortcutFor(press('?', { shift: true }), composer)).toBeUndefined();
    expect(shortcutFor(press('/', { ctrl: true }), typing)).toBe('help');
  });

  it('Esc stops from the message box or outside fields, not from another field or an open dialog', () => {
    expect(shortcutFor(press('Escape'), outside)).toBe('stop');
    expect(shortcutFor(press('Escape'), composer)).toBe('stop');
    expect(shortcutFor(press('Escape'), typing)).toBeUndefined();
    expect(shortcutFor(press('Escape'), { ...outside, dialogOpen: true })).toBeUndefined();
  });

  it('ignores keys while an input method is composing', () => {
    expect(shortcutFor({ ...press('k', { ctrl: true }), isComposing: true }, typing)).toBeUndefined();
  });

  it('counts text inputs and text areas as typing, not checkboxes or buttons', () => {
    expect(isTypingTarget({ tagName: 'INPUT', type: 'search' } as unknown as EventTarget)).toBe(true);
    expect(isTypingTarget({ tagName: 'TEXTAREA' } as unknown as EventTarget)).toBe(true);
    expect(isTypingTarget({ tagName: 'INPUT', type: 'checkbox' } as unknown as EventTarget)).toBe(false);
    expect(isTypingTarget({ tagName: 'BUTTON' } as unknown as EventTarget)).toBe(false);
    expect(isTypingTarget({ tagName: 'DIV', isContentEditable: true } as unknown as EventTarget)).toBe(true);
    expect(isTypingTarget(null)).toBe(false);
  });
});
