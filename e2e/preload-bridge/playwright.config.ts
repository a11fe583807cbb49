import { defineConfig } from '@playwright/test';
import { chromiumArgs, chromiumExecutable } from '../chromium.js';

// The desktop path without Electron (preload-bridge/*.spec.ts) and the real-Electron
// smoke test (../electron.smoke.ts, which skips and says why when the binary is missing).
// Debian Chromium, never a downloaded browser (ENVIRONMENT.md "Browser tests").
export default defineConfig({
  testDir: '..',
  testMatch: ['preload-bridge/*.spec.ts', 'electron.smoke.ts'],
  outputDir: '../artifacts/preload-bridge',
  timeout: 60_000,
  workers: 1,
  reporter: [['list']],
  use: {
    headless: true,
    viewport: { width: 1280, height: 800 },
    launchOptions: {
      executablePath: chromiumExecutable,
      args: chromiumArgs,
    },
  },
});
