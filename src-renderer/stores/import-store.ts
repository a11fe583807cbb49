import { createStore, type StoreApi } from 'zustand/vanilla';
import type { ImportReportView } from '../../src-main/protocol/methods/import.js';
import { errorText, type GatewayPort } from './gateway-port.js';

export type ImportSourceId = ImportReportView['source'];

export interface ImportState {
  /** OpenClaw / Hermes folders found on the gateway's machine (import.detect). */
  found: { source: ImportSourceId; from: string }[];
  /** The dry run being reviewed, then the result once applied. */
  report?: ImportReportView;
  /** The source with a request in flight. */
  busy?: ImportSourceId;
  error?: string;
  detect(): Promise<void>;
  preview(source: ImportSourceId): Promise<void>;
  apply(source: ImportSourceId): Promise<void>;
  close(): void;
}

/** The onboarding view's import offer: the gateway plans and applies; this only shows its report. */
export function createImportStore(client: GatewayPort): StoreApi<ImportState> & { dispose(): void } {
  const store = createStore<ImportState>((set) => {
    const run = async (source: ImportSourceId, method: 'import.plan' | 'import.apply') => {
      set({ busy: source, error: undefined });
      try {
        const { report } = await client.request(method, { source });
        set({ report });
      } catch (error) {
        set({ error: errorText(error) });
      } finally {
        set({ busy: undefined });
      }
    };
    return {
      found: [],
      async detect() {
        try {
          const { sources } = await client.request('import.detect', {});
          set({ found: sources.filter((s) => s.found).map(({ source, from }) => ({ source, from })) });
        } catch {
          // An older gateway without import.*: simply no offer.
          set({ found: [] });
        }
      },
      preview: (source) => run(source, 'import.plan'),
      apply: (source) => run(source, 'import.apply'),
      close: () => set({ report: undefined, error: undefined }),
    };
  });
  return { ...store, dispose: () => {} };
}
