#!/usr/bin/env node
// After `tsc -p tsconfig.build.json`: bundle the `hearth` CLI (and so `hearth gateway run`) with
// esbuild into dist/bundle/, so a cold start reads a few dozen files instead of compiling ~900
// ES modules one by one (issue 23). Modules the first request does not need stay behind dynamic
// import()s and become their own chunks, loaded on first use.
//
// Layout rules the sources rely on (src-main/base/app-root.ts, base/module-worker.ts):
// - one flat folder: entries and chunks side by side, so a worker entry `<name>.js` is beside
//   the chunk that starts it, as it is beside its module in the sources and the tsc build;
// - the app root is found by walking up to package.json, so dist/bundle/ needs no `../` count;
// - the bundled plugins (extensions/<id>/, each with a hearth.plugin.json) are entries of the same
//   build, at extensions/<id>/<main>.js beside a copy of their manifest: the chunks they share
//   with the host (zod, the AI SDK, the plugin SDK, agent/context) are one copy, compiled once.
//   The loader finds them beside its own chunk (plugins/installed-plugins.ts); the tsc build's
//   dist/extensions stays for the desktop app, and a user's plugins load from their own folder.
// Packages stay outside the bundle when they are native (LanceDB, node-pty, keytar), locate
// their own files beside their module (web-tree-sitter's .wasm, onnxruntime's .wasm,
// playwright-core's assets), or are loaded through createRequire on first use. pino is bundled:
// Hearth writes through pino.destination (sonic-boom, no worker); only pino's transports start a
// worker file beside pino, and Hearth configures none. Kept outside, it cost ~30 CommonJS files
// (and the CommonJS export scan) before the gateway listens.
import { copyFileSync, existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
// `--outdir <dir>` (a test's own folder); it must sit inside the repo, where the app root is found.
const outdirFlag = process.argv.indexOf('--outdir');
const outdir = outdirFlag > 0 ? resolve(process.argv[outdirFlag + 1] ?? '') : join(root, 'dist', 'bundle');
if (!outdir.startsWith(`${root}/`)) {
  process.stderr.write(
    `bundle-main: --outdir ${outdir} is outside ${root}; the bundle finds its app root above itself\n`,
  );
  process.exit(2);
}

const external = [
  '@lancedb/lancedb',
  'apache-arrow',
  'node-pty',
  'keytar',
  'onnxruntime-web',
  'electron',
  'tsx',
  'tsx/*',
  'web-tree-sitter',
  'tree-sitter-bash',
  'playwright-core',
  'jsdom',
];

// Zod's `z.locales` re-exports its error messages in ~50 languages (~300 KB, half of zod in the
// bundle, compiled before the gateway listens). Hearth never switches zod's language (its own
// errors name the field in English, and the UI translates its own texts), so in the bundle that
// namespace holds English only. The default `z.config(en())` imports en.js directly. Three of
// zod's entry modules re-export the namespace (v4/classic, v4/core: what `zod/v4/core` and the
// classic API import, v4/mini); leaving one out puts every language back.
const zodEnglishOnly = {
  name: 'zod-english-only',
  setup(pluginBuild) {
    pluginBuild.onResolve({ filter: /^\.\.\/locales\/index\.js$/ }, (args) =>
      /[\\/]zod[\\/]v4[\\/](?:classic|core|mini)[\\/]/.test(args.importer)
        ? { path: join(dirname(args.importer), '..', 'locales', 'en.js'), namespace: 'zod-locales' }
        : undefined,
    );
    pluginBuild.onLoad({ filter: /.*/, namespace: 'zod-locales' }, (args) => ({
      contents: `export { default as en } from ${JSON.stringify(args.path)};`,
      resolveDir: dirname(args.path),
    }));
  },
};

/** extensions/<id> folders with a manifest, and the entry each names (`main`, a .ts file). */
const plugins = readdirSync(join(root, 'extensions'))
  .sort()
  .filter((id) => existsSync(join(root, 'extensions', id, 'hearth.plugin.json')))
  .map((id) => {
    const manifest = join(root, 'extensions', id, 'hearth.plugin.json');
    const { main } = JSON.parse(readFileSync(manifest, 'utf8'));
    if (typeof main !== 'string' || !main.endsWith('.ts')) {
      process.stderr.write(
        `bundle-main: ${manifest}: "main" must name the plugin's .ts entry, is ${JSON.stringify(main)}\n`,
      );
      process.exit(2);
    }
    return { id, manifest, main };
  });
const pluginEntries = Object.fromEntries(
  plugins.map(({ id, main }) => [`extensions/${id}/${main.replace(/\.ts$/, '')}`, `extensions/${id}/${main}`]),
);

rmSync(outdir, { recursive: true, force: true });
const began = Date.now();
const result = await build({
  absWorkingDir: root,
  entryPoints: {
    hearth: 'src-main/cli/main.ts',
    'cedict-worker': 'src-main/memory/lexicon/cedict-worker.ts',
    'onnx-embedder-worker': 'src-main/memory/embedders/onnx-embedder-worker.ts',
    ...pluginEntries,
  },
  outdir,
  bundle: true,
  splitting: true,
  chunkNames: '[name]-[hash]',
  platform: 'node',
  format: 'esm',
  target: 'node20',
  sourcemap: true,
  // V8 keeps every loaded script's source text in memory and pre-parses all of it: without the
  // whitespace and with shorter syntax the bundle is 8.3 -> 5.8 MB and an idle gateway ~6 MB smaller.
  // Names are kept (no identifier minifying), so a stack trace still names its functions; the
  // source maps beside each file give the lines (`node --enable-source-maps`).
  minifyWhitespace: true,
  minifySyntax: true,
  external,
  plugins: [zodEnglishOnly],
  // Bundled CommonJS packages call require() for Node built-ins and the external packages;
  // an ES module has none, so every output file gets one made for its own location.
  banner: {
    js: "import { createRequire as __hearthCreateRequire } from 'node:module'; const require = __hearthCreateRequire(import.meta.url);",
  },
  logLevel: 'warning',
  metafile: true,
});
// `--metafile <file>`: esbuild's account of what went into each output (for `esbuild --analyze`-style
// questions: which package makes a chunk big), written outside the bundle.
const metafileFlag = process.argv.indexOf('--metafile');
if (metafileFlag > 0) writeFileSync(resolve(process.argv[metafileFlag + 1] ?? ''), JSON.stringify(result.metafile));
// The manifest beside its entry: the loader discovers a plugin by its hearth.plugin.json.
for (const { id, manifest } of plugins) copyFileSync(manifest, join(outdir, 'extensions', id, 'hearth.plugin.json'));
const files = Object.keys(result.metafile.outputs).filter((name) => name.endsWith('.js')).length;
process.stdout.write(
  `bundled the CLI and ${plugins.length} plugins into ${outdir} (${files} files) in ${Date.now() - began} ms\n`,
);
