import { defineConfig } from '@playwright/test';
import { chromiumArgs, chromiumExecutable } from '../chromium.js';

// OpenClaw's own Control UI against a Hearth gateway; the UI folder comes from
// scripts/openclaw-control-ui.mjs (a cache outside the repo), passed in OPENCLAW_CONTROL_UI_DIR.
export default defineConfig({
  testDir: '.',
  testMatch: '*.spec.ts',
  outputDir: '../artifacts/openclaw-ui-results',
  // One long walk through the whole UI on a shared 2-core machine.
  timeout: 300_000,
  expect: { timeout: 20_000 },
  workers: 1,
  reporter: [['list']],
  use: {
    headless: true,
    viewport: { width: 1280, height: 800 },
    serviceWorkers: 'block',
    launchOptions: { executablePath: chromiumExecutable, args: chromiumArgs },
  },
});
