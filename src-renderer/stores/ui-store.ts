import { createStore, type StoreApi } from 'zustand/vanilla';
import type { Language } from '../i18n/translate.js';

export const views = [
  'chat',
  'agents',
  'approvals',
  'permissions',
  'auth',
  'memory',
  'dreams',
  'schedule',
  'usage',
  'skills',
  'canvas',
  'terminal',
  'devices',
  'channels',
  'mcp',
  'settings',
] as const;
export type ViewId = (typeof views)[number];

export interface UiState {
  view: ViewId;
  language: Language;
  onboardingDismissed: boolean;
  /**
   * A field a keyboard command asked for (palette, shortcuts). The chat view opens to it, focuses
   * it and clears the request: the command cannot reach a field of a view that is still loading.
   */
  focusRequest?: FocusTarget;
  navigate(view: ViewId): void;
  /** Opens the chat on the message box or the chat search. */
  requestFocus(target: FocusTarget): void;
  clearFocusRequest(): void;
  setLanguage(language: Language): void;
  dismissOnboarding(): void;
}

export type FocusTarget = 'composer' | 'chat-search';

export function isViewId(value: string): value is ViewId {
  return (views as readonly string[]).includes(value);
}

export function createUiStore(initial: { view?: ViewId; language: Language }): StoreApi<UiState> {
  return createStore<UiState>((set) => ({
    view: initial.view ?? 'chat',
    language: initial.language,
    onboardingDismissed: false,
    navigate: (view) => set({ view }),
    requestFocus: (focusRequest) => set({ view: 'chat', focusRequest }),
    clearFocusRequest: () => set({ focusRequest: undefined }),
    setLanguage: (language) => set({ language }),
    dismissOnboarding: () => set({ onboardingDismissed: true }),
  }));
}
