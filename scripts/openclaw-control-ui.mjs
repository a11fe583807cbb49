#!/usr/bin/env node
// Fetches OpenClaw's own Control UI (the `openclaw` package's dist/control-ui) into a cache folder
// outside the repository, once: the e2e step serves it unmodified against a Hearth gateway.
// Idempotent: an install of the pinned version is reused. Prints the folder on stdout.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';

export const OPENCLAW_VERSION = '2026.9.6';

export function openClawCacheDir(env = process.env) {
  return join(env.HEARTH_CI_CACHE ?? join(homedir(), '.cache', 'hearth-ci'), 'openclaw');
}

export function controlUiDirIn(cache) {
  return join(cache, 'node_modules', 'openclaw', 'dist', 'control-ui');
}

function installedVersion(cache) {
  try {
    return JSON.parse(readFileSync(join(cache, 'node_modules', 'openclaw', 'package.json'), 'utf8')).version;
  } catch {
    return undefined;
  }
}

export function ensureOpenClawControlUi(env = process.env, log = (line) => process.stderr.write(`${line}\n`)) {
  const cache = openClawCacheDir(env);
  const uiDir = controlUiDirIn(cache);
  if (installedVersion(cache) === OPENCLAW_VERSION && existsSync(join(uiDir, 'index.html'))) {
    log(`openclaw ${OPENCLAW_VERSION}: cached in ${cache}`);
    return uiDir;
  }
  log(`openclaw ${OPENCLAW_VERSION}: installing into ${cache} (npm registry; no install scripts)`);
  // Only the static files are used: no scripts run, and no Node 24 is needed.
  const result = spawnSync(
    'npm',
    ['install', '--prefix', cache, '--no-audit', '--no-fund', '--ignore-scripts', `openclaw@${OPENCLAW_VERSION}`],
    { stdio: ['ignore', 'inherit', 'inherit'] },
  );
  if (result.status !== 0)
    throw new Error(`npm install openclaw@${OPENCLAW_VERSION} failed (exit ${result.status ?? result.signal})`);
  if (!existsSync(join(uiDir, 'index.html')))
    throw new Error(`openclaw@${OPENCLAW_VERSION} installed, but ${uiDir} has no index.html`);
  return uiDir;
}

// `node scripts/openclaw-control-ui.mjs`: print the folder. With `--e2e`: then run the Playwright
// spec e2e/openclaw-ui against it (the step scripts/e2e.mjs runs).
if (import.meta.url === `file://${process.argv[1]}`) {
  let uiDir;
  try {
    uiDir = ensureOpenClawControlUi();
  } catch (error) {
    process.stderr.write(`${error.message}\n`);
    process.exit(1);
  }
  if (!process.argv.includes('--e2e')) {
    process.stdout.write(`${uiDir}\n`);
  } else {
    const run = spawnSync('npx', ['playwright', 'test', '-c', 'e2e/openclaw-ui/playwright.config.ts'], {
      stdio: 'inherit',
      env: { ...process.env, OPENCLAW_CONTROL_UI_DIR: uiDir, PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD: '1' },
    });
    process.exit(run.status ?? 1);
  }
}
