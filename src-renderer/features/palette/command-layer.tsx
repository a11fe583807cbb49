import { useEffect, useMemo, useState } from 'react';
import type { StoreApi } from 'zustand/vanilla';
import { navEntries } from '../../app/nav.js';
import { useStores, useT } from '../../app/stores-context.js';
import type { Stores } from '../../stores/create-stores.js';
import { type AppearanceState, useAppearanceStore } from '../settings/appearance-store.js';
import { CommandPalette } from './command-palette.js';
import type { PaletteCommand } from './palette-model.js';
import { isTypingTarget, type ShortcutAction, shortcutFor, shortcuts } from './shortcuts.js';
import { ShortcutsHelp } from './shortcuts-help.js';
import './palette.css';

type Open = 'none' | 'palette' | 'help';

/** Something else on screen owns Esc and the keys (a menu, a confirmation, another dialog). */
function otherDialogOpen(): boolean {
  return document.querySelector('[role="dialog"], [role="alertdialog"], [role="menu"]') !== null;
}

/** What each action does: the palette and the keyboard run the same code. */
function actionRunner(stores: Stores, open: (what: Open) => void) {
  const { ui, sessions, agents, chat } = stores;
  return (action: ShortcutAction) => {
    if (action === 'palette') open('palette');
    else if (action === 'help') open('help');
    else if (action === 'new-chat') {
      void sessions.getState().create(agents.getState().selected);
      ui.getState().requestFocus('composer');
    } else if (action === 'search-chats') ui.getState().requestFocus('chat-search');
    else if (action === 'focus-composer') ui.getState().requestFocus('composer');
    else if (action === 'stop') {
      const key = sessions.getState().activeKey;
      if (chat.getState().transcripts[key]?.runId !== undefined) void chat.getState().abort(key);
    }
  };
}

function themeCommand(appearance: StoreApi<AppearanceState>, label: (theme: 'light' | 'dark') => string) {
  const shown = document.documentElement.dataset.theme === 'dark' ? 'dark' : 'light';
  const next = shown === 'dark' ? 'light' : 'dark';
  return {
    id: 'toggle-theme',
    label: label(next),
    keywords: ['theme', 'dark', 'light', 'appearance'],
    run: () => appearance.getState().setTheme(next),
  };
}

/**
 * The app's keyboard layer: the Ctrl/⌘-K palette, the shortcuts help, and the global shortcuts.
 * Mounted once in the shell; the views know nothing of it (they answer the ui store's focus requests).
 */
export function CommandLayer({ mac = /Mac|iPhone|iPad/.test(navigator.platform) }: { mac?: boolean }) {
  const t = useT();
  const stores = useStores();
  const appearance = useAppearanceStore();
  const [open, setOpen] = useState<Open>('none');
  const run = useMemo(() => actionRunner(stores, setOpen), [stores]);

  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      const active = document.activeElement;
      const action = shortcutFor(event, {
        typing: isTypingTarget(event.target) || isTypingTarget(active),
        inComposer: (event.target as HTMLElement | null)?.id === 'composer-input',
        dialogOpen: otherDialogOpen(),
        mac,
      });
      if (!action) return;
      // Esc only counts when it stops something: on the chat, with an answer streaming.
      if (action === 'stop') {
        const { sessions, chat, ui } = stores;
        const key = sessions.getState().activeKey;
        if (ui.getState().view !== 'chat' || chat.getState().transcripts[key]?.runId === undefined) return;
      }
      event.preventDefault();
      run(action);
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [stores, run, mac]);

  // Rebuilt on open: the theme command names the theme it would switch to now.
  const commands = useMemo((): PaletteCommand[] => {
    if (open !== 'palette') return [];
    const hint = (action: ShortcutAction) => shortcuts.find((s) => s.action === action)?.keys(mac)[0];
    const list: PaletteCommand[] = [
      {
        id: 'new-chat',
        label: t('palette.cmd.newChat'),
        keywords: ['new', 'chat', 'conversation'],
        hint: hint('new-chat'),
        run: () => run('new-chat'),
      },
      {
        id: 'search-chats',
        label: t('palette.cmd.searchChats'),
        keywords: ['search', 'find', 'chats'],
        hint: hint('search-chats'),
        run: () => run('search-chats'),
      },
      {
        id: 'focus-composer',
        label: t('palette.cmd.focusComposer'),
        keywords: ['message', 'composer', 'type'],
        hint: hint('focus-composer'),
        run: () => run('focus-composer'),
      },
    ];
    if (appearance)
      list.push(
        themeCommand(appearance, (theme) => t('palette.cmd.toggleTheme', { theme: t(`palette.theme.${theme}`) })),
      );
    list.push({
      id: 'open-settings',
      label: t('palette.cmd.openSettings'),
      keywords: ['settings', 'preferences', 'config'],
      run: () => stores.ui.getState().navigate('settings'),
    });
    list.push({
      id: 'shortcuts',
      label: t('palette.cmd.shortcuts'),
      keywords: ['keyboard', 'shortcuts', 'help', 'keys'],
      hint: hint('help'),
      run: () => setOpen('help'),
    });
    for (const entry of navEntries) {
      list.push({
        id: `view-${entry.id}`,
        label: t('palette.cmd.goTo', { view: t(entry.label) }),
        keywords: ['go', 'view', entry.id],
        run: () => stores.ui.getState().navigate(entry.id),
      });
    }
    return list;
  }, [open, t, run, appearance, stores, mac]);

  if (open === 'palette') return <CommandPalette commands={commands} onClose={() => setOpen('none')} />;
  if (open === 'help') return <ShortcutsHelp mac={mac} onClose={() => setOpen('none')} />;
  return null;
}
