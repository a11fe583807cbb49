#!/usr/bin/env node
// Desktop packaging check (runs in `npm run test:e2e`, after `npm run build`).
//
// The Electron binary cannot be downloaded here, so this packages the app with
// `electron-builder --linux dir` around a stand-in `electron` executable (a shell
// script carrying Electron's fuse wire, so the fuse step runs for real), then
// opens the resulting app.asar with @electron/asar and checks what a user's
// install would contain: the built main, preload and renderer, the packaged
// package.json pointing at main, native modules unpacked beside the archive, no
// test support, the fuses flipped, and the updater feed. electron-builder.yml is
// validated twice: by electron-builder's own schema during the build, and against
// the invariants below before it.
//
//   node scripts/package-check.mjs [--keep]     (--keep leaves the output folder)
import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(join(root, 'package.json'));
const asar = require('@electron/asar');
const yaml = require('js-yaml');
const { getCurrentFuseWire } = require('@electron/fuses');

const ELECTRON_VERSION = '45.5.0';
const MAIN = 'dist/src-main/app/main.js';
const PRELOAD = 'dist/src-preload/index.js';
const RENDERER = 'dist/renderer/index.html';
const NATIVE_MODULES = ['node_modules/node-pty', 'node_modules/keytar', 'node_modules/@lancedb'];
// @electron/fuses wire: sentinel, version 1, 8 fuses, Electron 45's defaults.
const FUSE_SENTINEL = 'dL7pKGdnNz796PbbjQWNKmHXBZaB9tsX';
const ELECTRON_DEFAULT_FUSES = '10110001';

const problems = [];
const check = (ok, message) => {
  if (!ok) problems.push(message);
  return ok;
};
const started = performance.now();
const step = (text) => console.log(`  • ${text} (${((performance.now() - started) / 1000).toFixed(1)} s)`);
const fail = (message) => {
  console.error(`package-check: ${message}`);
  process.exit(1);
};

// 1. Config invariants (what the issue and docs/DESKTOP.md promise).
const configPath = join(root, 'electron-builder.yml');
let config;
try {
  config = yaml.load(readFileSync(configPath, 'utf8'));
} catch (error) {
  fail(`electron-builder.yml does not parse: ${error.message}`);
}
check(config.appId === 'dev.hearth.desktop', `appId should be dev.hearth.desktop, is ${config.appId}`);
check(config.productName === 'Hearth', `productName should be Hearth, is ${config.productName}`);
check(config.directories?.output === 'release', 'directories.output must be "release"');
check(config.extraMetadata?.main === MAIN, `extraMetadata.main must be ${MAIN}`);
check(config.asar === true, 'asar must be true');
for (const native of NATIVE_MODULES) {
  check(config.asarUnpack?.includes(`${native}/**`), `asarUnpack must include ${native}/**`);
}
check(
  config.protocols?.some((p) => p.schemes?.includes('hearth')),
  'protocols must register the hearth scheme',
);
check(config.mac?.hardenedRuntime === true, 'mac.hardenedRuntime must be true');
check(
  ['dmg', 'zip'].every((t) => config.mac?.target?.some((x) => (x.target ?? x) === t)),
  'mac targets must be dmg and zip',
);
for (const key of ['entitlements', 'entitlementsInherit']) {
  check(existsSync(join(root, config.mac?.[key] ?? '')), `mac.${key} file is missing: ${config.mac?.[key]}`);
}
check(existsSync(join(root, config.afterSign ?? '')), `afterSign hook is missing: ${config.afterSign}`);
check(
  config.win?.target?.some((x) => (x.target ?? x) === 'nsis'),
  'win target must be nsis',
);
// Per-user, no admin: an installer that asks for elevation fails on managed machines.
check(config.nsis?.perMachine === false, 'nsis.perMachine must be false (per-user install, no admin)');
check(config.nsis?.oneClick === false, 'nsis.oneClick must be false (the assisted installer)');
check(config.win?.verifyUpdateCodeSignature === true, 'win.verifyUpdateCodeSignature must be true');
// Notarisation runs in the afterSign hook; electron-builder's own must stay off or it runs twice.
check(config.mac?.notarize === false, 'mac.notarize must be false (build/notarize.mjs notarises)');
const afterSignHook = join(root, config.afterSign ?? '');
check(
  existsSync(afterSignHook) && readFileSync(afterSignHook, 'utf8').includes('@electron/notarize'),
  'the afterSign hook must notarise with @electron/notarize',
);
check(
  ['AppImage', 'deb', 'rpm'].every((t) => config.linux?.target?.some((x) => (x.target ?? x) === t)),
  'linux targets must be AppImage, deb and rpm',
);
for (const format of ['deb', 'rpm']) {
  check(
    config[format]?.depends?.some((d) => /secret/i.test(d)),
    `${format}.depends must name libsecret (the keychain backend)`,
  );
}
check(config.linux?.mimeTypes?.includes('x-scheme-handler/hearth'), 'linux.mimeTypes must register hearth:// links');
check(
  config.generateUpdatesFilesForAllChannels === true,
  'generateUpdatesFilesForAllChannels must be true (stable + beta feeds)',
);
check(Array.isArray(config.publish) && config.publish.length > 0, 'publish must configure the electron-updater feed');
for (const icon of ['resources/icons/512x512.png', 'resources/icons/256x256.png', 'resources/icons/tray.png']) {
  check(existsSync(join(root, icon)), `icon missing: ${icon}`);
}
if (problems.length > 0) fail(`electron-builder.yml:\n  - ${problems.join('\n  - ')}`);
step('electron-builder.yml invariants hold');

