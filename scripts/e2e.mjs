#!/usr/bin/env node
// `npm run test:e2e`: everything that crosses a process boundary, in order —
// build, the real keychain, the Control UI in Chromium, the desktop packaging check.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const steps = [
  { name: 'build (renderer + main)', command: 'npm', args: ['run', '--silent', 'build'] },
  {
    name: 'keychain (keytar against gnome-keyring on a private D-Bus session)',
    needs: 'scripts/with-keychain.sh',
    command: 'npm',
    args: ['run', '--silent', 'test:keychain'],
  },
  {
    name: 'Control UI end-to-end (Playwright, Debian Chromium)',
    needs: 'e2e/ui/playwright.config.ts',
    command: 'npx',
    args: ['playwright', 'test', '-c', 'e2e/ui/playwright.config.ts'],
  },
  {
    name: "OpenClaw's own Control UI (npm openclaw@2026.9.6, cached outside the repo) against Hearth, in Chromium",
    needs: 'e2e/openclaw-ui/playwright.config.ts',
    command: process.execPath,
    args: ['scripts/openclaw-control-ui.mjs', '--e2e'],
  },
  {
    name: "OpenClaw's own CLI (npm openclaw@2026.9.6 on node@24, cached outside the repo): gateway calls and an `openclaw agent` turn on a named session",
    needs: 'scripts/openclaw-cli.mjs',
    command: process.execPath,
    args: ['scripts/openclaw-cli.mjs', '--test'],
  },
  {
    name: 'Control UI through the built preload bridge, and the Electron smoke test (skips without the binary)',
    needs: 'e2e/preload-bridge/playwright.config.ts',
    command: 'npx',
    args: ['playwright', 'test', '-c', 'e2e/preload-bridge/playwright.config.ts'],
  },
  {
    name: 'desktop packaging check (electron-builder --linux dir)',
    needs: 'scripts/package-check.mjs',
    command: process.execPath,
    args: ['scripts/package-check.mjs'],
  },
];

let passed = 0;
let failed = 0;
let skipped = 0;
for (const step of steps) {
  if (step.needs && !existsSync(join(root, step.needs))) {
    console.log(`\n— skipped: ${step.name} (${step.needs} is not in this checkout)`);
    skipped += 1;
    continue;
  }
  console.log(`\n— ${step.name}`);
  const started = Date.now();
  const result = spawnSync(step.command, step.args, {
    cwd: root,
    stdio: 'inherit',
    env: { ...process.env, PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD: '1' },
  });
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  if (result.status === 0) {
    passed += 1;
    console.log(`  ok (${seconds} s)`);
  } else {
    failed += 1;
    console.log(`  FAILED (${seconds} s, exit ${result.status ?? result.signal})`);
    break;
  }
}
console.log(`\ne2e: ${passed} passed, ${failed} failed, ${skipped} skipped`);
process.exit(failed > 0 ? 1 : 0);
