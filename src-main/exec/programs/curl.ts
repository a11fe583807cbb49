import {
  type Grammar,
  getoptLong,
  type OptionDef,
  type OptionRisk,
  optionRisks,
  parseArguments,
} from './option-grammar.js';
import { runsCode, writesValue } from './option-risks.js';
import { type ProgramKnowledge, type Risk, risk, runTimeWords } from './program-knowledge.js';

/** A request body from a file (`@file`, `<file`) or stdin (`@-`) uploads it. */
const uploadsFile: OptionRisk = (use) => {
  const value = use.value?.text ?? '';
  if (use.value?.dynamic || /(^|=)[@<]/.test(value))
    return risk('publishes', use.spelled, `${use.name} ${value} uploads the contents of a file (or stdin)`);
  return undefined;
};

const writes = writesValue();

const options: OptionDef[] = [
  { names: ['-o', '--output'], value: 'required', risk: writes },
  { names: ['--output-dir'], value: 'required', risk: writes },
  { names: ['--create-dirs', '-O', '--remote-name', '--remote-name-all', '-J', '--remote-header-name'] },
  {
    names: [
      '-D',
      '--dump-header',
      '-c',
      '--cookie-jar',
      '--trace',
      '--trace-ascii',
      '--stderr',
      '--libcurl',
      '--etag-save',
      '--hsts',
      '--alt-svc',
    ],
    value: 'required',
    risk: writes,
  },
  {
    names: ['-K', '--config'],
    value: 'required',
    risk: runsCode('reads more options from a file (output files, uploads…)'),
  },
  {
    names: ['-T', '--upload-file'],
    value: 'required',
    risk: (use) => risk('publishes', use.spelled, `${use.name} uploads ${use.value?.text ?? 'a file'}`),
  },
  {
    names: [
      '-d',
      '--data',
      '--data-binary',
      '--data-raw',
      '--data-ascii',
      '--data-urlencode',
      '--json',
      '-F',
      '--form',
      '--form-string',
    ],
    value: 'required',
    risk: uploadsFile,
  },
  {
    names: [
      '-H',
      '--header',
      '-A',
      '--user-agent',
      '-e',
      '--referer',
      '-X',
      '--request',
      '-u',
      '--user',
      '-x',
      '--proxy',
      '-b',
      '--cookie',
      '-m',
      '--max-time',
      '--connect-timeout',
      '-w',
      '--write-out',
      '-r',
      '--range',
      '-C',
      '--continue-at',
      '-E',
      '--cert',
      '--key',
      '--cacert',
      '--capath',
      '--retry',
      '--resolve',
      '--connect-to',
      '--url',
      '-Y',
      '--speed-limit',
      '-y',
      '--speed-time',
      '-z',
      '--time-cond',
      '--limit-rate',
      '--max-filesize',
      '-U',
      '--proxy-user',
      '--interface',
      '--dns-servers',
      '--oauth2-bearer',
      '-Q',
      '--quote',
      '--mail-from',
      '--mail-rcpt',
      '--variable',
      '--expand-url',
      '--aws-sigv4',
      '--ciphers',
      '-t',
      '--telnet-option',
    ],
    value: 'required',
  },
];

/**
 * curl is a network tool: a bare entry covers fetching. Asked: writing outside the
 * workspace, uploading files or stdin, and option files.
 */
export const curl: ProgramKnowledge = {
  names: ['curl'],
  assess(args, context) {
    const grammar: Grammar = { convention: getoptLong, options };
    return [
      ...runTimeWords(args, 'curl'),
      ...parseArguments(args, grammar).readings.flatMap((tokens): Risk[] => optionRisks(tokens, context)),
    ];
  },
};