// 2. The build must exist (npm run build); a stale one is reported, not rebuilt.
for (const built of [MAIN, PRELOAD, RENDERER]) {
  if (!existsSync(join(root, built))) fail(`${built} is missing: run \`npm run build\` first`);
}
const preloadText = readFileSync(join(root, PRELOAD), 'utf8');
check(
  !/^\s*(import|export)\s/m.test(preloadText),
  `${PRELOAD} must be CommonJS (sandboxed preloads cannot be ES modules)`,
);
if (statSync(join(root, 'src-main/app/main.ts')).mtimeMs > statSync(join(root, MAIN)).mtimeMs) {
  console.warn('  ! dist is older than src-main/app/main.ts: checking a stale build');
}

// 3. A stand-in Electron distribution: one executable carrying the fuse wire.
const work = mkdtempSync(join(tmpdir(), 'hearth-package-check-'));
const electronDist = join(work, 'electron-dist');
const output = join(work, 'release');
mkdirSync(electronDist);
writeFileSync(
  join(electronDist, 'electron'),
  Buffer.concat([
    Buffer.from(`#!/bin/sh\n# ${FUSE_SENTINEL}`),
    Buffer.from([1, ELECTRON_DEFAULT_FUSES.length]),
    Buffer.from(ELECTRON_DEFAULT_FUSES),
    Buffer.from('\necho "stand-in electron for the packaging check"\n'),
  ]),
);
chmodSync(join(electronDist, 'electron'), 0o755);
writeFileSync(join(electronDist, 'version'), `v${ELECTRON_VERSION}`);

// 4. Package. npmRebuild is off: rebuilding for Electron's ABI needs its headers
// from the internet (CI and users run @electron/rebuild; see docs/DESKTOP.md).
const result = spawnSync(
  process.execPath,
  [
    require.resolve('electron-builder/cli.js'),
    '--linux',
    'dir',
    '--publish',
    'never',
    `-c.electronDist=${electronDist}`,
    `-c.electronVersion=${ELECTRON_VERSION}`,
    '-c.npmRebuild=false',
    `-c.directories.output=${output}`,
  ],
  {
    cwd: root,
    encoding: 'utf8',
    env: { ...process.env, CSC_IDENTITY_AUTO_DISCOVERY: 'false', ELECTRON_BUILDER_OFFLINE: 'true' },
    maxBuffer: 64 * 1024 * 1024,
  },
);
if (result.status !== 0) {
  const log = `${result.stdout}\n${result.stderr}`.split('\n').filter((l) => !l.includes('duplicate dependency'));
  rmSync(work, { recursive: true, force: true });
  fail(`electron-builder failed (exit ${result.status ?? result.signal}):\n${log.slice(-30).join('\n')}`);
}
step('electron-builder --linux dir finished');

