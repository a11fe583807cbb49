// `node --import ./bench/loaded-files-hook.mjs …`: appends every file the process loads to the file
// named by HEARTH_BENCH_LOADED_FILES, one per line (ES modules through a load hook, CommonJS through
// Module#_compile), so the gateway bench can count what a cold start reads by the time it is Ready.
import { appendFileSync } from 'node:fs';
import { Module, register } from 'node:module';
import { isMainThread } from 'node:worker_threads';

const out = process.env.HEARTH_BENCH_LOADED_FILES;

/** The ES module load hook (runs on the hooks thread). */
export async function load(url, context, nextLoad) {
  if (out && url.startsWith('file:')) appendFileSync(out, `${url}\n`);
  return nextLoad(url, context);
}

if (isMainThread && out) {
  register(import.meta.url);
  const compile = Module.prototype._compile;
  Module.prototype._compile = function (content, filename) {
    appendFileSync(out, `cjs:${filename}\n`);
    return compile.call(this, content, filename);
  };
}
