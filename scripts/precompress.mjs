// Writes `.br` and `.gz` beside each compressible file of the built Control UI, at the highest
// levels, so the gateway sends them without compressing at request time
// (src-main/gateway/compressed-assets.ts). Usage: node scripts/precompress.mjs dist/renderer
import { readdir, readFile, stat, writeFile } from 'node:fs/promises';
import { extname, join } from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';

const COMPRESSIBLE = new Set(['.js', '.mjs', '.css', '.html', '.json', '.svg', '.webmanifest', '.wasm', '.txt']);
const MIN_BYTES = 1024;
const brotli = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

async function* files(dir) {
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* files(path);
    else if (entry.isFile()) yield path;
  }
}

const root = process.argv[2];
if (!root) {
  console.error('usage: node scripts/precompress.mjs <built folder>');
  process.exit(2);
}
let count = 0;
let before = 0;
let after = 0;
for await (const path of files(root)) {
  if (!COMPRESSIBLE.has(extname(path))) continue;
  const body = await readFile(path);
  if (body.length < MIN_BYTES) continue;
  const [br, gz] = await Promise.all([
    brotli(body, {
      params: {
        [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
        [constants.BROTLI_PARAM_SIZE_HINT]: body.length,
      },
    }),
    gzipAsync(body, { level: constants.Z_BEST_COMPRESSION }),
  ]);
  await writeFile(`${path}.br`, br);
  await writeFile(`${path}.gz`, gz);
  count++;
  before += (await stat(path)).size;
  after += br.length;
}
console.log(`precompressed ${count} files: ${Math.round(before / 1024)} KB → ${Math.round(after / 1024)} KB brotli`);
