import { type Grammar, getoptLong, optionRisks, parseArguments, positionalsOf } from './option-grammar.js';
import { runsCode, writesValue } from './option-risks.js';
import { type ProgramKnowledge, type Risk, writeRisk } from './program-knowledge.js';

/** GNU sort. */
const sortGrammar: Grammar = {
  convention: getoptLong,
  options: [
    { names: ['-o', '--output'], value: 'required', risk: writesValue('writes the result') },
    {
      names: ['--compress-program'],
      value: 'required',
      risk: runsCode('compresses temporary files through a program it names'),
    },
    { names: ['-T', '--temporary-directory'], value: 'required', risk: writesValue('writes temporary files') },
    {
      names: [
        '-k',
        '--key',
        '-t',
        '--field-separator',
        '-S',
        '--buffer-size',
        '--files0-from',
        '--parallel',
        '--batch-size',
        '--sort',
        '--random-source',
      ],
      value: 'required',
    },
  ],
};

export const sort: ProgramKnowledge = {
  names: ['sort', 'gsort'],
  assess(args, context) {
    return parseArguments(args, sortGrammar).readings.flatMap((tokens) => optionRisks(tokens, context));
  },
};

const uniqGrammar: Grammar = {
  convention: getoptLong,
  options: [
    {
      names: ['-f', '--skip-fields', '-s', '--skip-chars', '-w', '--check-chars', '--group', '--all-repeated'],
      value: 'required',
    },
  ],
};

/** `uniq INPUT OUTPUT` writes OUTPUT. */
export const uniq: ProgramKnowledge = {
  names: ['uniq'],
  assess(args, context) {
    return parseArguments(args, uniqGrammar).readings.flatMap((tokens) => {
      const output = positionalsOf(tokens)[1];
      const written = output && writeRisk(output.word, context, output.word.text, 'uniq writes its output');
      return written ? [written] : ([] as Risk[]);
    });
  },
};
