#!/usr/bin/env node
// After `tsc -p tsconfig.build.json`: copy what tsc does not (plugin manifests) into dist/,
// and stamp the build so bin/hearth.js knows dist/ is current.
import { copyFileSync, existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
for (const id of readdirSync(join(root, 'extensions'))) {
  const manifest = join(root, 'extensions', id, 'hearth.plugin.json');
  if (!existsSync(manifest)) continue;
  const target = join(root, 'dist', 'extensions', id);
  mkdirSync(target, { recursive: true });
  copyFileSync(manifest, join(target, 'hearth.plugin.json'));
}
writeFileSync(join(root, 'dist', '.build-stamp'), new Date().toISOString());
