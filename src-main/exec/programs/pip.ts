import type { ShellWord } from '../shell-words.js';
import { type Grammar, getoptLong, optionRisks, parseArguments, positionalsOf } from './option-grammar.js';
import { runsCode, writesValue } from './option-risks.js';
import { type ProgramContext, type ProgramKnowledge, type Risk, risk } from './program-knowledge.js';

/** pip's optparse: clusters, `--opt=value`, unambiguous abbreviations; options anywhere. */
const grammar: Grammar = {
  convention: getoptLong,
  options: [
    { names: ['--python'], value: 'required', risk: runsCode('runs pip with another interpreter') },
    {
      names: [
        '-t',
        '--target',
        '--prefix',
        '--root',
        '--src',
        '-d',
        '--dest',
        '--download',
        '-w',
        '--wheel-dir',
        '--log',
        '--cache-dir',
        '--report',
      ],
      value: 'required',
      risk: writesValue(),
    },
    { names: ['--user'], risk: (use) => risk('writes-outside', use.spelled, '--user installs into the home folder') },
    {
      names: ['--break-system-packages'],
      risk: (use) => risk('writes-outside', use.spelled, '--break-system-packages lets pip change the system Python'),
    },
    {
      names: [
        '-r',
        '--requirement',
        '-c',
        '--constraint',
        '-e',
        '--editable',
        '-i',
        '--index-url',
        '--extra-index-url',
        '-f',
        '--find-links',
        '--proxy',
        '--retries',
        '--timeout',
        '--exists-action',
        '--trusted-host',
        '--cert',
        '--client-cert',
        '--platform',
        '--python-version',
        '--implementation',
        '--abi',
        '--no-binary',
        '--only-binary',
        '--progress-bar',
        '--upgrade-strategy',
        '--global-option',
        '--config-settings',
        '-C',
        '--format',
        '--exclude',
        '--path',
        '--keyring-provider',
        '--use-feature',
        '--use-deprecated',
        '--resume-retries',
      ],
      value: 'required',
    },
  ],
};

/** What each pip command does beyond reading. */
const commands: Record<string, { kind: Risk['kind']; detail: string } | undefined> = {
  install: { kind: 'runs-code', detail: 'downloads packages and runs their build code' },
  download: { kind: 'network', detail: 'downloads packages (and may run their build code)' },
  wheel: { kind: 'runs-code', detail: 'builds packages, running their build code' },
  uninstall: { kind: 'writes-outside', detail: 'removes installed packages' },
  config: { kind: 'writes-outside', detail: 'changes pip\u2019s configuration (index, trusted hosts…)' },
  cache: { kind: 'writes-outside', detail: 'manages pip\u2019s cache in the home folder' },
  search: { kind: 'network', detail: 'queries the package index' },
  index: { kind: 'network', detail: 'queries the package index' },
  lock: { kind: 'network', detail: 'resolves packages against the index' },
  list: undefined,
  show: undefined,
  freeze: undefined,
  check: undefined,
  help: undefined,
  debug: undefined,
  inspect: undefined,
  hash: undefined,
  completion: undefined,
};

const readOnlyConfig = new Set(['list', 'get', 'debug']);
const readOnlyCache = new Set(['dir', 'info', 'list']);

export function pipRisks(args: readonly ShellWord[], context: ProgramContext, shown: string): Risk[] {
  return parseArguments(args, grammar).readings.flatMap((tokens) => {
    const risks: Risk[] = optionRisks(tokens, context);
    const [command, action] = positionalsOf(tokens).map((token) => token.word.text);
    if (command === undefined) return risks;
    if (!(command in commands)) {
      risks.push(risk('runs-code', command, `${command} is not a pip command`));
      return risks;
    }
    const known = commands[command];
    if (command === 'config' && readOnlyConfig.has(action ?? '')) return risks;
    if (command === 'cache' && readOnlyCache.has(action ?? '')) return risks;
    if (known) risks.push(risk(known.kind, command, `${shown} ${command} ${known.detail}`));
    return risks;
  });
}

/** pip and pip3 (and pipx, which installs and runs applications). */
export const pip: ProgramKnowledge = {
  names: ['pip', 'pip3'],
  matches: (base) => /^pip[0-9.]*$/.test(base),
  assess: (args, context) => pipRisks(args, context, 'pip'),
};

export const pipx: ProgramKnowledge = {
  names: ['pipx', 'uvx'],
  assess: (args) =>
    args.length === 0
      ? []
      : [risk('runs-code', args[0]?.text ?? '', 'installs or runs Python applications from the package index')],
};
