import { createContext, useContext } from 'react';
import { createStore, type StoreApi } from 'zustand/vanilla';
import { applyTheme, type PreferenceStorage, readTheme, type ThemeChoice, writeTheme } from './appearance.js';

export interface AppearanceState {
  theme: ThemeChoice;
  setTheme(theme: ThemeChoice): void;
}

/** The OS side of the theme, passed in from the composition root (main.tsx). */
export interface AppearanceDeps {
  storage: PreferenceStorage;
  root: { dataset: DOMStringMap };
  osPrefersDark(): boolean;
  /** Called when the OS switches light/dark, so `system` follows it live. */
  onOsChange(listener: () => void): void;
}

export function createAppearanceStore(deps: AppearanceDeps): StoreApi<AppearanceState> {
  const store = createStore<AppearanceState>((set) => ({
    theme: readTheme(deps.storage),
    setTheme(theme) {
      writeTheme(deps.storage, theme);
      applyTheme(deps.root, theme, deps.osPrefersDark());
      set({ theme });
    },
  }));
  applyTheme(deps.root, store.getState().theme, deps.osPrefersDark());
  deps.onOsChange(() => applyTheme(deps.root, store.getState().theme, deps.osPrefersDark()));
  return store;
}

export const AppearanceContext = createContext<StoreApi<AppearanceState> | null>(null);

export function useAppearanceStore(): StoreApi<AppearanceState> | null {
  return useContext(AppearanceContext);
}