// 5. What the user would get.
const appDir = join(output, 'linux-unpacked');
const archive = join(appDir, 'resources', 'app.asar');
const unpacked = `${archive}.unpacked`;
if (!existsSync(archive)) fail(`no app.asar in ${appDir}`);
const entries = new Set(asar.listPackage(archive).map((entry) => entry.replace(/\\/g, '/').replace(/^\//, '')));
for (const built of [MAIN, PRELOAD, RENDERER, 'package.json']) {
  check(entries.has(built), `app.asar is missing ${built}`);
}
const packagedPackage = JSON.parse(asar.extractFile(archive, 'package.json').toString('utf8'));
check(packagedPackage.main === MAIN, `packaged package.json main is ${packagedPackage.main}, expected ${MAIN}`);
check(!asar.extractFile(archive, MAIN).toString('utf8').includes('createFakeDialog'), `${MAIN} pulls in test support`);
const testSupport = [...entries].filter(
  (entry) =>
    entry.startsWith('dist/') &&
    (/\/testing\//.test(entry) || /\.test\.js$/.test(entry) || entry.startsWith('dist/src-preload/test/')),
);
check(testSupport.length === 0, `app.asar ships test support: ${testSupport.slice(0, 5).join(', ')}`);

const nativeBinaries = [...entries].filter((entry) => entry.endsWith('.node'));
for (const native of NATIVE_MODULES) {
  const mine = nativeBinaries.filter((entry) => entry.startsWith(`${native}/`));
  if (!check(mine.length > 0, `no native binary of ${native} was packaged`)) continue;
  for (const entry of mine) {
    check(asar.statFile(archive, entry).unpacked === true, `${entry} is inside app.asar (must be unpacked)`);
    check(existsSync(join(unpacked, entry)), `${entry} is missing from app.asar.unpacked`);
  }
}
check(existsSync(join(unpacked, 'node_modules/node-pty/build/Release/pty.node')), 'node-pty pty.node is not unpacked');
check(existsSync(join(unpacked, 'node_modules/keytar/build/Release/keytar.node')), 'keytar.node is not unpacked');

// The ONNX embedder: Node entry inside the archive, its WebAssembly beside it, the browser builds left out.
check(entries.has('node_modules/onnxruntime-web/dist/ort.node.min.mjs'), 'onnxruntime-web Node entry is not packaged');
check(
  existsSync(join(unpacked, 'node_modules/onnxruntime-web/dist/ort-wasm-simd-threaded.wasm')),
  'onnxruntime-web WebAssembly is not unpacked',
);
const browserOnly = [...entries].filter((entry) => /onnxruntime-web\/dist\/.*(jsep|webgpu|webgl|\.map$)/.test(entry));
check(browserOnly.length === 0, `browser-only ONNX Runtime builds are packaged: ${browserOnly.slice(0, 3).join(', ')}`);

const fuses = await getCurrentFuseWire(join(appDir, 'hearth'));
const fuse = (index) => String.fromCharCode(fuses[index]);
check(fuse(0) === '0', 'fuse RunAsNode must be off');
check(fuse(2) === '0', 'fuse EnableNodeOptionsEnvironmentVariable must be off');
check(fuse(3) === '0', 'fuse EnableNodeCliInspectArguments must be off');
check(fuse(5) === '1', 'fuse OnlyLoadAppFromAsar must be on');

const updateFeed = join(appDir, 'resources', 'app-update.yml');
check(
  existsSync(updateFeed) && /provider:\s*github/.test(readFileSync(updateFeed, 'utf8')),
  'app-update.yml (updater feed) is missing',
);

const keep = process.argv.includes('--keep');
if (!keep) rmSync(work, { recursive: true, force: true });
if (problems.length > 0) fail(`the packaged app is wrong:\n  - ${problems.join('\n  - ')}`);
step(
  `app.asar holds main, preload and renderer (${entries.size} entries); ${nativeBinaries.length} native binaries unpacked; fuses set${keep ? `; kept ${work}` : ''}`,
);
console.log(`package-check: ok in ${((performance.now() - started) / 1000).toFixed(1)} s`);
