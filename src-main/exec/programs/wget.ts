import { type Grammar, getoptLong, optionRisks, parseArguments } from './option-grammar.js';
import { runsCode, writesValue } from './option-risks.js';
import { type ProgramKnowledge, risk, runTimeWords } from './program-knowledge.js';

const writes = writesValue();

/** GNU wget (getopt_long). */
const grammar: Grammar = {
  convention: getoptLong,
  options: [
    {
      names: ['-O', '--output-document'],
      value: 'required',
      risk: (use, context) => (use.value?.text === '-' ? undefined : writes(use, context)),
    },
    {
      names: [
        '-P',
        '--directory-prefix',
        '-o',
        '--output-file',
        '-a',
        '--append-output',
        '--save-cookies',
        '--warc-file',
        '--hsts-file',
        '--rejected-log',
      ],
      value: 'required',
      risk: writes,
    },
    { names: ['-e', '--execute'], value: 'required', risk: runsCode('runs a wgetrc command (it can set any option)') },
    { names: ['--config'], value: 'required', risk: runsCode('reads options from a file') },
    { names: ['--use-askpass'], value: 'required', risk: runsCode('runs this program to ask for a password') },
    {
      names: ['--post-file', '--body-file'],
      value: 'required',
      risk: (use) => risk('publishes', use.spelled, `${use.name} uploads ${use.value?.text ?? 'a file'}`),
    },
    {
      names: [
        '-i',
        '--input-file',
        '-t',
        '--tries',
        '-T',
        '--timeout',
        '-w',
        '--wait',
        '-Q',
        '--quota',
        '-l',
        '--level',
        '-U',
        '--user-agent',
        '--header',
        '--user',
        '--password',
        '--post-data',
        '--body-data',
        '--method',
        '-A',
        '--accept',
        '-R',
        '--reject',
        '-D',
        '--domains',
        '--exclude-domains',
        '-I',
        '--include-directories',
        '-X',
        '--exclude-directories',
        '--limit-rate',
        '--load-cookies',
        '-B',
        '--base',
        '--bind-address',
        '--ca-certificate',
        '--certificate',
        '--private-key',
        '--referer',
        '--cut-dirs',
        '--default-page',
        '--restrict-file-names',
      ],
      value: 'required',
    },
  ],
};

/** wget: a bare entry covers downloading into the workspace; other destinations, uploads and wgetrc commands are asked. */
export const wget: ProgramKnowledge = {
  names: ['wget'],
  assess(args, context) {
    return [
      ...runTimeWords(args, 'wget'),
      ...parseArguments(args, grammar).readings.flatMap((tokens) => optionRisks(tokens, context)),
    ];
  },
};
