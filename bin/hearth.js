#!/usr/bin/env node
// The `hearth` command. Runs the compiled CLI when it has been built (dist/), and
// the TypeScript sources through tsx otherwise, so it works right after `npm install`.
// HEARTH_FROM_SOURCE=1 forces the sources (for development after editing them).
import { existsSync } from 'node:fs';

const built = new URL('../dist/src-main/cli/main.js', import.meta.url);
const source = new URL('../src-main/cli/main.ts', import.meta.url);

if (existsSync(built) && (process.env.HEARTH_FROM_SOURCE !== '1' || !existsSync(source))) {
  await import(built.href);
} else {
  const { register } = await import('tsx/esm/api');
  register();
  await import(source.href);
}
