import { defineConfig } from 'vitest/config';

// Two projects: everything on the Node side runs under plain Node (no Electron),
// the renderer runs under jsdom. Tests sit beside the code they test.
export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'main',
          environment: 'node',
          include: [
            'src-main/**/*.test.ts',
            'src-preload/**/*.test.ts',
            'extensions/**/*.test.ts',
            'scripts/**/*.test.ts',
          ],
          // The Disposable-leak check, for the folders it lists.
          setupFiles: ['src-main/testing/leak-check-setup.ts'],
          testTimeout: 30_000,
          hookTimeout: 30_000,
          pool: 'forks',
        },
      },
      {
        test: {
          name: 'renderer',
          environment: 'jsdom',
          include: ['src-renderer/**/*.test.{ts,tsx}'],
          setupFiles: ['src-renderer/testing/setup.ts'],
          testTimeout: 20_000,
        },
      },
    ],
  },
});
