#!/usr/bin/env node
// `npm start`: the desktop app when Electron's binary is available (fetching it if
// needed: users have internet), otherwise the headless gateway with the Control UI
// opened, signed in, in the person's browser — and it says which, and why. The gateway
// token is never printed: `gateway run --open` hands the sign-in link to the platform's
// opener ($BROWSER, open, explorer.exe or xdg-open) and, when none works, says how to sign in.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { isBuildCurrent, mtimeOf, newestSourceMtime } from '../bin/build-freshness.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
/** What each build is made from (the renderer uses the wire types in src-main/protocol). */
const rendererSources = ['src-renderer', 'src-main/protocol'];
const mainSources = ['src-main', 'extensions'];
const say = (text) => process.stdout.write(`[hearth] ${text}\n`);

function run(command, args, options = {}) {
  return spawnSync(command, args, { cwd: root, stdio: 'inherit', ...options });
}

function electronBinary() {
  const pathFile = join(root, 'node_modules', 'electron', 'path.txt');
  if (!existsSync(pathFile)) return undefined;
  const binary = join(root, 'node_modules', 'electron', 'dist', readFileSync(pathFile, 'utf8').trim());
  return existsSync(binary) ? binary : undefined;
}

/**
 * Builds what is missing or older than its sources, so `npm start` always runs built code
 * (never the TypeScript sources through tsx) and never a stale build after a `git pull`.
 */
function ensureBuilt() {
  const rendererBuilt = mtimeOf(join(root, 'dist', 'renderer', 'index.html'));
  if (rendererBuilt === undefined || rendererBuilt < newestSourceMtime(root, rendererSources)) {
    say(
      rendererBuilt === undefined
        ? 'building the Control UI (first run)…'
        : 'the Control UI sources changed; rebuilding it…',
    );
    const result = run('npm', ['run', '--silent', 'build:renderer']);
    if (result.status !== 0) say('the Control UI did not build; the gateway will serve a placeholder page.');
  }
  if (!isBuildCurrent(root, join(root, 'dist', '.build-stamp'), mainSources)) {
    say(
      existsSync(join(root, 'dist', 'src-main'))
        ? 'the sources changed; rebuilding the main process…'
        : 'building the main process (first run)…',
    );
    const result = run('npm', ['run', '--silent', 'build:main']);
    if (result.status !== 0) {
      say('the main process did not build (the errors are above); fix them and run npm start again.');
      process.exit(result.status ?? 1);
    }
  }
}

let binary = electronBinary();
let why = '';
if (!binary && existsSync(join(root, 'node_modules', 'electron', 'install.js'))) {
  say('Electron runtime not found; trying to download it…');
  const fetched = run(process.execPath, [join(root, 'node_modules', 'electron', 'install.js')], {
    stdio: 'pipe',
    timeout: 120_000,
  });
  binary = electronBinary();
  if (!binary) {
    const lines = `${fetched.stderr ?? ''}${fetched.stdout ?? ''}`.split('\n').map((l) => l.trim());
    const output = lines.find((l) => /error/i.test(l) && !l.startsWith('at ')) ?? lines.filter(Boolean).pop() ?? '';
    why = `could not download it: ${fetched.error ? String(fetched.error.message) : output || `exit code ${fetched.status}`}`;
  }
} else if (!binary) {
  why = 'the electron package is not installed';
}

if (binary && process.env.HEARTH_HEADLESS !== '1') {
  ensureBuilt();
  say('starting the desktop app…');
  const child = spawn(binary, ['.'], { cwd: root, stdio: 'inherit', env: process.env });
  child.on('exit', (code) => process.exit(code ?? 0));
} else {
  say(
    process.env.HEARTH_HEADLESS === '1'
      ? 'HEARTH_HEADLESS=1: running the headless gateway.'
      : `Electron is unavailable (${why}); running the headless gateway instead and opening the Control UI in your browser.`,
  );
  ensureBuilt();
  const child = spawn(
    process.execPath,
    [join(root, 'bin', 'hearth.js'), 'gateway', 'run', '--find-free-port', '--open'],
    {
      cwd: root,
      stdio: 'inherit',
      env: process.env,
    },
  );
  const forward = (signal) => child.kill(signal);
  process.on('SIGINT', forward);
  process.on('SIGTERM', forward);
  child.on('exit', (code) => process.exit(code ?? 0));
}
