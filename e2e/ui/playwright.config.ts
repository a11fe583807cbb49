import { defineConfig } from '@playwright/test';
import { chromiumArgs, chromiumExecutable } from '../chromium.js';

// Debian Chromium, never a downloaded browser (ENVIRONMENT.md "Browser tests").
export default defineConfig({
  testDir: '.',
  testMatch: '*.spec.ts',
  outputDir: '../artifacts/test-results',
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
