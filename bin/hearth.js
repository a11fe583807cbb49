#!/usr/bin/env node
// The `hearth` command. Runs the built CLI (dist/) when it is at least as new as the
// sources, and the TypeScript sources through tsx otherwise — so it works right after
// `npm install`, and a stale build never runs after the sources changed. Of the build it
// runs the bundle (dist/bundle/hearth.js, scripts/bundle-main.mjs: a faster start) and
// falls back to the tsc output when a build has no bundle. HEARTH_FROM_SOURCE=1 forces the sources.
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { isBuildCurrent } from './build-freshness.js';

const root = fileURLToPath(new URL('..', import.meta.url));
const bundled = new URL('../dist/bundle/hearth.js', import.meta.url);
const compiled = new URL('../dist/src-main/cli/main.js', import.meta.url);
const built = existsSync(bundled) ? bundled : compiled;
const stamp = new URL('../dist/.build-stamp', import.meta.url);
const source = new URL('../src-main/cli/main.ts', import.meta.url);
/** What the main-process build is made from: the same list `npm start` checks. */
const mainSources = ['src-main', 'extensions'];

function builtIsCurrent() {
  if (!existsSync(built)) return false;
  if (!existsSync(source)) return true; // a packaged app ships only dist/
  if (process.env.HEARTH_FROM_SOURCE === '1' || !existsSync(stamp)) return false;
  return isBuildCurrent(root, fileURLToPath(stamp), mainSources);
}

if (builtIsCurrent()) {
  await import(built.href);
} else {
  const { register } = await import('tsx/esm/api');
  register();
  await import(source.href);
}
