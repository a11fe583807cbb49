// `npm run fuzz:exec [-- --runs 600 --seed 42]`: the differential oracle over generated commands
// (src-main/exec/oracle/). Prints every disagreement between the analyser and real runs; exits 1 if any.
import { loadBashParser } from '../src-main/exec/bash-parser.js';
import { runDifferential } from '../src-main/exec/oracle/differential.js';
import { createRecordingSandbox, probeBubblewrap } from '../src-main/exec/oracle/recording-sandbox.js';

function option(name: string, fallback: number): number {
  const at = process.argv.indexOf(`--${name}`);
  if (at < 0) return fallback;
  const value = Number(process.argv[at + 1]);
  if (!Number.isInteger(value) || value < 0)
    throw new Error(`--${name} needs a whole number, got ${process.argv[at + 1]}`);
  return value;
}

const runs = option('runs', 600);
const seed = option('seed', Math.floor(Math.random() * 2 ** 31));
const concurrency = option('concurrency', 2);
const probe = await probeBubblewrap();
if (!probe.ok) {
  console.error(probe.reason);
  process.exit(2);
}
console.log(`fuzz:exec seed ${seed}, ${runs} generated commands, ${concurrency} at a time`);
const sandbox = await createRecordingSandbox();
const started = Date.now();
try {
  const report = await runDifferential({
    parser: await loadBashParser(),
    sandbox,
    seed,
    runs,
    concurrency,
    onProgress: (done, total) => {
      if (done % 50 === 0 || done === total) process.stderr.write(`  ${done}/${total}\n`);
    },
  });
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  console.log(`${report.commands} distinct commands in ${seconds} s; ${report.timedOut.length} timed out`);
  for (const finding of report.disagreements)
    console.log(`\n[${finding.kind}] ${JSON.stringify(finding.command)}\n  ${finding.detail}`);
  console.log(`\n${report.disagreements.length} disagreement(s) (seed ${seed})`);
  process.exitCode = report.disagreements.length > 0 ? 1 : 0;
} finally {
  await sandbox.dispose();
}
