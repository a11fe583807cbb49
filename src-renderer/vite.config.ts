import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';

const root = fileURLToPath(new URL('.', import.meta.url));
const BUDGET_KB = 400;

/** Prints the gzip size of what loads before first paint (entry + its static imports) against the budget. */
function initialBundleReport(): Plugin {
  return {
    name: 'hearth-initial-bundle-report',
    apply: 'build',
    generateBundle(_options, bundle) {
      const chunks = new Map(
        Object.values(bundle)
          .filter((item) => item.type === 'chunk')
          .map((chunk) => [chunk.fileName, chunk]),
      );
      const initial = new Set<string>();
      const visit = (name: string) => {
        if (initial.has(name)) return;
        initial.add(name);
        for (const imported of chunks.get(name)?.imports ?? []) visit(imported);
      };
      for (const chunk of chunks.values()) if (chunk.isEntry) visit(chunk.fileName);
      const gzipBytes = [...initial].reduce((sum, name) => sum + gzipSync(chunks.get(name)?.code ?? '').length, 0);
      const kb = gzipBytes / 1024;
      const verdict = kb <= BUDGET_KB ? 'within' : 'OVER';
      this.info(
        `initial JS: ${kb.toFixed(1)} KB gzipped in ${initial.size} chunk(s), ${verdict} the ${BUDGET_KB} KB budget`,
      );
    },
  };
}

// The same bundle is loaded from app://hearth (Electron) and from the gateway's HTTP
// root (browser, phone), so asset paths are relative.
export default defineConfig({
  root,
  base: './',
  plugins: [react(), initialBundleReport()],
  build: {
    outDir: fileURLToPath(new URL('../dist/renderer', import.meta.url)),
    emptyOutDir: true,
    target: 'es2022',
    sourcemap: false,
    chunkSizeWarningLimit: 600,
  },
});
