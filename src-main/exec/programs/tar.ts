import { type Grammar, getoptLong, optionRisks, parseArguments, usesOf } from './option-grammar.js';
import { always, runsCode, writesValue } from './option-risks.js';
import { type ProgramKnowledge, plainWord, type Risk, risk, writeRisk } from './program-knowledge.js';

const runsProgram = runsCode('runs a program');

/** GNU tar (argp: clusters, abbreviations); bsdtar shares the risky letters. */
const grammar: Grammar = {
  convention: getoptLong,
  options: [
    {
      names: ['--checkpoint-action'],
      value: 'required',
      risk: runsCode('runs an action (exec=…) at every checkpoint'),
    },
    { names: ['--to-command'], value: 'required', risk: runsCode('pipes every extracted file into a command') },
    {
      names: ['-I', '--use-compress-program'],
      value: 'required',
      risk: runsCode('compresses through a program it names'),
    },
    { names: ['-F', '--info-script', '--new-volume-script'], value: 'required', risk: runsProgram },
    { names: ['--rsh-command', '--rmt-command'], value: 'required', risk: runsProgram },
    { names: ['-g', '--listed-incremental', '--index-file', '--volno-file'], value: 'required', risk: writesValue() },
    {
      names: ['-P', '--absolute-names'],
      risk: always('writes-outside', 'keeps absolute member names, so extraction can write anywhere'),
    },
    { names: ['-C', '--directory'], value: 'required' },
    { names: ['-f', '--file'], value: 'required' },
    {
      names: [
        '-T',
        '--files-from',
        '-X',
        '--exclude-from',
        '-V',
        '--label',
        '-b',
        '--blocking-factor',
        '-H',
        '--format',
        '-K',
        '--starting-file',
        '-N',
        '--newer',
        '--after-date',
        '-L',
        '--tape-length',
        '--owner',
        '--group',
        '--mode',
        '--mtime',
        '--exclude',
        '--transform',
        '--xform',
        '--strip-components',
        '--checkpoint',
        '--suffix',
        '--record-size',
        '--occurrence',
        '--sort',
        '--quoting-style',
        '--backup',
        '--level',
      ],
      value: 'required',
    },
    // One definition per mode, so `-c` is not taken for `-x`.
    ...[
      ['-x', '--extract', '--get'],
      ['-c', '--create'],
      ['-r', '--append'],
      ['-u', '--update'],
      ['-A', '--catenate', '--concatenate'],
      ['-t', '--list'],
      ['-d', '--diff', '--compare'],
      ['--delete'],
    ].map((names) => ({ names })),
    { names: ['--force-local'] },
    { names: ['-O', '--to-stdout'] },
  ],
};

/** tar's first word may be old-style letters without a dash (`tar xzf a.tgz`): same letters, values taken in order from the next words. */
function modernise(args: Parameters<ProgramKnowledge['assess']>[0]) {
  const first = args[0];
  if (!first || first.text.startsWith('-') || !/^[A-Za-z]+$/.test(first.text)) return [...args];
  const words = [...args.slice(1)];
  const options = [];
  for (const letter of first.text) {
    if ('fCIFbgHKLNTVX'.includes(letter)) options.push(plainWord(`-${letter}`), words.shift() ?? plainWord(''));
    else options.push(plainWord(`-${letter}`));
  }
  return [...options, ...words];
}

const writing = [
  '-x',
  '--extract',
  '--get',
  '-c',
  '--create',
  '-r',
  '--append',
  '-u',
  '--update',
  '-A',
  '--catenate',
  '--concatenate',
  '--delete',
];

/** tar and gtar/bsdtar: programs it runs, remote archives (`host:file` runs rsh/ssh), where it writes. */
export const tar: ProgramKnowledge = {
  names: ['tar', 'gtar', 'bsdtar'],
  assess(args, context) {
    return parseArguments(modernise(args), grammar).readings.flatMap((tokens) => {
      const risks: Risk[] = optionRisks(tokens, context);
      const local = usesOf(tokens, ['--force-local']).length > 0;
      const extracting = usesOf(tokens, ['-x', '--extract', '--get']).length > 0;
      const creating = usesOf(tokens, writing).length > 0 && !extracting;
      for (const archive of usesOf(tokens, ['-f', '--file'])) {
        const name = archive.value?.text ?? '';
        if (!local && /^[^/]*:/.test(name))
          risks.push(
            risk(
              'network',
              archive.spelled,
              `${archive.name} ${name} is a remote archive: tar runs rsh/ssh to reach it`,
            ),
          );
        else if (creating && archive.value && name !== '-') {
          const written = writeRisk(archive.value, context, archive.spelled, `tar ${archive.name} writes the archive`);
          if (written) risks.push(written);
        }
      }
      const toStdout = usesOf(tokens, ['-O', '--to-stdout']).length > 0;
      if (extracting && !toStdout) {
        // Member names are only known to the archive: they can include .git/config (core.fsmonitor
        // runs on the next `git status`), .npmrc, .envrc… which make later commands run code.
        const spelled = usesOf(tokens, ['-x', '--extract', '--get'])[0]?.spelled ?? ['-x'];
        risks.push(
          risk(
            'writes-files',
            spelled,
            'extracts files whose names only the archive knows, dotfiles such as .git/config included',
          ),
        );
      }
      if (extracting)
        for (const folder of usesOf(tokens, ['-C', '--directory'])) {
          const written = folder.value && writeRisk(folder.value, context, folder.spelled, 'tar extracts');
          if (written) risks.push(written);
        }
      return risks;
    });
  },
};
