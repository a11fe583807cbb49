// `npm run bench`: runs every bench/*.bench.ts (or those named on the command line)
// and prints one table. Numbers go into docs/BENCHMARKS.md by hand, with machine and date.
import { readdirSync } from 'node:fs';
import { cpus, totalmem } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { BenchResult } from './bench-result.js';

const here = dirname(fileURLToPath(import.meta.url));
const only = process.argv.slice(2);
const files = readdirSync(here)
  .filter((f) => f.endsWith('.bench.ts'))
  .filter((f) => only.length === 0 || only.some((name) => f.startsWith(name)))
  .sort();

console.log(
  `machine: ${cpus()[0]?.model ?? 'unknown'} × ${cpus().length}, ${(totalmem() / 2 ** 30).toFixed(0)} GiB, node ${process.version}`,
);
console.log(`date: ${new Date().toISOString()}\n`);
let failures = 0;
for (const file of files) {
  console.log(`## ${file}`);
  try {
    const module = (await import(pathToFileURL(join(here, file)).href)) as { run(): Promise<BenchResult[]> };
    const results = await module.run();
    for (const r of results) {
      const value = Number.isInteger(r.value) ? String(r.value) : r.value.toFixed(r.value < 10 ? 2 : 1);
      console.log(
        `  ${r.name.padEnd(58)} ${value.padStart(10)} ${r.unit.padEnd(8)} ${r.budget ? `(budget ${r.budget})` : ''}${r.note ? `  ${r.note}` : ''}`,
      );
    }
  } catch (error) {
    failures += 1;
    console.log(`  FAILED: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
  }
  console.log('');
}
process.exit(failures > 0 ? 1 : 0);
