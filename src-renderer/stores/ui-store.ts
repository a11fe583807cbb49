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
  navigate(view: ViewId): void;
  setLanguage(language: Language): void;
  dismissOnboarding(): void;
}

export function isViewId(value: string): value is ViewId {
  return (views as readonly string[]).includes(value);
}

export function createUiStore(initial: { view?: ViewId; language: Language }): StoreApi<UiState> {
  return createStore<UiState>((set) => ({
    view: initial.view ?? 'chat',
    language: initial.language,
    onboardingDismissed: false,
    navigate: (view) => set({ view }),
    setLanguage: (language) => set({ language }),
    dismissOnboarding: () => set({ onboardingDismissed: true }),
  }));
}
