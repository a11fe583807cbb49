import { type Grammar, getoptLong, optionRisks, parseArguments } from './option-grammar.js';
import { runsCode } from './option-risks.js';
import type { ProgramKnowledge } from './program-knowledge.js';

/** ripgrep: `--pre` runs a program on every file searched; `--hostname-bin` runs one for hyperlinks. */
const grammar: Grammar = {
  convention: getoptLong,
  options: [
    { names: ['--pre'], value: 'required', risk: runsCode('runs this program on every file searched') },
    { names: ['--hostname-bin'], value: 'required', risk: runsCode('runs this program to find the host name') },
    {
      names: [
        '-e',
        '--regexp',
        '-f',
        '--file',
        '-g',
        '--glob',
        '--iglob',
        '-t',
        '--type',
        '-T',
        '--type-not',
        '--type-add',
        '-m',
        '--max-count',
        '-A',
        '-B',
        '-C',
        '--after-context',
        '--before-context',
        '--context',
        '-j',
        '--threads',
        '--max-depth',
        '-d',
        '--maxdepth',
        '-E',
        '--encoding',
        '--engine',
        '-r',
        '--replace',
        '--colors',
        '--color',
        '--pre-glob',
        '--ignore-file',
        '--sort',
        '--sortr',
        '-M',
        '--max-columns',
        '--max-filesize',
        '--path-separator',
        '--context-separator',
        '--field-match-separator',
        '--field-context-separator',
        '--hyperlink-format',
        '--dfa-size-limit',
        '--regex-size-limit',
      ],
      value: 'required',
    },
  ],
};

export const ripgrep: ProgramKnowledge = {
  names: ['rg'],
  assess(args, context) {
    return parseArguments(args, grammar).readings.flatMap((tokens) => optionRisks(tokens, context));
  },
};
