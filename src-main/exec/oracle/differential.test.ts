import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type BashParser, loadBashParser } from '../bash-parser.js';
import { checkCommands, runDifferential } from './differential.js';
import { createRecordingSandbox, probeBubblewrap, type RecordingSandbox } from './recording-sandbox.js';

// The differential oracle (issue 17): commands run for real in a throwaway bubblewrap sandbox with
// recording shims; the analyser's view of what runs must be a superset of what bash ran.
// `npm run fuzz:exec` runs the long version with a random seed.
const probe = await probeBubblewrap();
if (!probe.ok) console.log(`skipped: ${probe.reason}`);

describe.skipIf(!probe.ok)('the differential oracle', () => {
  let parser: BashParser;
  let sandbox: RecordingSandbox;
  beforeAll(async () => {
    parser = await loadBashParser();
    sandbox = await createRecordingSandbox();
  });
  afterAll(async () => {
    await sandbox?.dispose();
  });

  it('records what really ran, so a missed command is caught', async () => {
    const run = await sandbox.run('x=rm; cd ~ && $x -rf *');
    expect(run.executions).toEqual([
      {
        name: 'rm',
        cwd: '/home/oracle',
        args: ['-rf', 'Documents', 'Downloads', 'Pictures', 'projects', 'todo.txt', 'work'],
      },
    ]);
  });

  // Disagreements the fuzzer found, fixed since: each must stay fixed.
  it('agrees on commands the fuzzer once caught the analyser out on', async () => {
    const report = await checkCommands(
      [
        "script -qc 'cp README.md copy.md' /dev/null",
        "script -qc 'echo /??? | xargs rm -rf' /dev/null",
        'stdbuf -o0 cat <<\'EOF\' | sh\nchmod -R 755 "$(echo /)"\nEOF',
        'nice echo \'chmod -R 755 "$HOME"\' | sh',
        'cd ~ && rm -rf *',
        'for v in ~; do rm -rf "$v"; done',
        'true | command r\'\'m -v "$(echo /)"',
        'cd "$HOME" && time while r\'\'m ../.. --r -v; do cat README.md; break; done',
        'for v in ~; do command echo \'\\rm "$v" -Rfv -v\' | sh; done',
        // biome-ignore lint/suspicious/noTemplateCurlyInString: shell syntax, not a JS template
        'read -r v <<< build; echo \'rm --recursive "${v:-/}"\' | sh',
        "script -qc 'chmod -R 755 $'\\''/'\\''' /dev/null",
        "cat <<'EOF' | sh\n\\cat README.md\nEOF",
      ],
      { parser, sandbox },
    );
    expect(report.disagreements).toEqual([]);
  });

  it('a fixed-seed run of generated commands finds no disagreement', async () => {
    const report = await runDifferential({ parser, sandbox, seed: 17, runs: 40 });
    expect(report.commands).toBeGreaterThan(20);
    expect(report.disagreements).toEqual([]);
  }, 120_000);
});
