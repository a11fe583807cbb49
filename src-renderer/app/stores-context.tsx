import { createContext, type ReactNode, useContext, useMemo } from 'react';
import { type StoreApi, useStore } from 'zustand';
import type { MessageKey } from '../i18n/en.js';
import { createTranslate, type Translate } from '../i18n/translate.js';
import type { Stores } from '../stores/create-stores.js';

const StoresContext = createContext<Stores | undefined>(undefined);

export function StoresProvider({ stores, children }: { stores: Stores; children: ReactNode }) {
  return <StoresContext.Provider value={stores}>{children}</StoresContext.Provider>;
}

export function useStores(): Stores {
  const stores = useContext(StoresContext);
  if (!stores) throw new Error('useStores must be used inside <StoresProvider>');
  return stores;
}

type StoreState<K extends keyof Stores> = Stores[K] extends StoreApi<infer S> ? S : never;

/** `useDomain('chat', s => s.transcripts)`: a view reads one slice of one domain store. */
export function useDomain<K extends keyof Stores, T>(domain: K, selector: (state: StoreState<K>) => T): T {
  const stores = useStores();
  return useStore(stores[domain] as unknown as StoreApi<StoreState<K>>, selector);
}

export function useT(): Translate {
  const language = useDomain('ui', (s) => s.language);
  return useMemo(() => createTranslate(language), [language]);
}

export type { MessageKey };
